import type { ServiceDefinition } from '@herald/core';
import { messagingEntities, MessagingModule } from '@herald/messaging';
import { PersistenceModule } from '@herald/persistence';
import { Module } from '@nestjs/common';
import { SENDING } from './consumer.js';
import { sendingMigrations } from './migrations/index.js';

const schema = { service: SENDING, entities: [...messagingEntities], migrations: sendingMigrations };

/** Outgoing email, templates, suppression, tracking and unsubscribe links (issue #5). */
@Module({
  imports: [PersistenceModule.forService(schema), MessagingModule.forService({ service: SENDING })],
})
export class SendingModule {}

export const sendingService: ServiceDefinition = { name: SENDING, module: SendingModule, defaultPort: 3002, schema };

import type { ServiceDefinition } from '@herald/core';
import { messagingEntities, MessagingModule } from '@herald/messaging';
import { PersistenceModule } from '@herald/persistence';
import { Module } from '@nestjs/common';
import { DOMAINS } from './consumer.js';
import { domainsMigrations } from './migrations/index.js';

const schema = { service: DOMAINS, entities: [...messagingEntities], migrations: domainsMigrations };

/** Sender domains, DKIM keys and verification state (issue #5). */
@Module({
  imports: [PersistenceModule.forService(schema), MessagingModule.forService({ service: DOMAINS })],
})
export class DomainsModule {}

export const domainsService: ServiceDefinition = { name: DOMAINS, module: DomainsModule, defaultPort: 3006, schema };

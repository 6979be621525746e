import type { ServiceDefinition } from '@herald/core';
import { messagingEntities, MessagingModule } from '@herald/messaging';
import { PersistenceModule } from '@herald/persistence';
import { Module } from '@nestjs/common';
import { GATEWAY } from './consumer.js';
import { gatewayMigrations } from './migrations/index.js';

const schema = { service: GATEWAY, entities: [...messagingEntities], migrations: gatewayMigrations };

/** Users, sessions, projects, API keys, members; authenticates and routes every request (issue #3). */
@Module({
  imports: [PersistenceModule.forService(schema), MessagingModule.forService({ service: GATEWAY })],
})
export class GatewayModule {}

export const gatewayService: ServiceDefinition = { name: GATEWAY, module: GatewayModule, defaultPort: 3000, schema };

import type { ServiceDefinition } from '@herald/core';
import { messagingEntities, MessagingModule } from '@herald/messaging';
import { PersistenceModule } from '@herald/persistence';
import { Module } from '@nestjs/common';
import { SEGMENTS } from './consumer.js';
import { segmentsMigrations } from './migrations/index.js';

const schema = { service: SEGMENTS, entities: [...messagingEntities], migrations: segmentsMigrations };

/** Segments, memberships and a read model of contacts. */
@Module({
  imports: [PersistenceModule.forService(schema), MessagingModule.forService({ service: SEGMENTS })],
})
export class SegmentsModule {}

export const segmentsService: ServiceDefinition = { name: SEGMENTS, module: SegmentsModule, defaultPort: 3004, schema };

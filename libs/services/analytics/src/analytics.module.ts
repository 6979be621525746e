import type { ServiceDefinition } from '@herald/core';
import { messagingEntities, MessagingModule } from '@herald/messaging';
import { PersistenceModule } from '@herald/persistence';
import { Module } from '@nestjs/common';
import { ANALYTICS } from './consumer.js';
import { EventCount } from './top-events/event-count.entity.js';
import { EventTrackedHandler } from './top-events/event-tracked.handler.js';
import { TopEventsController } from './top-events/top-events.controller.js';
import { analyticsMigrations } from './migrations/index.js';
import { ProjectLifecycleHandler } from './projects/project-lifecycle.handler.js';

const schema = { service: ANALYTICS, entities: [EventCount, ...messagingEntities], migrations: analyticsMigrations };

/** Activity feed and aggregates built from the event stream (`/activity/*`, `/analytics/*`). */
@Module({
  imports: [PersistenceModule.forService(schema), MessagingModule.forService({ service: ANALYTICS })],
  controllers: [EventTrackedHandler, TopEventsController, ProjectLifecycleHandler],
})
export class AnalyticsModule {}

export const analyticsService: ServiceDefinition = { name: ANALYTICS, module: AnalyticsModule, defaultPort: 3007, schema };

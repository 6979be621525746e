import { loadConfig, type ServiceDefinition } from '@herald/core';
import { Job, JobsModule } from '@herald/jobs';
import { messagingEntities, MessagingModule } from '@herald/messaging';
import { PersistenceModule } from '@herald/persistence';
import { Module } from '@nestjs/common';
import { ActivityController } from './activity/activity.controller.js';
import { ActivityFeed } from './activity/activity-feed.js';
import { FeedStore } from './activity/feed.store.js';
import { AnalyticsController } from './analytics/analytics.controller.js';
import { CampaignAnalytics } from './analytics/campaign-analytics.js';
import { CampaignAnalyticsStore } from './analytics/campaign-analytics.store.js';
import { Charts } from './analytics/charts.js';
import { ChartsStore } from './analytics/charts.store.js';
import { ANALYTICS_SETTINGS, AnalyticsSettings } from './analytics.settings.js';
import { ANALYTICS } from './consumer.js';
import { analyticsMigrations } from './migrations/index.js';
import { ActivityProjector } from './projection/activity-projector.js';
import { projectionEntities, RetentionState } from './projection/activity.entities.js';
import { ActivityHandlers } from './projection/activity.handlers.js';
import { ActivityRetention } from './retention/activity-retention.js';
import { RetentionStore } from './retention/retention.store.js';
import { EventCount, EventCountDaily } from './top-events/event-count.entity.js';
import { EventCountsStore } from './top-events/event-counts.store.js';
import { EventTrackedHandler } from './top-events/event-tracked.handler.js';
import { TopEventsController } from './top-events/top-events.controller.js';

export const analyticsSchema = {
  service: ANALYTICS,
  entities: [EventCount, EventCountDaily, ...projectionEntities, RetentionState, Job, ...messagingEntities],
  migrations: analyticsMigrations,
};

/** Activity feed and aggregates built from the event stream (`/activity/*`, `/analytics/*`; docs/analytics.md). */
@Module({
  imports: [
    PersistenceModule.forService(analyticsSchema),
    MessagingModule.forService({ service: ANALYTICS }),
    JobsModule.forService(ANALYTICS, { concurrency: 1 }),
  ],
  controllers: [EventTrackedHandler, ActivityHandlers, TopEventsController, ActivityController, AnalyticsController],
  providers: [
    { provide: ANALYTICS_SETTINGS, useFactory: () => loadConfig(AnalyticsSettings) },
    {
      provide: ActivityProjector,
      inject: [ANALYTICS_SETTINGS],
      useFactory: (s: AnalyticsSettings) =>
        new ActivityProjector({
          prefetchWindowMs: s.ACTIVITY_PREFETCH_WINDOW_MS,
          unsubscribeAttributionMs: 30 * 86_400_000,
        }),
    },
    FeedStore,
    ActivityFeed,
    ChartsStore,
    Charts,
    CampaignAnalyticsStore,
    CampaignAnalytics,
    RetentionStore,
    ActivityRetention,
    EventCountsStore,
  ],
})
export class AnalyticsModule {}

export const analyticsService: ServiceDefinition = {
  name: ANALYTICS,
  module: AnalyticsModule,
  schema: analyticsSchema,
  projectData: { tables: [EventCount, EventCountDaily, ...projectionEntities] },
};

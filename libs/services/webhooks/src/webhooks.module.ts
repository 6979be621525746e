import { HERALD_RUNTIME, loadConfig, type HeraldRuntime, type ServiceDefinition } from '@herald/core';
import { Job, JobsModule } from '@herald/jobs';
import { messagingEntities, MessagingModule } from '@herald/messaging';
import { PersistenceModule } from '@herald/persistence';
import { Module } from '@nestjs/common';
import { WEBHOOKS } from './consumer.js';
import { DeliveriesController } from './deliveries/deliveries.controller.js';
import { DeliveriesService } from './deliveries/deliveries.service.js';
import { DeliveriesStore } from './deliveries/deliveries.store.js';
import { DeliveryAttempts } from './deliveries/delivery-attempts.js';
import { DeliveryLaneProcessor } from './deliveries/delivery-lane.processor.js';
import { DeliveryLane } from './deliveries/delivery-lane.entity.js';
import { DeliveryLanes } from './deliveries/delivery-lanes.js';
import { DeliveryLanesStore } from './deliveries/delivery-lanes.store.js';
import { DeliveryOutcomes } from './deliveries/delivery-outcomes.js';
import { DeliveryRetention } from './deliveries/delivery-retention.js';
import { Delivery } from './deliveries/delivery.entity.js';
import { ENDPOINT_DELIVERIES } from './endpoints/endpoint-deliveries.js';
import { Endpoint } from './endpoints/endpoint.entity.js';
import { EndpointsController } from './endpoints/endpoints.controller.js';
import { EndpointsService } from './endpoints/endpoints.service.js';
import { EndpointsStore } from './endpoints/endpoints.store.js';
import { WebhookEventHandlers } from './events/webhook-events.handlers.js';
import { WebhookFanOut } from './events/webhook-fan-out.js';
import { webhooksMigrations } from './migrations/index.js';
import { WebhooksProjectCleanup } from './projects/webhooks-project-cleanup.js';
import {
  resolveWebhooksEncryptionKey,
  WEBHOOKS_ENCRYPTION_KEY,
  WEBHOOKS_SETTINGS,
  WebhooksServiceConfig,
  WebhooksServiceSettings,
} from './webhooks.settings.js';

export const webhooksSchema = {
  service: WEBHOOKS,
  entities: [Endpoint, Delivery, DeliveryLane, Job, ...messagingEntities],
  migrations: webhooksMigrations,
};

/**
 * Outbound event webhooks (docs/webhooks-out.md): a project's endpoints, the deliveries of the events
 * they subscribe to (signed by the Standard Webhooks scheme, durable, retried for a day and more), the
 * delivery log, replays and test events.
 */
@Module({
  imports: [
    PersistenceModule.forService(webhooksSchema),
    MessagingModule.forService({ service: WEBHOOKS }),
    JobsModule.forService(WEBHOOKS, { concurrency: () => loadConfig(WebhooksServiceSettings).WEBHOOKS_CONCURRENCY }),
  ],
  controllers: [EndpointsController, DeliveriesController, WebhookEventHandlers],
  providers: [
    { provide: WEBHOOKS_SETTINGS, useFactory: () => loadConfig(WebhooksServiceSettings) },
    {
      provide: WEBHOOKS_ENCRYPTION_KEY,
      inject: [WEBHOOKS_SETTINGS, HERALD_RUNTIME],
      useFactory: (s: WebhooksServiceSettings, rt: HeraldRuntime) => resolveWebhooksEncryptionKey(s, rt),
    },
    EndpointsStore,
    DeliveriesStore,
    DeliveryLanesStore,
    DeliveryLanes,
    { provide: ENDPOINT_DELIVERIES, useExisting: DeliveryLanes },
    EndpointsService,
    DeliveryAttempts,
    DeliveryOutcomes,
    DeliveriesService,
    DeliveryLaneProcessor,
    DeliveryRetention,
    WebhookFanOut,
    WebhooksProjectCleanup,
  ],
})
export class WebhooksModule {}

export const webhooksService: ServiceDefinition = {
  name: WEBHOOKS,
  module: WebhooksModule,
  config: WebhooksServiceConfig,
  schema: webhooksSchema,
  projectData: { tables: [Delivery, DeliveryLane, Endpoint], hook: WebhooksProjectCleanup },
};

import { loadConfig } from '@herald/core';
import { Module, type DynamicModule, type ModuleMetadata, type Provider } from '@nestjs/common';
import { DeliveryNotificationSink } from '../delivery/delivery-notification.js';
import { GenericWebhookController } from './generic/generic-webhook.controller.js';
import { GenericWebhookService } from './generic/generic-webhook.service.js';
import { RawBodySetup } from '@herald/http';
import { SesWebhookController } from './ses/ses-webhook.controller.js';
import { SesWebhookService } from './ses/ses-webhook.service.js';
import { NodeHttpsClient, SnsHttpClient } from './ses/sns-https-client.js';
import { WEBHOOKS_SETTINGS, WebhooksSettings } from './webhooks.settings.js';

export const WEBHOOK_CONTROLLERS = [SesWebhookController, GenericWebhookController];

/** Everything the webhook controllers need except the {@link DeliveryNotificationSink}. */
export const WEBHOOK_PROVIDERS: Provider[] = [
  { provide: WEBHOOKS_SETTINGS, useFactory: () => loadConfig(WebhooksSettings) },
  { provide: SnsHttpClient, useFactory: () => new NodeHttpsClient() },
  RawBodySetup,
  SesWebhookService,
  GenericWebhookService,
];

export interface WebhooksModuleOptions {
  /** Modules that export what the sink needs (or export the sink itself, with `sink: { provide: DeliveryNotificationSink, useExisting: … }`). */
  imports?: ModuleMetadata['imports'];
  /** Provides {@link DeliveryNotificationSink}: a class extending it, or a full provider. */
  sink: Provider;
}

/**
 * POST /webhooks/ses and POST /webhooks/generic (public; signature-authenticated). The sink that
 * records notifications is the parent's: `WebhooksModule.register({ imports: [SinkModule], sink: { provide: DeliveryNotificationSink, useExisting: MySink } })`.
 */
@Module({})
export class WebhooksModule {
  static register(options: WebhooksModuleOptions): DynamicModule {
    const sink: Provider =
      typeof options.sink === 'function' ? { provide: DeliveryNotificationSink, useClass: options.sink } : options.sink;
    return {
      module: WebhooksModule,
      imports: options.imports ?? [],
      controllers: WEBHOOK_CONTROLLERS,
      providers: [...WEBHOOK_PROVIDERS, sink],
    };
  }
}

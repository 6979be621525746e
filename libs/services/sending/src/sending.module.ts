import { loadConfig, type ServiceDefinition } from '@herald/core';
import { messagingEntities, MessagingModule } from '@herald/messaging';
import { PersistenceModule } from '@herald/persistence';
import { TemplateRenderer } from '@herald/templating';
import { Module } from '@nestjs/common';
import { SENDING } from './consumer.js';
import { DeliveryNotificationSink } from './delivery/delivery-notification.js';
import { EmailNotificationSink } from './delivery/delivery-notification.sink.js';
import { DeliveryWorker } from './delivery/delivery-worker.js';
import { DeliveryNotice } from './emails/delivery-notice.entity.js';
import { Email } from './emails/email.entity.js';
import { Suppression } from './emails/suppression.entity.js';
import { LinkSigner } from './links/link-signer.js';
import { LinkTracking } from './links/link-tracking.js';
import { LinksController } from './links/links.controller.js';
import { sendingMigrations } from './migrations/index.js';
import { SendingProjectLifecycleHandler } from './projects/project-lifecycle.handler.js';
import { ContactsClient } from './send/contacts-client.js';
import { IdempotencyKey } from './send/idempotency-key.entity.js';
import { SendEmailUseCase } from './send/send-email.use-case.js';
import { SendController } from './send/send.controller.js';
import { SENDING_SETTINGS, SendingServiceConfig, SendingSettings } from './sending.settings.js';
import { SenderDomain } from './senders/sender-domain.entity.js';
import { SenderDomainHandler } from './senders/sender-domain.handler.js';
import { SenderDomains } from './senders/sender-domains.js';
import { Template } from './templates/template.entity.js';
import { TemplatesController } from './templates/templates.controller.js';
import { TemplatesService } from './templates/templates.service.js';
import { UploadsModule } from './uploads/uploads.module.js';
import { VerifyModule } from './verify/verify.module.js';
import { WEBHOOK_CONTROLLERS, WEBHOOK_PROVIDERS } from './webhooks/webhooks.module.js';

const schema = {
  service: SENDING,
  entities: [Template, Email, Suppression, DeliveryNotice, IdempotencyKey, SenderDomain, ...messagingEntities],
  migrations: sendingMigrations,
};

/** Outgoing email: templates, /v1/send, delivery through SMTP with DKIM, tracking and subscription links, bounces, /v1/verify, uploads. */
@Module({
  imports: [PersistenceModule.forService(schema), MessagingModule.forService({ service: SENDING }), VerifyModule, UploadsModule],
  controllers: [SendController, TemplatesController, LinksController, SenderDomainHandler, SendingProjectLifecycleHandler, ...WEBHOOK_CONTROLLERS],
  providers: [
    { provide: SENDING_SETTINGS, useFactory: () => loadConfig(SendingSettings) },
    { provide: TemplateRenderer, useFactory: () => new TemplateRenderer() },
    SenderDomains,
    TemplatesService,
    ContactsClient,
    LinkSigner,
    LinkTracking,
    SendEmailUseCase,
    DeliveryWorker,
    EmailNotificationSink,
    { provide: DeliveryNotificationSink, useExisting: EmailNotificationSink },
    ...WEBHOOK_PROVIDERS,
  ],
})
export class SendingModule {}

export const sendingService: ServiceDefinition = { name: SENDING, module: SendingModule, defaultPort: 3002, schema, config: SendingServiceConfig };

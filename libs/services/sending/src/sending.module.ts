import { loadConfig, type ServiceDefinition } from '@herald/core';
import { messagingEntities, MessagingModule, ReferencesModule, ResourceReferences } from '@herald/messaging';
import { IdempotencyKey, idempotencyKeysRetention, PersistenceModule } from '@herald/persistence';
import { Module } from '@nestjs/common';
import { SENDING } from './consumer.js';
import { DeliveryNotificationSink } from './delivery/delivery-notification.js';
import { EmailNotificationSink } from './delivery/delivery-notification.sink.js';
import { DeliveryWorker } from './delivery/delivery-worker.js';
import { NotificationStore } from './delivery/notification-store.js';
import { DeliveryNotice } from './emails/delivery-notice.entity.js';
import { EmailEvent } from './emails/email-event.entity.js';
import { EmailHistory } from './emails/email-history.js';
import { Email } from './emails/email.entity.js';
import { EmailsController } from './emails/emails.controller.js';
import { EmailsService } from './emails/emails.service.js';
import { EmailsStore } from './emails/emails.store.js';
import { Suppression } from './emails/suppression.entity.js';
import { LinkSigner } from './links/link-signer.js';
import { LinkTracking } from './links/link-tracking.js';
import { LinksController } from './links/links.controller.js';
import { InboundMessage } from './inbound/inbound-message.entity.js';
import { INBOUND_CONTROLLERS, INBOUND_PROVIDERS } from './inbound/inbound.module.js';
import { IntakeStore } from './intake/intake.store.js';
import { InternalEmailIntake } from './intake/internal-email-intake.js';
import { SendingCallHandlers } from './intake/sending.calls.js';
import { EmailRenderer } from './render/email-renderer.js';
import { RENDER_THREADS_PROVIDER } from './render/render-threads.provider.js';
import { sendBodyLimit, sendRouteLimit } from './send/send-body-limit.js';
import { sendingMigrations } from './migrations/index.js';
import { ContactsClient } from './send/contacts-client.js';
import { SendBatchUseCase } from './send/send-batch.use-case.js';
import { SendEmailUseCase } from './send/send-email.use-case.js';
import { SendController } from './send/send.controller.js';
import { SENDING_SETTINGS, SendingServiceConfig, SendingSettings } from './sending.settings.js';
import { SenderDomain } from './senders/sender-domain.entity.js';
import { SenderDomainHandler } from './senders/sender-domain.handler.js';
import { SenderDomainStore } from './senders/sender-domain.store.js';
import { DomainsClient } from './senders/domains-client.js';
import { SendAdmission } from './admission/send-admission.js';
import { SenderDomains } from './senders/sender-domains.js';
import { Template } from './templates/template.entity.js';
import { TemplatesController } from './templates/templates.controller.js';
import { TemplatesService } from './templates/templates.service.js';
import { UploadsModule } from './uploads/uploads.module.js';
import { VerifyModule } from './verify/verify.module.js';
import { WEBHOOK_CONTROLLERS, WEBHOOK_PROVIDERS } from './webhooks/webhooks.module.js';

const schema = {
  service: SENDING,
  entities: [
    Template,
    Email,
    EmailEvent,
    Suppression,
    DeliveryNotice,
    IdempotencyKey,
    SenderDomain,
    InboundMessage,
    ResourceReferences,
    ...messagingEntities,
  ],
  migrations: sendingMigrations,
};

/** Outgoing email: templates, /v1/send, delivery through SMTP with DKIM, tracking and subscription links, bounces, /v1/verify, uploads; and inbound mail (its SMTP listener, /inbound). */
@Module({
  imports: [
    PersistenceModule.forService(schema),
    MessagingModule.forService({ service: SENDING }),
    // which campaigns and workflow steps use a template (GET /templates/:id/usage)
    ReferencesModule.forOwner(SENDING, { kinds: ['template'] }),
    VerifyModule,
    UploadsModule,
  ],
  controllers: [
    SendController,
    EmailsController,
    TemplatesController,
    LinksController,
    SenderDomainHandler,
    ...WEBHOOK_CONTROLLERS,
    ...INBOUND_CONTROLLERS,
  ],
  providers: [
    {
      provide: SENDING_SETTINGS,
      useFactory: () => {
        const settings = loadConfig(SendingSettings);
        sendRouteLimit.bytes = sendBodyLimit(settings.MAX_ATTACHMENT_BYTES);
        return settings;
      },
    },
    RENDER_THREADS_PROVIDER,
    // Idempotency-Key rows past their 24 hours (docs/operations.md, Retention)
    idempotencyKeysRetention(SENDING),
    SendingCallHandlers,
    DomainsClient,
    SendAdmission,
    SenderDomains,
    TemplatesService,
    ContactsClient,
    LinkSigner,
    LinkTracking,
    EmailRenderer,
    SendEmailUseCase,
    SendBatchUseCase,
    IntakeStore,
    InternalEmailIntake,
    EmailsStore,
    EmailHistory,
    EmailsService,
    DeliveryWorker,
    NotificationStore,
    EmailNotificationSink,
    SenderDomainStore,
    { provide: DeliveryNotificationSink, useExisting: EmailNotificationSink },
    ...WEBHOOK_PROVIDERS,
    ...INBOUND_PROVIDERS,
  ],
})
export class SendingModule {}

export const sendingService: ServiceDefinition = {
  name: SENDING,
  module: SendingModule,
  schema,
  projectData: {
    tables: [
      Email,
      EmailEvent,
      Template,
      Suppression,
      IdempotencyKey,
      SenderDomain,
      InboundMessage,
      ResourceReferences,
    ],
  },
  config: SendingServiceConfig,
};

import { loadConfig } from '@herald/core';
import type { Provider } from '@nestjs/common';
import { InboundSmtpHandler } from './inbound-smtp.handler.js';
import { InboundController } from './inbound.controller.js';
import { InboundService } from './inbound.service.js';
import { INBOUND_SETTINGS, InboundSettings } from './inbound.settings.js';
import { InboundStore } from './inbound.store.js';
import { ReceiveInboundUseCase } from './receive-inbound.use-case.js';

/** GET /inbound, GET /inbound/:id. */
export const INBOUND_CONTROLLERS = [InboundController];

/**
 * Inbound mail (docs/inbound.md): the SMTP listener (started only when INBOUND_SMTP_PORT is set),
 * the use case that stores each message and publishes `email.received`, and the routes' service.
 * They need the sending module's data source, outbox and ContactsClient.
 */
export const INBOUND_PROVIDERS: Provider[] = [
  { provide: INBOUND_SETTINGS, useFactory: () => loadConfig(InboundSettings) },
  InboundStore,
  ReceiveInboundUseCase,
  InboundService,
  InboundSmtpHandler,
];

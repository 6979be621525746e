import { InjectRetention, type Retention } from '@herald/persistence';
import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import { WEBHOOKS } from '../consumer.js';
import { WEBHOOKS_SETTINGS, type WebhooksServiceSettings } from '../webhooks.settings.js';
import { DeliveriesStore } from './deliveries.store.js';

const DAY_MS = 86_400_000;

/**
 * The delivery log's retention: delivered and dead deliveries older than
 * WEBHOOKS_DELIVERY_RETENTION_DAYS are deleted by the service's pruner (docs/operations.md,
 * Retention), a batch at a time; pending ones stay however old.
 */
@Injectable()
export class DeliveryRetention implements OnModuleInit {
  constructor(
    @InjectRetention(WEBHOOKS) private readonly retention: Retention,
    @Inject(WEBHOOKS_SETTINGS) private readonly settings: WebhooksServiceSettings,
    private readonly deliveries: DeliveriesStore,
  ) {}

  onModuleInit(): void {
    const retentionMs = this.settings.WEBHOOKS_DELIVERY_RETENTION_DAYS * DAY_MS;
    this.retention.register({
      table: 'deliveries',
      what: 'delivered or dead',
      pruneBatch: (limit) => this.deliveries.pruneFinished(retentionMs, limit),
    });
  }
}

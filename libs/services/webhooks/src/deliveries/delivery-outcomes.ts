import { createLogger } from '@herald/core';
import { InjectJobQueue, type JobQueue } from '@herald/jobs';
import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { WEBHOOKS } from '../consumer.js';
import { EndpointsStore } from '../endpoints/endpoints.store.js';
import { DEAD_DELIVERY_QUEUE } from '../webhook-jobs.js';
import { WEBHOOKS_SETTINGS, type WebhooksServiceSettings } from '../webhooks.settings.js';
import { DeliveriesStore, type DueDelivery } from './deliveries.store.js';
import type { AttemptResult } from './delivery-attempts.js';
import { parseRetrySchedule, verdictOf } from './retry-schedule.js';

const log = createLogger('webhooks.deliveries');

/**
 * Records what an attempt saw, in one transaction: the delivery delivered, due again on the retry
 * schedule, or dead; the endpoint marked `failing` by a dead delivery and `active` again by a
 * success; a dead delivery also recorded as a failed job (`main.js jobs list` shows it, `jobs retry
 * <delivery id>` replays it) and logged.
 */
@Injectable()
export class DeliveryOutcomes {
  private readonly schedule: number[];

  constructor(
    @InjectDataSource(WEBHOOKS) private readonly db: DataSource,
    @InjectJobQueue(WEBHOOKS) private readonly jobs: JobQueue,
    @Inject(WEBHOOKS_SETTINGS) settings: WebhooksServiceSettings,
    private readonly deliveries: DeliveriesStore,
    private readonly endpoints: EndpointsStore,
  ) {
    this.schedule = parseRetrySchedule(settings.WEBHOOKS_RETRY_SCHEDULE);
  }

  async record(
    endpoint: { id: string; projectId: string },
    delivery: DueDelivery,
    result: AttemptResult,
  ): Promise<void> {
    const attempt = delivery.attempts + 1;
    const verdict = verdictOf(result.ok, attempt, this.schedule);
    await this.db.transaction(async (m) => {
      const recorded = await this.deliveries.record(m, delivery.id, delivery.attempts, {
        status: verdict.status,
        ...(verdict.status === 'pending' ? { retryInMs: verdict.retryInMs } : {}),
        responseStatus: result.status,
        responseBody: result.body,
        latencyMs: result.latencyMs,
        error: result.error,
      });
      if (!recorded) return;
      if (verdict.status === 'delivered') await this.endpoints.markActive(m, endpoint.id);
      if (verdict.status === 'dead') {
        await this.endpoints.markFailing(m, endpoint.id);
        await this.jobs.deadLetter(
          m,
          DEAD_DELIVERY_QUEUE,
          { deliveryId: delivery.id, endpointId: endpoint.id, projectId: endpoint.projectId },
          {
            id: delivery.id,
            attempts: attempt,
            lastError: `webhook delivery failed ${attempt} times; last: ${result.error ?? 'no answer'}`,
          },
        );
      }
    });
    if (verdict.status === 'dead')
      log.error('webhook delivery dead: its retries are spent; the endpoint is marked failing', {
        deliveryId: delivery.id,
        endpointId: endpoint.id,
        projectId: endpoint.projectId,
        attempts: attempt,
        err: result.error,
      });
  }
}

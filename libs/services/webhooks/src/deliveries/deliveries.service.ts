import { WEBHOOK_TEST_EVENT, type WebhookPayload } from '@herald/contracts';
import { newId } from '@herald/core';
import type { CursorPage, CursorQueryDto } from '@herald/http';
import { InjectJobQueue, type JobQueue } from '@herald/jobs';
import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { v7 as uuidv7 } from 'uuid';
import type { DataSource, EntityManager } from 'typeorm';
import { WEBHOOKS } from '../consumer.js';
import { Endpoint } from '../endpoints/endpoint.entity.js';
import { WebhookEndpointErrors } from '../endpoints/endpoint.errors.js';
import { DEAD_DELIVERY_QUEUE } from '../webhook-jobs.js';
import { WEBHOOKS_SETTINGS, type WebhooksServiceSettings } from '../webhooks.settings.js';
import { DeliveriesStore } from './deliveries.store.js';
import { DeliveryLanes } from './delivery-lanes.js';
import { deliveryView, type WebhookDeliveryView } from './delivery-view.js';
import { MAX_REPLAY_RANGE_DAYS, WebhookDeliveryErrors } from './delivery.errors.js';
import { laneOf } from './lane-key.js';

const DAY_MS = 86_400_000;

/** An endpoint's delivery log, replays (one delivery, a time range, a dead one put back by the operator) and test events. */
@Injectable()
export class DeliveriesService implements OnModuleInit {
  constructor(
    @InjectDataSource(WEBHOOKS) private readonly db: DataSource,
    @InjectJobQueue(WEBHOOKS) private readonly jobs: JobQueue,
    @Inject(WEBHOOKS_SETTINGS) private readonly settings: WebhooksServiceSettings,
    private readonly store: DeliveriesStore,
    private readonly lanes: DeliveryLanes,
  ) {}

  onModuleInit(): void {
    // `main.js jobs retry <delivery id>` puts a dead delivery's job back: it is replayed
    this.jobs.register(DEAD_DELIVERY_QUEUE, ({ job }) =>
      this.db.transaction(async (m) => {
        const { deliveryId, endpointId } = job.payload as { deliveryId: string; endpointId: string };
        const endpoint = await m.findOneBy(Endpoint, { id: endpointId });
        if (endpoint) await this.replay(m, endpoint, { id: deliveryId });
      }),
    );
  }

  /** The endpoint's deliveries, newest first. */
  async log(projectId: string, endpointId: string, q: CursorQueryDto): Promise<CursorPage<WebhookDeliveryView>> {
    await this.endpoint(this.db.manager, projectId, endpointId);
    const page = await this.store.page(endpointId, q);
    return { ...page, data: page.data.map(deliveryView) };
  }

  async get(projectId: string, endpointId: string, id: string): Promise<WebhookDeliveryView> {
    await this.endpoint(this.db.manager, projectId, endpointId);
    const row = await this.store.find(endpointId, id);
    if (!row) throw WebhookDeliveryErrors.notFound(id);
    return deliveryView(row);
  }

  /** Sends the delivery again, now and with a fresh retry schedule, whatever its status (same event id and body). */
  async replayOne(projectId: string, endpointId: string, id: string): Promise<WebhookDeliveryView> {
    await this.db.transaction(async (m) => {
      const endpoint = await this.endpoint(m, projectId, endpointId);
      if ((await this.replay(m, endpoint, { id })) === 0) throw WebhookDeliveryErrors.notFound(id);
    });
    return this.get(projectId, endpointId, id);
  }

  /** Sends again every delivery of the endpoint created in [from, to). */
  async replayRange(projectId: string, endpointId: string, from: Date, to: Date): Promise<{ replayed: number }> {
    if (to <= from) throw WebhookDeliveryErrors.badRange('to must be after from');
    if (to.getTime() - from.getTime() > MAX_REPLAY_RANGE_DAYS * DAY_MS)
      throw WebhookDeliveryErrors.badRange(`a replay covers at most ${MAX_REPLAY_RANGE_DAYS} days`);
    const replayed = await this.db.transaction(async (m) =>
      this.replay(m, await this.endpoint(m, projectId, endpointId), { from, to }),
    );
    return { replayed };
  }

  /**
   * Sends a `webhook.test` event to the endpoint, whatever it subscribes to, as any delivery (signed,
   * retried, in the log). Answers the delivery, pending.
   */
  async sendTest(projectId: string, endpointId: string): Promise<WebhookDeliveryView> {
    const id = newId('whd');
    await this.db.transaction(async (m) => {
      const endpoint = await this.endpoint(m, projectId, endpointId);
      const eventId = uuidv7();
      const payload: WebhookPayload = {
        type: WEBHOOK_TEST_EVENT,
        version: 1,
        id: eventId,
        timestamp: new Date().toISOString(),
        projectId,
        data: { endpointId, message: 'A test event from Herald: this endpoint receives and verifies deliveries.' },
      };
      const lane = laneOf(endpointId, this.settings.WEBHOOKS_ENDPOINT_CONCURRENCY);
      await this.store.insertMany(m, [
        { id, endpointId, projectId, eventId, eventType: WEBHOOK_TEST_EVENT, body: JSON.stringify(payload), lane },
      ]);
      await this.lanes.wake(m, [{ endpointId: endpoint.id, projectId, lane }]);
    });
    return this.get(projectId, endpointId, id);
  }

  private async replay(
    m: EntityManager,
    endpoint: Endpoint,
    which: { id: string } | { from: Date; to: Date },
  ): Promise<number> {
    const replayed = await this.store.replay(m, endpoint.id, which);
    if (replayed.length === 0) return 0;
    // no longer dead: off the operator's list of failed jobs
    await this.jobs.cancel(
      m,
      DEAD_DELIVERY_QUEUE,
      'deliveryId',
      replayed.map((d) => d.id),
    );
    await this.lanes.wake(
      m,
      replayed.map((d) => ({ endpointId: endpoint.id, projectId: endpoint.projectId, lane: d.lane })),
    );
    return replayed.length;
  }

  private async endpoint(m: EntityManager, projectId: string, id: string): Promise<Endpoint> {
    const endpoint = await m.findOneBy(Endpoint, { projectId, id });
    if (!endpoint) throw WebhookEndpointErrors.notFound(id);
    return endpoint;
  }
}

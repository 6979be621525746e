import { createLogger } from '@herald/core';
import { InjectJobQueue, type JobContext, type JobQueue } from '@herald/jobs';
import { Inject, Injectable, type OnApplicationBootstrap, type OnModuleInit } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { WEBHOOKS } from '../consumer.js';
import { signingSecrets } from '../endpoints/endpoint-secrets.js';
import { Endpoint } from '../endpoints/endpoint.entity.js';
import { LANE_QUEUE } from '../webhook-jobs.js';
import { WEBHOOKS_ENCRYPTION_KEY } from '../webhooks.settings.js';
import { DeliveriesStore } from './deliveries.store.js';
import { DeliveryAttempts } from './delivery-attempts.js';
import { DeliveryLanes, type LinkPayload } from './delivery-lanes.js';
import { DeliveryOutcomes } from './delivery-outcomes.js';

/** How long a link keeps its worker before handing over to its successor at the back of the queue. */
export const LINK_SLICE_MS = 1000;

const log = createLogger('webhooks.lanes');

/** The job queue's handler of lane links: each attempts its lane's due deliveries for a slice, then hands over. */
@Injectable()
export class DeliveryLaneProcessor implements OnModuleInit, OnApplicationBootstrap {
  constructor(
    @InjectDataSource(WEBHOOKS) private readonly db: DataSource,
    @InjectJobQueue(WEBHOOKS) private readonly jobs: JobQueue,
    @Inject(WEBHOOKS_ENCRYPTION_KEY) private readonly encryptionKey: string,
    private readonly lanes: DeliveryLanes,
    private readonly deliveries: DeliveriesStore,
    private readonly attempts: DeliveryAttempts,
    private readonly outcomes: DeliveryOutcomes,
  ) {}

  onModuleInit(): void {
    this.jobs.register(LANE_QUEUE, (ctx) => this.runLink(ctx), {
      onDead: (dead) => this.lanes.linkDead(dead.payload as unknown as LinkPayload),
    });
  }

  async onApplicationBootstrap(): Promise<void> {
    const restarted = await this.lanes.restartBrokenLanes();
    if (restarted > 0) log.warn('restarted webhook delivery lanes', { count: restarted });
  }

  /** One link: the lane's due deliveries, oldest first, one at a time, for a slice; then the next link. */
  async runLink({ job, signal }: Pick<JobContext, 'job' | 'signal'>): Promise<void> {
    const link = job.payload as unknown as LinkPayload;
    if (!(await this.lanes.isCurrent(link))) return;
    const endpoint = await this.db.getRepository(Endpoint).findOneBy({ id: link.endpointId });
    const until = Date.now() + LINK_SLICE_MS;
    if (endpoint?.enabled) {
      const secrets = signingSecrets(endpoint, this.encryptionKey);
      while (Date.now() < until) {
        if (signal.aborted) throw signal.reason as Error;
        const due = await this.deliveries.nextDue(link.endpointId, link.lane, this.attempts.holdMs);
        if (!due) break;
        const result = await this.attempts.attempt(endpoint.url, secrets, due);
        await this.outcomes.record(endpoint, due, result);
      }
    }
    await this.db.transaction((m) => this.lanes.advance(m, link, link.seq, !endpoint?.enabled));
  }
}

import { createLogger } from '@herald/core';
import { InjectJobQueue, type JobQueue } from '@herald/jobs';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, EntityManager } from 'typeorm';
import { WEBHOOKS } from '../consumer.js';
import type { EndpointDeliveries } from '../endpoints/endpoint-deliveries.js';
import { DEAD_DELIVERY_QUEUE, LANE_QUEUE } from '../webhook-jobs.js';
import { DeliveriesStore } from './deliveries.store.js';
import { DeliveryLanesStore, type LaneRef, type NewLink } from './delivery-lanes.store.js';

/** Claims of a link before it is dead-lettered: enough to ride out a long database outage. */
const LINK_MAX_ATTEMPTS = 100;

const log = createLogger('webhooks.lanes');

/** A link's job payload. */
export interface LinkPayload {
  endpointId: string;
  projectId: string;
  lane: number;
  seq: number;
  /** `<endpoint id>:<lane>`: which lane's link it is, for the live-link look-up. */
  link: string;
}

/** Job id of a chain link: one per (endpoint, lane, number), so a link can never be enqueued twice. */
export const linkJobId = (endpointId: string, lane: number, seq: number): string => `whl_${endpointId}_${lane}_${seq}`;

/**
 * The delivery lanes of every endpoint, each a durable chain of jobs (libs/jobs) like the domains
 * service's checks: a link attempts its lane's due deliveries one at a time in the order they were
 * written, for a bounded slice, then hands over to its successor, enqueued at the back of the queue
 * (now if more is due, at the next retry's time otherwise) or to none when nothing is pending. Only the
 * link whose number is the lane's may act. An endpoint has WEBHOOKS_ENDPOINT_CONCURRENCY lanes, so at
 * most that many attempts to it at once, and the queue's workers (WEBHOOKS_CONCURRENCY) claim links
 * of every endpoint oldest first: a slow endpoint holds at most its lanes' workers, never another's.
 */
@Injectable()
export class DeliveryLanes implements EndpointDeliveries {
  constructor(
    @InjectDataSource(WEBHOOKS) private readonly db: DataSource,
    @InjectJobQueue(WEBHOOKS) private readonly jobs: JobQueue,
    private readonly lanes: DeliveryLanesStore,
    private readonly deliveries: DeliveriesStore,
  ) {}

  /** Whether link `seq` is its lane's current one (any other does nothing). */
  isCurrent(link: { endpointId: string; lane: number; seq: number }): Promise<boolean> {
    return this.lanes.isCurrent(link.endpointId, link.lane, link.seq);
  }

  /** Wakes lanes with new due work, in the transaction that wrote it (see DeliveryLanesStore.wake). */
  async wake(m: EntityManager, refs: LaneRef[]): Promise<void> {
    const unique = [...new Map(refs.map((r) => [`${r.endpointId}:${r.lane}`, r])).values()];
    const links = await this.lanes.wake(m, unique);
    if (links.length === 0) return;
    // a retired link waiting for a later retry would only find its number moved on: drop it
    await this.jobs.cancel(
      m,
      LANE_QUEUE,
      'link',
      links.map((l) => `${l.endpointId}:${l.lane}`),
    );
    for (const link of links) await this.enqueue(m, link);
  }

  /**
   * Ends link `seq` (in the caller's transaction): its successor is enqueued when the lane still has
   * pending deliveries and the endpoint takes them, and the link before it is forgotten.
   */
  async advance(m: EntityManager, ref: LaneRef, seq: number, idle: boolean): Promise<void> {
    const decided = await this.lanes.advance(m, ref, seq, idle);
    if (!decided) return;
    if (decided.next) await this.enqueue(m, decided.next);
    await this.jobs.forget(m, [linkJobId(ref.endpointId, ref.lane, seq - 1)]);
  }

  async resumed(m: EntityManager, endpoint: { id: string; projectId: string }): Promise<void> {
    const lanes = await this.deliveries.pendingLanes(m, endpoint.id);
    await this.wake(
      m,
      lanes.map((lane) => ({ endpointId: endpoint.id, projectId: endpoint.projectId, lane })),
    );
  }

  async removed(m: EntityManager, endpoint: { id: string; projectId: string }): Promise<void> {
    await this.jobs.cancel(m, LANE_QUEUE, 'endpointId', [endpoint.id]);
    await this.jobs.cancel(m, DEAD_DELIVERY_QUEUE, 'endpointId', [endpoint.id]);
    await this.deliveries.deleteOf(m, endpoint.id);
    await this.lanes.deleteOf(m, endpoint.id);
  }

  /** Drops a project's queued links and dead deliveries (a reset or deleted project), in the caller's transaction. */
  async cancelProject(m: EntityManager, projectId: string): Promise<void> {
    await this.jobs.cancel(m, LANE_QUEUE, 'projectId', [projectId]);
    await this.jobs.cancel(m, DEAD_DELIVERY_QUEUE, 'projectId', [projectId]);
  }

  /**
   * Gives each lane that should have a link and has none queued or running (its last link was
   * dead-lettered, or lost) a new one. Run at start; answers how many.
   */
  async restartBrokenLanes(): Promise<number> {
    const live = await this.jobs.liveValues(LANE_QUEUE, 'link');
    let restarted = 0;
    for (const ref of await this.lanes.lanesToRestart(live)) {
      try {
        await this.db.transaction(async (m) => {
          const link = await this.lanes.restart(m, ref);
          if (link) {
            await this.enqueue(m, link);
            restarted++;
          }
        });
      } catch (err) {
        log.error('could not restart a delivery lane', { ...ref, err: String(err) });
      }
    }
    return restarted;
  }

  /** A link dead-lettered (its workers kept dying on it): its lane gets a new one if it is still the lane's. */
  async linkDead(payload: LinkPayload): Promise<void> {
    await this.db.transaction(async (m) => {
      if (!(await this.isCurrent(payload))) return;
      const link = await this.lanes.restart(m, payload);
      if (link) await this.enqueue(m, link);
    });
  }

  private enqueue(m: EntityManager, link: NewLink): Promise<string> {
    const payload: LinkPayload = {
      endpointId: link.endpointId,
      projectId: link.projectId,
      lane: link.lane,
      seq: link.seq,
      link: `${link.endpointId}:${link.lane}`,
    };
    return this.jobs.enqueue(
      m,
      LANE_QUEUE,
      { ...payload },
      { id: linkJobId(link.endpointId, link.lane, link.seq), runAt: link.dueAt, maxAttempts: LINK_MAX_ATTEMPTS },
    );
  }
}

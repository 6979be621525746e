import { createLogger, newId } from '@herald/core';
import { InjectJobQueue, type JobContext, type JobQueue } from '@herald/jobs';
import { Injectable, type OnModuleInit } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { ContactsClient } from '../contacts/contacts-client.js';
import { ReadModelStore } from '../contacts/read-model.store.js';
import { SEGMENTS } from '../consumer.js';
import { SegmentCompute } from '../membership/segment-compute.js';
import { Segment } from '../membership/segment.entity.js';
import { BackfillJobsStore } from './backfill-jobs.store.js';

export const BACKFILL_QUEUE = 'segments.backfill';
/** Contacts per page of contacts' export, and per transaction of the backfill. */
export const BACKFILL_PAGE = 500;
const log = createLogger('segments.backfill');

export interface BackfillStatus {
  jobId: string;
  state: 'queued' | 'running' | 'completed' | 'failed';
  error?: string;
}

/**
 * Rebuilds a project's read model from contacts (docs/segments.md, "Backfill"), for projects whose
 * data predates the segments service, or to repair it. A durable job (`segments.backfill`) pages
 * `POST /internal/contacts/export` in contact id order, BACKFILL_PAGE contacts at a time, each page
 * one transaction:
 * - each contact upserted with its own `createdAt` / `updatedAt`; the newest state wins, so a contact
 *   event applied live meanwhile is kept; a deleted contact's tombstone is respected;
 * - its custom events replace those without a contacts record id (rows from before record ids), and
 *   are added once per record id (an event the live path applied stays one row);
 * - the field types registered as the live path does.
 * Then each dynamic segment of the project is computed silently (a baseline: no events).
 * Engagement (`email.*`) is not in contacts: it is not rebuilt. A job run again (a retry, a restart)
 * ends in the same state.
 */
@Injectable()
export class ReadModelBackfill implements OnModuleInit {
  constructor(
    @InjectDataSource(SEGMENTS) private readonly db: DataSource,
    @InjectJobQueue(SEGMENTS) private readonly jobs: JobQueue,
    private readonly contacts: ContactsClient,
    private readonly readModel: ReadModelStore,
    private readonly jobsStore: BackfillJobsStore,
    private readonly membership: SegmentCompute,
  ) {}

  onModuleInit(): void {
    this.jobs.register(BACKFILL_QUEUE, (ctx) => this.runJob(ctx));
  }

  /** Queues a backfill of the project; answers the job id to poll with {@link status}. */
  start(projectId: string): Promise<string> {
    return this.db.transaction((m) =>
      this.jobs.enqueue(m, BACKFILL_QUEUE, { projectId }, { id: newId('segbf'), maxAttempts: 5 }),
    );
  }

  async status(projectId: string, jobId: string): Promise<BackfillStatus | undefined> {
    const row = await this.jobsStore.state(this.db.manager, BACKFILL_QUEUE, projectId, jobId);
    if (!row) return undefined;
    return { jobId, state: row.state, ...(row.state === 'failed' && row.last_error ? { error: row.last_error } : {}) };
  }

  private async runJob({ job }: Pick<JobContext, 'job'>): Promise<void> {
    const { projectId } = job.payload as { projectId: string };
    const result = await this.backfill(projectId);
    log.info('backfilled the read model', { projectId, ...result });
  }

  /** The whole backfill of one project; answers how many contacts and events were read. */
  async backfill(projectId: string): Promise<{ contacts: number; events: number; segments: number }> {
    let after: string | null = null;
    let contacts = 0;
    let events = 0;
    for (;;) {
      const page = await this.contacts.exportPage(projectId, after, BACKFILL_PAGE);
      if (page.contacts.length > 0)
        await this.db.transaction((m) => this.readModel.backfillPage(m, projectId, page.contacts));
      contacts += page.contacts.length;
      events += page.contacts.reduce((n, c) => n + c.events.length, 0);
      if (!page.next) break;
      after = page.next;
    }
    const dynamic = await this.db.getRepository(Segment).find({
      where: { projectId, type: 'DYNAMIC' },
      select: { id: true },
      order: { id: 'ASC' },
    });
    for (const { id } of dynamic) await this.membership.compute(projectId, id, { fire: false, reason: 'compute' });
    return { contacts, events, segments: dynamic.length };
  }
}

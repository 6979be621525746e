import { createLogger } from '@herald/core';
import { InjectJobQueue, type JobContext, type JobQueue } from '@herald/jobs';
import { Inject, Injectable, type OnApplicationBootstrap, type OnModuleInit } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, EntityManager } from 'typeorm';
import { ANALYTICS_SETTINGS, type AnalyticsSettings } from '../analytics.settings.js';
import { ANALYTICS } from '../consumer.js';
import { MINUTE_COUNTS_KEPT_MS } from '../projection/activity-projector.js';
import { RetentionStore } from './retention.store.js';

export const RETENTION_QUEUE = 'analytics.retention';
const MAX_ATTEMPTS = 100;
const DAY_MS = 86_400_000;
const log = createLogger('analytics.retention');

export const retentionJobId = (seq: number): string => `anret_${seq}`;

/**
 * Prunes the feed: items older than ACTIVITY_RETENTION_DAYS, with what only they needed (tracked
 * emails, finished workflow executions), and minute counts older than two days. The hourly,
 * per-type and per-campaign aggregates stay.
 *
 * One durable chain of jobs (libs/jobs), like the segments sweep: a link prunes, then in one
 * transaction advances `retention_state.seq` and enqueues the next link. Only the link carrying the
 * current number acts, so a link run twice or a duplicate chain started by another replica does
 * nothing. At start a replica starts the chain again when it has no queued or running link.
 */
@Injectable()
export class ActivityRetention implements OnModuleInit, OnApplicationBootstrap {
  constructor(
    @InjectDataSource(ANALYTICS) private readonly db: DataSource,
    @InjectJobQueue(ANALYTICS) private readonly jobs: JobQueue,
    @Inject(ANALYTICS_SETTINGS) private readonly settings: AnalyticsSettings,
    private readonly store: RetentionStore,
  ) {}

  onModuleInit(): void {
    this.jobs.register(RETENTION_QUEUE, (ctx) => this.run(ctx));
  }

  async onApplicationBootstrap(): Promise<void> {
    const live = await this.jobs.liveValues(RETENTION_QUEUE, 'seq');
    if (live.size > 0) return;
    await this.db.transaction(async (m) => {
      const seq = await this.store.advance(m);
      await this.enqueue(m, seq, new Date());
    });
    log.info('started the activity retention chain');
  }

  async run({ job }: Pick<JobContext, 'job'>): Promise<void> {
    const seq = Number((job.payload as { seq: string }).seq);
    if ((await this.store.current(this.db.manager)) !== seq) return;
    const pruned = await this.prune(new Date());
    if (pruned > 0) log.info('pruned activity', { rows: pruned });
    await this.db.transaction(async (m) => {
      if ((await this.store.lock(m)) !== seq) return;
      const next = await this.store.advance(m);
      await this.enqueue(m, next, new Date(Date.now() + this.settings.ACTIVITY_RETENTION_INTERVAL_MS));
      await this.jobs.forget(m, [retentionJobId(seq - 1)]);
    });
  }

  /** Deletes everything past retention as of `now`, in chunks. Returns the rows deleted. */
  async prune(now: Date): Promise<number> {
    const m = this.db.manager;
    const cutoff = new Date(now.getTime() - this.settings.ACTIVITY_RETENTION_DAYS * DAY_MS);
    const minuteCutoff = new Date(now.getTime() - MINUTE_COUNTS_KEPT_MS);
    let total = 0;
    // per project, along the feed's (project_id, occurred_at) index: no index of its own to slow every insert
    for (const projectId of await this.store.projects(m)) total += await this.store.pruneItems(m, projectId, cutoff);
    total += await this.store.pruneTrackedEmails(m, cutoff);
    total += await this.store.pruneFinishedExecutions(m, cutoff);
    return total + (await this.store.pruneMinutes(m, minuteCutoff));
  }

  private enqueue(m: EntityManager, seq: number, runAt: Date): Promise<string> {
    return this.jobs.enqueue(
      m,
      RETENTION_QUEUE,
      { seq: String(seq) },
      { id: retentionJobId(seq), runAt, maxAttempts: MAX_ATTEMPTS },
    );
  }
}

import { createLogger } from '@herald/core';
import { InjectJobQueue, type JobContext, type JobQueue } from '@herald/jobs';
import { tableName } from '@herald/persistence';
import { Inject, Injectable, type OnApplicationBootstrap, type OnModuleInit } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, EntityManager } from 'typeorm';
import { ANALYTICS_SETTINGS, type AnalyticsSettings } from '../analytics.settings.js';
import { ANALYTICS } from '../consumer.js';
import {
  ActivityItem,
  ActivityMinutely,
  ActivityTypeCount,
  RetentionState,
  TrackedEmail,
  WorkflowExecutionState,
} from '../projection/activity.entities.js';
import { MINUTE_COUNTS_KEPT_MS } from '../projection/activity-projector.js';

export const RETENTION_QUEUE = 'analytics.retention';
const MAX_ATTEMPTS = 100;
/** Rows deleted per statement: a long prune never holds one huge transaction. */
const CHUNK = 5000;
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
  ) {}

  onModuleInit(): void {
    this.jobs.register(RETENTION_QUEUE, (ctx) => this.run(ctx));
  }

  async onApplicationBootstrap(): Promise<void> {
    const live = await this.jobs.liveValues(RETENTION_QUEUE, 'seq');
    if (live.size > 0) return;
    await this.db.transaction(async (m) => {
      const seq = await this.advance(m);
      await this.enqueue(m, seq, new Date());
    });
    log.info('started the activity retention chain');
  }

  async run({ job }: Pick<JobContext, 'job'>): Promise<void> {
    const seq = Number((job.payload as { seq: string }).seq);
    const current = await this.db.getRepository(RetentionState).findOneBy({ id: 1 });
    if (current?.seq !== seq) return;
    const pruned = await this.prune(new Date());
    if (pruned > 0) log.info('pruned activity', { rows: pruned });
    await this.db.transaction(async (m) => {
      const [locked] = await m.query<{ seq: number }[]>(
        `SELECT seq FROM ${tableName(m, RetentionState)} WHERE id = 1 FOR UPDATE`,
      );
      if (locked?.seq !== seq) return;
      const next = await this.advance(m);
      await this.enqueue(m, next, new Date(Date.now() + this.settings.ACTIVITY_RETENTION_INTERVAL_MS));
      await this.jobs.forget(m, [retentionJobId(seq - 1)]);
    });
  }

  /** Deletes everything past retention as of `now`, in chunks. Returns the rows deleted. */
  async prune(now: Date): Promise<number> {
    const cutoff = new Date(now.getTime() - this.settings.ACTIVITY_RETENTION_DAYS * DAY_MS);
    const minuteCutoff = new Date(now.getTime() - MINUTE_COUNTS_KEPT_MS);
    let total = 0;
    const chunked = async (table: string, key: string, where: string, params: unknown[]) => {
      for (;;) {
        const [, n] = (await this.db.query(
          `DELETE FROM ${table} WHERE ${key} IN (SELECT ${key} FROM ${table} WHERE ${where} LIMIT ${CHUNK})`,
          params,
        )) as [unknown, number];
        total += n;
        if (n < CHUNK) return;
      }
    };
    // per project, along the feed's (project_id, occurred_at) index: no index of its own to slow every insert
    const projects: { project_id: string }[] = await this.db.query(
      `SELECT DISTINCT project_id FROM ${tableName(this.db, ActivityTypeCount)}`,
    );
    for (const { project_id } of projects) {
      await chunked(tableName(this.db, ActivityItem), 'event_id', 'project_id = $1 AND occurred_at < $2', [
        project_id,
        cutoff,
      ]);
    }
    await chunked(
      tableName(this.db, TrackedEmail),
      'email_id',
      'COALESCE(sent_at, delivered_at, counted_sent_at) < $1',
      [cutoff],
    );
    await chunked(
      tableName(this.db, WorkflowExecutionState),
      'execution_id',
      `state_at < $1 AND status NOT IN ('RUNNING', 'WAITING')`,
      [cutoff],
    );
    const [, minutes] = (await this.db.query(`DELETE FROM ${tableName(this.db, ActivityMinutely)} WHERE minute < $1`, [
      minuteCutoff,
    ])) as [unknown, number];
    return total + minutes;
  }

  private async advance(m: EntityManager): Promise<number> {
    const rows = await m.query<{ seq: number }[]>(
      `WITH up AS (INSERT INTO ${tableName(m, RetentionState)} AS s (id, seq) VALUES (1, 1)
         ON CONFLICT (id) DO UPDATE SET seq = s.seq + 1 RETURNING seq) SELECT seq FROM up`,
    );
    return rows[0]!.seq;
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

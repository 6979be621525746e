import { randomUUID } from 'node:crypto';
import { createLogger, WakeableSleep } from '@herald/core';
import { PgNotifications, tableName } from '@herald/persistence';
import type { DataSource, EntityManager } from 'typeorm';
import { Job } from './job.entity.js';

export interface EnqueueOptions {
  /** Job id (e.g. the user-facing `imp_…` id); generated when absent. */
  id?: string;
  runAt?: Date;
  maxAttempts?: number;
}

export interface JobContext {
  job: Job;
  /** Aborted when the process is shutting down: stop at the next safe point and throw. */
  signal: AbortSignal;
}

export type JobHandler = (ctx: JobContext) => Promise<void>;

export interface JobWorkerOptions {
  /** How long a claim lasts without renewal; a crashed worker's job is retried after this. */
  leaseMs: number;
  pollIntervalMs: number;
  /** Jobs run at once in this process, across queues. */
  concurrency: number;
}

const log = createLogger('jobs');
export const jobsChannel = (service: string): string => `herald_jobs_${service}`;

/**
 * A durable, Postgres-backed job queue for one service (its schema's `jobs` table): jobs are
 * enqueued inside the caller's transaction, claimed with `FOR UPDATE SKIP LOCKED` under a renewed
 * lease, retried with backoff, and survive restarts (an expired lease is claimed again). NOTIFY at
 * commit wakes the workers at once.
 */
export class JobQueue {
  private readonly table: string;
  private readonly handlers = new Map<string, JobHandler>();
  private readonly workerId = `${process.pid}-${randomUUID().slice(0, 8)}`;
  private readonly abort = new AbortController();
  private readonly running = new Set<Promise<void>>();
  private unlisten?: () => Promise<void>;
  private loop?: Promise<void>;
  private readonly pause = new WakeableSleep();
  private stopped = false;

  constructor(
    private readonly service: string,
    private readonly databaseUrl: string,
    private readonly db: DataSource,
    private readonly options: JobWorkerOptions,
  ) {
    this.table = tableName(db, Job);
  }

  /** Adds a job in the caller's transaction: it exists if and only if that transaction commits. */
  async enqueue(
    manager: EntityManager,
    queue: string,
    payload: Record<string, unknown>,
    options: EnqueueOptions = {},
  ): Promise<string> {
    const id = options.id ?? `job_${randomUUID()}`;
    await manager.query(
      `WITH ins AS (
         INSERT INTO ${this.table} (id, queue, payload, max_attempts, run_after) VALUES ($1, $2, $3::jsonb, $4, $5) RETURNING 1)
       SELECT pg_notify($6, $2) FROM ins`,
      [
        id,
        queue,
        JSON.stringify(payload),
        options.maxAttempts ?? 5,
        options.runAt ?? new Date(),
        jobsChannel(this.service),
      ],
    );
    return id;
  }

  /** Drops the queued (not running) jobs of `queue` whose payload `key` is one of `values`, in the caller's transaction. */
  async cancel(manager: EntityManager, queue: string, key: string, values: string[]): Promise<void> {
    if (values.length === 0) return;
    await manager.query(
      `DELETE FROM ${this.table} WHERE queue = $1 AND state <> 'running' AND payload->>$2 = ANY($3::varchar[])`,
      [queue, key, values],
    );
  }

  /** Deletes finished jobs by id (a chain of jobs keeps the table small this way). */
  async forget(manager: EntityManager, ids: string[]): Promise<void> {
    if (ids.length === 0) return;
    await manager.query(`DELETE FROM ${this.table} WHERE id = ANY($1::varchar[]) AND state = 'completed'`, [ids]);
  }

  /** The values of payload `key` over the jobs of `queue` that are still queued or running. */
  async liveValues(queue: string, key: string): Promise<Set<string>> {
    const rows: { v: string }[] = await this.db.query(
      `SELECT DISTINCT payload->>$2 AS v FROM ${this.table} WHERE queue = $1 AND state IN ('queued', 'running')`,
      [queue, key],
    );
    return new Set(rows.map((r) => r.v));
  }

  register(queue: string, handler: JobHandler): void {
    this.handlers.set(queue, handler);
  }

  async start(): Promise<void> {
    if (this.loop || this.handlers.size === 0) return;
    this.unlisten = await PgNotifications.for(this.databaseUrl).listen(jobsChannel(this.service), () =>
      this.pause.wake(),
    );
    this.loop = this.run();
  }

  /**
   * Stops claiming, asks running jobs to stop (AbortSignal) and waits for them; a job that stopped
   * early goes back to the queue for the next start.
   */
  async stop(timeoutMs = 10_000): Promise<void> {
    this.stopped = true;
    this.abort.abort();
    this.pause.wake();
    await this.loop;
    await Promise.race([Promise.all(this.running), new Promise((r) => setTimeout(r, timeoutMs).unref())]);
    await this.unlisten?.();
  }

  private async run(): Promise<void> {
    while (!this.stopped) {
      try {
        if (this.running.size >= this.options.concurrency) {
          await Promise.race(this.running);
          continue;
        }
        const job = await this.claim();
        if (!job) {
          await this.pause.sleep(this.options.pollIntervalMs);
          continue;
        }
        const p = this.execute(job).finally(() => this.running.delete(p));
        this.running.add(p);
      } catch (err) {
        log.error('job claim failed', { service: this.service, err: String(err) });
        await this.pause.sleep(1000);
      }
    }
  }

  private async claim(): Promise<Job | undefined> {
    const queues = [...this.handlers.keys()];
    const rows: Record<string, unknown>[] = await this.db
      .query(
        `UPDATE ${this.table} SET state = 'running', attempts = attempts + 1, locked_by = $1,
              locked_until = now() + ($2::int * interval '1 millisecond'), updated_at = now()
        WHERE id = (
          SELECT id FROM ${this.table}
           WHERE queue = ANY($3::varchar[])
             AND ((state = 'queued' AND run_after <= now()) OR (state = 'running' AND locked_until < now()))
           ORDER BY run_after, created_at
           FOR UPDATE SKIP LOCKED LIMIT 1)
        RETURNING *`,
        [this.workerId, this.options.leaseMs, queues],
      )
      .then((r: unknown) =>
        Array.isArray(r) && Array.isArray(r[0])
          ? (r[0] as Record<string, unknown>[])
          : (r as Record<string, unknown>[]),
      );
    const row = rows[0];
    if (!row) return undefined;
    return this.db.getRepository(Job).create({
      id: row.id as string,
      queue: row.queue as string,
      payload: row.payload as Record<string, unknown>,
      state: 'running',
      attempts: row.attempts as number,
      maxAttempts: row.max_attempts as number,
      runAfter: row.run_after as Date,
      lockedBy: this.workerId,
      lockedUntil: row.locked_until as Date,
      lastError: row.last_error as string | null,
      createdAt: row.created_at as Date,
      updatedAt: row.updated_at as Date,
    });
  }

  private async execute(job: Job): Promise<void> {
    const handler = this.handlers.get(job.queue)!;
    const renew = setInterval(
      () => {
        void this.db
          .query(
            `UPDATE ${this.table} SET locked_until = now() + ($1::int * interval '1 millisecond') WHERE id = $2 AND locked_by = $3`,
            [this.options.leaseMs, job.id, this.workerId],
          )
          .catch(() => undefined);
      },
      Math.max(100, Math.floor(this.options.leaseMs / 3)),
    );
    try {
      await handler({ job, signal: this.abort.signal });
      await this.finish(job, `state = 'completed', locked_by = NULL, locked_until = NULL, last_error = NULL`);
    } catch (err) {
      const message = err instanceof Error ? `${err.name}: ${err.message}` : String(err);
      if (this.abort.signal.aborted) {
        // Interrupted by shutdown, not failed: back to the queue without counting the attempt.
        await this.finish(job, `state = 'queued', attempts = attempts - 1, locked_by = NULL, locked_until = NULL`);
      } else if (job.attempts >= job.maxAttempts) {
        log.error('job failed for good', {
          service: this.service,
          queue: job.queue,
          jobId: job.id,
          attempts: job.attempts,
          err: message,
        });
        await this.finish(job, `state = 'failed', locked_by = NULL, locked_until = NULL, last_error = $3`, [message]);
      } else {
        const delayMs = Math.min(60_000, 1000 * 2 ** (job.attempts - 1));
        log.warn('job failed; retrying', {
          service: this.service,
          queue: job.queue,
          jobId: job.id,
          attempt: job.attempts,
          retryInMs: delayMs,
          err: message,
        });
        await this.finish(
          job,
          `state = 'queued', locked_by = NULL, locked_until = NULL, last_error = $3, run_after = now() + ($4::int * interval '1 millisecond')`,
          [message, delayMs],
        );
      }
    } finally {
      clearInterval(renew);
    }
  }

  private async finish(job: Job, set: string, params: unknown[] = []): Promise<void> {
    await this.db.query(`UPDATE ${this.table} SET ${set}, updated_at = now() WHERE id = $1 AND locked_by = $2`, [
      job.id,
      this.workerId,
      ...params,
    ]);
  }
}

import { tableName } from '@herald/persistence';
import type { DataSource, EntityManager } from 'typeorm';
import { Job, type JobState } from './job.entity.js';

/** A claimed job and whether its previous worker lost it (its lease ran out while it was running). */
export interface Claimed {
  job: Job;
  leaseExpired: boolean;
}

/** A job dead-lettered because its lease ran out once more with no attempts left. */
export interface DeadLettered {
  id: string;
  queue: string;
  payload: Record<string, unknown>;
  attempts: number;
  lastError: string;
}

/** What `jobs list` shows of a job. */
export type JobSummary = Pick<
  Job,
  'id' | 'queue' | 'state' | 'attempts' | 'maxAttempts' | 'lastError' | 'runAfter' | 'createdAt' | 'updatedAt'
>;

/** The message a job dead-lettered by lease expiry keeps (with the handler's last error, if it had one). */
const LEASE_EXPIRED = `format('lease expired on attempt %s of %s: the worker died or stalled while running it', j.attempts, j.max_attempts)`;

/** The rows of an UPDATE … RETURNING, whichever shape the driver gave. */
const rowsOf = (r: unknown): Record<string, unknown>[] =>
  Array.isArray(r) && Array.isArray(r[0]) ? (r[0] as Record<string, unknown>[]) : (r as Record<string, unknown>[]);

/** The SQL of one service's `jobs` table (its schema's). */
export class JobStore {
  readonly table: string;

  constructor(private readonly db: DataSource) {
    this.table = tableName(db, Job);
  }

  async insert(
    manager: EntityManager,
    job: { id: string; queue: string; payload: Record<string, unknown>; maxAttempts: number; runAt: Date },
    channel: string,
  ): Promise<void> {
    await manager.query(
      `WITH ins AS (
         INSERT INTO ${this.table} (id, queue, payload, max_attempts, run_after) VALUES ($1, $2, $3::jsonb, $4, $5) RETURNING 1)
       SELECT pg_notify($6, $2) FROM ins`,
      [job.id, job.queue, JSON.stringify(job.payload), job.maxAttempts, job.runAt, channel],
    );
  }

  /** A job already dead-lettered (state `failed`), replacing any job of that id. */
  async insertDead(
    manager: EntityManager,
    job: { id: string; queue: string; payload: Record<string, unknown>; attempts: number; lastError: string },
  ): Promise<void> {
    await manager.query(
      `INSERT INTO ${this.table} (id, queue, payload, state, attempts, max_attempts, last_error)
       VALUES ($1, $2, $3::jsonb, 'failed', $4, $4, $5)
       ON CONFLICT (id) DO UPDATE SET queue = EXCLUDED.queue, payload = EXCLUDED.payload, state = 'failed',
         attempts = EXCLUDED.attempts, max_attempts = EXCLUDED.max_attempts, last_error = EXCLUDED.last_error,
         locked_by = NULL, locked_until = NULL, updated_at = now()`,
      [job.id, job.queue, JSON.stringify(job.payload), job.attempts, job.lastError],
    );
  }

  async cancel(manager: EntityManager, queue: string, key: string, values: string[]): Promise<void> {
    await manager.query(
      `DELETE FROM ${this.table} WHERE queue = $1 AND state <> 'running' AND payload->>$2 = ANY($3::varchar[])`,
      [queue, key, values],
    );
  }

  async forget(manager: EntityManager, ids: string[]): Promise<void> {
    await manager.query(`DELETE FROM ${this.table} WHERE id = ANY($1::varchar[]) AND state = 'completed'`, [ids]);
  }

  async liveValues(queue: string, key: string): Promise<Set<string>> {
    const rows: { v: string }[] = await this.db.query(
      `SELECT DISTINCT payload->>$2 AS v FROM ${this.table} WHERE queue = $1 AND state IN ('queued', 'running')`,
      [queue, key],
    );
    return new Set(rows.map((r) => r.v));
  }

  /**
   * Takes up to `limit` due jobs of `queues`, oldest first, each under a lease of its own
   * (`locked_by` = `claim`/job id), counting the attempt: queued jobs whose time has come, and
   * running ones whose lease ran out (their worker died) with attempts left.
   */
  async claim(queues: string[], claim: string, leaseMs: number, limit: number): Promise<Claimed[]> {
    const rows = rowsOf(
      await this.db.query(
        `UPDATE ${this.table} j SET state = 'running', attempts = j.attempts + 1, locked_by = $1 || '/' || j.id,
                locked_until = now() + ($2::int * interval '1 millisecond'), updated_at = now(),
                last_error = CASE WHEN c.was = 'running' THEN ${LEASE_EXPIRED} ELSE j.last_error END
           FROM (SELECT id, state AS was FROM ${this.table}
                  WHERE queue = ANY($3::varchar[])
                    AND ((state = 'queued' AND run_after <= now())
                      OR (state = 'running' AND locked_until < now() AND attempts < max_attempts))
                  ORDER BY run_after, created_at
                  FOR UPDATE SKIP LOCKED LIMIT $4) c
          WHERE j.id = c.id
          RETURNING j.*, c.was`,
        [claim, leaseMs, queues, limit],
      ),
    );
    const repo = this.db.getRepository(Job);
    return rows
      .map((row) => ({
        job: repo.create({
          id: row.id as string,
          queue: row.queue as string,
          payload: row.payload as Record<string, unknown>,
          state: 'running',
          attempts: row.attempts as number,
          maxAttempts: row.max_attempts as number,
          runAfter: row.run_after as Date,
          lockedBy: row.locked_by as string,
          lockedUntil: row.locked_until as Date,
          lastError: row.last_error as string | null,
          createdAt: row.created_at as Date,
          updatedAt: row.updated_at as Date,
        }),
        leaseExpired: row.was === 'running',
      }))
      .sort(
        (a, b) =>
          a.job.runAfter.getTime() - b.job.runAfter.getTime() || a.job.createdAt.getTime() - b.job.createdAt.getTime(),
      );
  }

  /**
   * Dead-letters (state `failed`) the running jobs of `queues` whose lease ran out with no attempts
   * left: their worker died on each of them (a job that kills its process), so they are never claimed again.
   */
  async deadLetterExpired(queues: string[]): Promise<DeadLettered[]> {
    const rows = rowsOf(
      await this.db.query(
        `UPDATE ${this.table} j SET state = 'failed', locked_by = NULL, locked_until = NULL, updated_at = now(),
                last_error = ${LEASE_EXPIRED}
                  || CASE WHEN j.last_error IS NULL OR j.last_error LIKE 'lease expired%' THEN '' ELSE '; before that: ' || j.last_error END
           FROM (SELECT id FROM ${this.table}
                  WHERE queue = ANY($1::varchar[]) AND state = 'running' AND locked_until < now() AND attempts >= max_attempts
                  FOR UPDATE SKIP LOCKED LIMIT 100) d
          WHERE j.id = d.id
          RETURNING j.id, j.queue, j.payload, j.attempts, j.last_error`,
        [queues],
      ),
    );
    return rows.map((r) => ({
      id: r.id as string,
      queue: r.queue as string,
      payload: r.payload as Record<string, unknown>,
      attempts: r.attempts as number,
      lastError: r.last_error as string,
    }));
  }

  /** Extends the lease `lockedBy` holds; false when it holds it no more (another worker claimed the job, or it was dead-lettered). */
  async renew(id: string, lockedBy: string, leaseMs: number): Promise<boolean> {
    const rows = rowsOf(
      await this.db.query(
        `UPDATE ${this.table} SET locked_until = now() + ($1::int * interval '1 millisecond')
          WHERE id = $2 AND locked_by = $3 AND state = 'running' RETURNING id`,
        [leaseMs, id, lockedBy],
      ),
    );
    return rows.length > 0;
  }

  /** Applies `set` to the job if `lockedBy` still holds it (never over another worker's claim); whether it did. */
  async finish(id: string, lockedBy: string, set: string, params: unknown[] = []): Promise<boolean> {
    const rows = rowsOf(
      await this.db.query(
        `UPDATE ${this.table} SET ${set}, updated_at = now() WHERE id = $1 AND locked_by = $2 RETURNING id`,
        [id, lockedBy, ...params],
      ),
    );
    return rows.length > 0;
  }

  /** Jobs in `states` (newest change first), of one queue or all. */
  async list(states: JobState[], queue: string | undefined, limit: number): Promise<JobSummary[]> {
    const rows: Record<string, unknown>[] = await this.db.query(
      `SELECT id, queue, state, attempts, max_attempts, last_error, run_after, created_at, updated_at FROM ${this.table}
        WHERE state = ANY($1::varchar[]) AND ($2::varchar IS NULL OR queue = $2)
        ORDER BY updated_at DESC LIMIT $3`,
      [states, queue ?? null, limit],
    );
    return rows.map((r) => ({
      id: r.id as string,
      queue: r.queue as string,
      state: r.state as JobState,
      attempts: r.attempts as number,
      maxAttempts: r.max_attempts as number,
      lastError: r.last_error as string | null,
      runAfter: r.run_after as Date,
      createdAt: r.created_at as Date,
      updatedAt: r.updated_at as Date,
    }));
  }

  /** Puts a failed job back in its queue with its attempts reset (its last error kept); false when no failed job has that id. */
  async retry(id: string, channel: string): Promise<boolean> {
    const rows = rowsOf(
      await this.db.query(
        `WITH r AS (
           UPDATE ${this.table} SET state = 'queued', attempts = 0, run_after = now(), locked_by = NULL, locked_until = NULL, updated_at = now()
            WHERE id = $1 AND state = 'failed' RETURNING queue)
         SELECT r.queue, pg_notify($2, r.queue) FROM r`,
        [id, channel],
      ),
    );
    return rows.length > 0;
  }

  /** Failed (dead-lettered) jobs per queue. */
  async deadCounts(): Promise<Map<string, number>> {
    const rows: { queue: string; n: string }[] = await this.db.query(
      `SELECT queue, count(*) AS n FROM ${this.table} WHERE state = 'failed' GROUP BY queue`,
    );
    return new Map(rows.map((r) => [r.queue, Number(r.n)]));
  }
}

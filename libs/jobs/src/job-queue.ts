import { randomUUID } from 'node:crypto';
import { backoffDelay, createLogger, WakeableSleep } from '@herald/core';
import { PgNotifications } from '@herald/persistence';
import type { DataSource, EntityManager } from 'typeorm';
import type { Job } from './job.entity.js';
import { JobStore, type DeadLettered } from './job.store.js';
import { trackDeadJobs } from './job-metrics.js';

export interface EnqueueOptions {
  /** Job id (e.g. the user-facing `imp_…` id); generated when absent. */
  id?: string;
  runAt?: Date;
  /** Claims in all, lease expiries included (default 5): then the job is dead-lettered (state `failed`). */
  maxAttempts?: number;
}

export interface JobContext {
  job: Job;
  /**
   * Aborted when the process is shutting down, or when this worker lost the job's lease (another
   * worker claimed it after the lease ran out, or renewals failed until it ended): stop at the next
   * safe point and throw. Its `reason` tells which (`LeaseLostError` for a lost lease).
   */
  signal: AbortSignal;
}

export type JobHandler = (ctx: JobContext) => Promise<void>;

export interface JobHandlerOptions {
  /**
   * Told when a job of the queue is dead-lettered because its lease expired with no attempts left
   * (its worker died on its last attempt, so the handler never saw it fail): to mark what the job
   * was doing as failed. Best effort: called once, by the worker that dead-lettered the job.
   */
  onDead?: (job: DeadLettered) => Promise<void>;
}

export interface JobWorkerOptions {
  /** How long a claim lasts without renewal; a crashed worker's job is retried after this. */
  leaseMs: number;
  pollIntervalMs: number;
  /** Jobs run at once in this process, across queues. */
  concurrency: number;
  /** The wait before retrying a failed job: `retryBaseMs × 2^(attempt − 1)` with jitter, at most `retryMaxMs`. */
  retryBaseMs?: number;
  retryMaxMs?: number;
}

/** The reason a job's signal aborts when its worker no longer holds the job's lease. */
export class LeaseLostError extends Error {
  override name = 'LeaseLostError';
}

/** The default claims of a job (its first run included) before it is dead-lettered. */
export const DEFAULT_MAX_ATTEMPTS = 5;

const log = createLogger('jobs');
export const jobsChannel = (service: string): string => `herald_jobs_${service}`;

/**
 * A durable, Postgres-backed job queue for one service (its schema's `jobs` table): jobs are
 * enqueued inside the caller's transaction, claimed with `FOR UPDATE SKIP LOCKED` under a renewed
 * lease, retried with backoff and jitter, and survive restarts (an expired lease is claimed again).
 * Every claim counts an attempt, a claim after lease expiry too: a job out of attempts is
 * dead-lettered (state `failed`, with its last error) instead of being run again, so a job that
 * kills its process does not come back forever. NOTIFY at commit wakes the workers at once.
 */
export class JobQueue {
  private readonly store: JobStore;
  private readonly handlers = new Map<string, JobHandler>();
  private readonly onDead = new Map<string, NonNullable<JobHandlerOptions['onDead']>>();
  private readonly workerId = `${process.pid}-${randomUUID().slice(0, 8)}`;
  private claims = 0;
  private readonly abort = new AbortController();
  private readonly running = new Set<Promise<void>>();
  private unlisten?: () => Promise<void>;
  private loop?: Promise<void>;
  private readonly pause = new WakeableSleep();
  private stopped = false;
  private lastReap = 0;
  private untrack?: () => void;

  constructor(
    private readonly service: string,
    private readonly databaseUrl: string,
    db: DataSource,
    private readonly options: JobWorkerOptions,
  ) {
    this.store = new JobStore(db);
  }

  /** Adds a job in the caller's transaction: it exists if and only if that transaction commits. */
  async enqueue(
    manager: EntityManager,
    queue: string,
    payload: Record<string, unknown>,
    options: EnqueueOptions = {},
  ): Promise<string> {
    const id = options.id ?? `job_${randomUUID()}`;
    await this.store.insert(
      manager,
      {
        id,
        queue,
        payload,
        maxAttempts: options.maxAttempts ?? DEFAULT_MAX_ATTEMPTS,
        runAt: options.runAt ?? new Date(),
      },
      jobsChannel(this.service),
    );
    return id;
  }

  /**
   * Records work that failed for good outside a run of this queue (a chain that retries on its own
   * schedule, such as a webhook delivery), in the caller's transaction: a dead-lettered job (state
   * `failed`) of `queue` with `lastError`, which `main.js jobs list` shows and counts, and which
   * `main.js jobs retry <id>` puts back in the queue for its handler. A job with that id is replaced.
   */
  async deadLetter(
    manager: EntityManager,
    queue: string,
    payload: Record<string, unknown>,
    dead: { id: string; attempts: number; lastError: string },
  ): Promise<void> {
    await this.store.insertDead(manager, {
      id: dead.id,
      queue,
      payload,
      attempts: dead.attempts,
      lastError: dead.lastError,
    });
  }

  /** Drops the queued (not running) jobs of `queue` whose payload `key` is one of `values`, in the caller's transaction. */
  async cancel(manager: EntityManager, queue: string, key: string, values: string[]): Promise<void> {
    if (values.length === 0) return;
    await this.store.cancel(manager, queue, key, values);
  }

  /** Deletes finished jobs by id (a chain of jobs keeps the table small this way). */
  async forget(manager: EntityManager, ids: string[]): Promise<void> {
    if (ids.length === 0) return;
    await this.store.forget(manager, ids);
  }

  /** The values of payload `key` over the jobs of `queue` that are still queued or running. */
  async liveValues(queue: string, key: string): Promise<Set<string>> {
    return this.store.liveValues(queue, key);
  }

  register(queue: string, handler: JobHandler, options: JobHandlerOptions = {}): void {
    this.handlers.set(queue, handler);
    if (options.onDead) this.onDead.set(queue, options.onDead);
  }

  async start(): Promise<void> {
    this.untrack ??= trackDeadJobs(this.service, this.store);
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
    this.untrack?.();
    this.abort.abort();
    this.pause.wake();
    await this.loop;
    await Promise.race([Promise.all(this.running), new Promise((r) => setTimeout(r, timeoutMs).unref())]);
    await this.unlisten?.();
  }

  private async run(): Promise<void> {
    while (!this.stopped) {
      try {
        await this.deadLetterExpired();
        if (this.running.size >= this.options.concurrency) {
          await Promise.race(this.running);
          continue;
        }
        // as many jobs as there are free slots, in one statement; each claim has a lease of its own, so
        // that a job this worker lost and claimed again is told apart from the first run
        const claimed = await this.store.claim(
          [...this.handlers.keys()],
          `${this.workerId}:${++this.claims}`,
          this.options.leaseMs,
          this.options.concurrency - this.running.size,
        );
        if (claimed.length === 0) {
          await this.pause.sleep(this.options.pollIntervalMs);
          continue;
        }
        for (const { job, leaseExpired } of claimed) {
          if (leaseExpired)
            log.warn('job lease expired; claimed again', {
              service: this.service,
              queue: job.queue,
              jobId: job.id,
              attempt: job.attempts,
              maxAttempts: job.maxAttempts,
            });
          const p = this.execute(job, job.lockedBy!).finally(() => this.running.delete(p));
          this.running.add(p);
        }
      } catch (err) {
        log.error('job claim failed', { service: this.service, err: String(err) });
        await this.pause.sleep(1000);
      }
    }
  }

  /** At most once per poll interval: the expired jobs with no attempts left are dead-lettered, never run again. */
  private async deadLetterExpired(): Promise<void> {
    if (Date.now() - this.lastReap < this.options.pollIntervalMs) return;
    this.lastReap = Date.now();
    for (const dead of await this.store.deadLetterExpired([...this.handlers.keys()])) {
      log.error('job dead-lettered: its lease expired with no attempts left', {
        service: this.service,
        queue: dead.queue,
        jobId: dead.id,
        attempts: dead.attempts,
        err: dead.lastError,
      });
      await this.onDead
        .get(dead.queue)?.(dead)
        .catch((err: unknown) =>
          log.error('job dead-letter hook failed', { service: this.service, jobId: dead.id, err: String(err) }),
        );
    }
  }

  private async execute(job: Job, lockedBy: string): Promise<void> {
    const handler = this.handlers.get(job.queue)!;
    const lease = this.holdLease(job, lockedBy);
    const signal = AbortSignal.any([this.abort.signal, lease.signal]);
    // written only while this claim still holds the job (never over another worker's claim)
    const finish = async (outcome: string, set: string, params: unknown[] = []) => {
      if (!(await this.store.finish(job.id, lockedBy, set, params))) this.lostBeforeFinishing(job, outcome);
    };
    try {
      await handler({ job, signal });
      if (lease.signal.aborted) return this.lostBeforeFinishing(job, 'completed');
      await finish('completed', `state = 'completed', locked_by = NULL, locked_until = NULL, last_error = NULL`);
    } catch (err) {
      const message = err instanceof Error ? `${err.name}: ${err.message}` : String(err);
      if (lease.signal.aborted) return this.lostBeforeFinishing(job, message);
      if (this.abort.signal.aborted) {
        // Interrupted by shutdown, not failed: back to the queue without counting the attempt.
        await finish(
          'interrupted by shutdown',
          `state = 'queued', attempts = attempts - 1, locked_by = NULL, locked_until = NULL`,
        );
      } else if (job.attempts >= job.maxAttempts) {
        log.error('job failed for good', {
          service: this.service,
          queue: job.queue,
          jobId: job.id,
          attempts: job.attempts,
          err: message,
        });
        await finish(message, `state = 'failed', locked_by = NULL, locked_until = NULL, last_error = $3`, [message]);
      } else {
        const delayMs = backoffDelay(job.attempts, {
          baseMs: this.options.retryBaseMs ?? 1000,
          maxMs: this.options.retryMaxMs ?? 60_000,
        });
        log.warn('job failed; retrying', {
          service: this.service,
          queue: job.queue,
          jobId: job.id,
          attempt: job.attempts,
          retryInMs: delayMs,
          err: message,
        });
        await finish(
          message,
          `state = 'queued', locked_by = NULL, locked_until = NULL, last_error = $3, run_after = now() + ($4::int * interval '1 millisecond')`,
          [message, delayMs],
        );
      }
    } finally {
      lease.release();
    }
  }

  /**
   * Renews the job's lease every third of it. Its signal aborts when the lease is lost: a renewal
   * that finds the job held by another claim (or dead-lettered), or renewals that kept failing
   * until the lease ran out (another worker may claim it from then on).
   */
  private holdLease(job: Job, lockedBy: string): { signal: AbortSignal; release: () => void } {
    const lost = new AbortController();
    const leaseMs = this.options.leaseMs;
    let leaseEnd = Date.now() + leaseMs;
    let renewing = false;
    const lose = (why: string) => {
      if (lost.signal.aborted) return;
      log.warn('job lease lost; its work is aborted', {
        service: this.service,
        queue: job.queue,
        jobId: job.id,
        attempt: job.attempts,
        why,
      });
      lost.abort(new LeaseLostError(`lease on job ${job.id} lost: ${why}`));
    };
    const timer = setInterval(
      () => {
        if (renewing || lost.signal.aborted) return;
        renewing = true;
        const sent = Date.now();
        this.store
          .renew(job.id, lockedBy, leaseMs)
          .then((held) => {
            if (held) leaseEnd = sent + leaseMs;
            else lose('another worker claimed the job, or it is no longer running');
          })
          .catch((err: unknown) => {
            log.warn('job lease renewal failed', { service: this.service, jobId: job.id, err: String(err) });
            if (Date.now() >= leaseEnd) lose(`renewals failed until the lease ran out: ${String(err)}`);
          })
          .finally(() => (renewing = false));
      },
      Math.max(20, Math.floor(leaseMs / 3)),
    );
    return { signal: lost.signal, release: () => clearInterval(timer) };
  }

  /** The job is another claim's now: nothing of this run is written over it. */
  private lostBeforeFinishing(job: Job, outcome: string): void {
    log.warn('job ended after losing its lease; its outcome is not recorded', {
      service: this.service,
      queue: job.queue,
      jobId: job.id,
      attempt: job.attempts,
      outcome,
    });
  }
}

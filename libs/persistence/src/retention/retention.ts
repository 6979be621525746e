import { createLogger, DEFAULT_RETENTION, WakeableSleep, type RetentionSettings } from '@herald/core';
import { Counter } from 'prom-client';

const log = createLogger('persistence.retention');

/** Rows deleted past retention, per service and table. */
export const retentionDeleted = new Counter({
  name: 'herald_retention_deleted_rows_total',
  help: 'Rows deleted past their retention (inbox, dead letters, jobs, …), by service and table',
  labelNames: ['service', 'table'],
});

/**
 * One kind of row a service deletes once past its retention. `pruneBatch` deletes at most `limit`
 * of them in one statement (its own short transaction) and answers how many it deleted; the same
 * rows deleted by another replica at the same time are simply not counted twice.
 */
export interface RetentionTask {
  /** The table, as the metric labels it (`inbox`, `jobs`, …). */
  table: string;
  /** Several tasks may share a table (completed and failed jobs): `what` tells them apart in logs. */
  what?: string;
  pruneBatch(limit: number): Promise<number>;
}

/**
 * Deletes batches of `task` until one comes back short of `batchSize` or `stopping()` says so:
 * every statement locks only the rows it deletes, and commits on its own, so a large backlog never
 * holds a table (or vacuum) for long. Answers the rows deleted.
 */
export async function pruneInBatches(
  task: RetentionTask,
  batchSize: number,
  stopping: () => boolean = () => false,
): Promise<{ deleted: number; batches: number }> {
  let deleted = 0;
  let batches = 0;
  while (!stopping()) {
    const n = await task.pruneBatch(batchSize);
    batches++;
    deleted += n;
    if (n < batchSize) break;
  }
  return { deleted, batches };
}

/**
 * A service's pruner: every `intervalMs` it deletes, task by task, the rows past retention
 * (`RetentionTask`s registered by the libraries that own the tables: messaging's inbox and dead
 * letters, the job queue's finished jobs). Every process runs one per service, leader or not: a
 * delete of rows past a cutoff is idempotent, and replicas that prune together only share the work.
 * `stop` lets the batch in flight finish and starts no other.
 */
export class Retention {
  private readonly tasks: RetentionTask[] = [];
  private readonly pause = new WakeableSleep();
  private readonly settings: RetentionSettings;
  private loop?: Promise<void>;
  private stopped = false;

  constructor(
    readonly service: string,
    settings: Partial<RetentionSettings> = {},
  ) {
    this.settings = { ...DEFAULT_RETENTION, ...settings };
  }

  get retention(): RetentionSettings {
    return this.settings;
  }

  register(task: RetentionTask): void {
    this.tasks.push(task);
  }

  start(): void {
    if (this.loop || this.tasks.length === 0) return;
    this.stopped = false;
    this.loop = this.run();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.pause.wake();
    await this.loop;
    this.loop = undefined;
  }

  /** One round over every task (tests and the loop); answers the rows deleted and the statements run, per table. */
  async pruneOnce(): Promise<Record<string, { deleted: number; batches: number }>> {
    const done: Record<string, { deleted: number; batches: number }> = {};
    for (const task of this.tasks) {
      if (this.stopped && this.loop) break;
      try {
        const result = await pruneInBatches(task, this.settings.batchSize, () => this.stopped && !!this.loop);
        const sofar = (done[task.table] ??= { deleted: 0, batches: 0 });
        sofar.deleted += result.deleted;
        sofar.batches += result.batches;
        if (result.deleted > 0) {
          retentionDeleted.inc({ service: this.service, table: task.table }, result.deleted);
          log.info('rows past retention deleted', {
            service: this.service,
            table: task.table,
            what: task.what,
            deleted: result.deleted,
            batches: result.batches,
          });
        }
      } catch (err) {
        log.warn('deleting rows past retention failed', {
          service: this.service,
          table: task.table,
          what: task.what,
          err: String(err),
        });
      }
    }
    return done;
  }

  private async run(): Promise<void> {
    // replicas started together spread their first rounds over the interval
    await this.pause.sleep(Math.floor(Math.random() * Math.min(this.settings.intervalMs, 60_000)));
    while (!this.stopped) {
      await this.pruneOnce();
      await this.pause.sleep(this.settings.intervalMs);
    }
  }
}

import type { EventEnvelope } from '@herald/contracts';
import { advisoryLockKey, backoffDelay, WakeableSleep } from '@herald/core';
import { PgNotifications, pgPool, tableName, WatchedClient } from '@herald/persistence';
import pg from 'pg';
import type { DataSource } from 'typeorm';
import { OutboxMessage } from '../entities/outbox-message.entity.js';
import type { EventPublisher } from '../event-publisher.js';
import { messagingMetrics } from '../metrics.js';
import { outboxChannel, type LocalRelay } from './outbox.js';
import { startPublishSpans } from './publish-spans.js';

export interface OutboxRelayOptions {
  batchSize: number;
  /** Fallback poll interval when no NOTIFY arrives. */
  pollIntervalMs: number;
  /**
   * After a NOTIFY wakes an idle relay, it waits this long before reading, so that events committed
   * close together go out in one round (one publish, one mark, one consumer transaction each)
   * rather than a round per commit. It bounds the delay it adds to delivery.
   */
  lingerMs: number;
  /** Published rows are kept this long, then deleted. */
  retentionMs: number;
}

export interface RelayLogger {
  info(msg: string, fields?: Record<string, unknown>): void;
  error(msg: string, fields?: Record<string, unknown>): void;
}

const DEFAULTS: OutboxRelayOptions = { batchSize: 500, pollIntervalMs: 1000, lingerMs: 20, retentionMs: 24 * 3600_000 };

/**
 * The relay's read of the next rows to publish (at most `limit`), run in its transaction: a plan
 * setting, then the read. The read walks the unpublished-rows index in id order. Left to itself the
 * planner takes a bitmap scan there, as the index's statistics say few rows match; but the index
 * keeps an entry for every row published since the last VACUUM, and a bitmap scan visits each
 * one's heap page at every read, so each relay round cost in proportion to what was published
 * since (thousands of pages a round under load). A plain index scan marks those entries dead the
 * first time it meets them and skips them after. No parameters (the limit is written in): the
 * relay sends both with its BEGIN as one message.
 */
export function pendingRowsRead(table: string, limit: number): [plan: string, read: string] {
  if (!Number.isSafeInteger(limit) || limit < 1)
    throw new Error(`outbox read limit must be a positive integer, got ${limit}`);
  return [
    'SET LOCAL enable_bitmapscan = off',
    `SELECT id, envelope FROM ${table} WHERE published_at IS NULL ORDER BY id LIMIT ${limit} FOR UPDATE SKIP LOCKED`,
  ];
}

/**
 * Publishes a service's outbox in commit order. One relay per service is active at a time (a
 * PostgreSQL advisory lock held on a dedicated connection), so per-key order survives replicas.
 * Rows are marked published only after the publisher accepted them: a crash in between republishes
 * them, and consumers de-duplicate by event id.
 */
export class OutboxRelay implements LocalRelay {
  private readonly options: OutboxRelayOptions;
  private client?: WatchedClient;
  private running = false;
  private leader = false;
  private loop?: Promise<void>;
  private readonly pause = new WakeableSleep();
  private lastCleanup = 0;
  private unlisten?: () => Promise<void>;
  private readonly table: string;
  /** Resolved at the end of each round (read-your-writes waiters check the outbox again then). */
  private roundEnded: { promise: Promise<void>; resolve: () => void } = deferred();

  constructor(
    private readonly service: string,
    private readonly databaseUrl: string,
    private readonly dataSource: DataSource,
    private readonly publisher: EventPublisher,
    private readonly logger: RelayLogger,
    options: Partial<OutboxRelayOptions> = {},
  ) {
    this.options = { ...DEFAULTS, ...options };
    this.table = tableName(dataSource, OutboxMessage);
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.loop = this.run().catch((err: unknown) =>
      this.logger.error('outbox relay stopped', { service: this.service, err: String(err) }),
    );
  }

  /** Stops after the batch in flight (if any) has been published and marked. */
  async stop(): Promise<void> {
    this.running = false;
    this.pause.wake();
    await this.loop;
    await this.client?.end().catch(() => undefined);
    this.client = undefined;
    await this.unlisten?.();
    this.unlisten = undefined;
  }

  /** Whether this relay holds the service's advisory lock (it is the one publishing). */
  get isLeader(): boolean {
    return this.running && this.leader;
  }

  /** Reads the outbox now (after its linger) instead of at the next poll: a commit in this process wrote to it. */
  wake(): void {
    this.pause.wake();
  }

  /**
   * The last id of the outbox: every event committed so far is at or below it (read-your-writes'
   * "latest" position of this service).
   */
  async latestId(): Promise<number> {
    const rows: { last: string | null }[] = await this.dataSource.query(`SELECT max(id) AS last FROM ${this.table}`);
    return Number(rows[0]?.last ?? 0);
  }

  /**
   * Waits until every event committed at or below `upTo` has been published (read-your-writes: the
   * transport accepted them; in standalone mode every consumer applied them), checking the outbox
   * after each round of this relay or every 25 ms when another replica's relay leads. Events not
   * committed when asked belong to writes that were not acknowledged yet: they are not waited for.
   * False at `deadline` (epoch ms) if some are still unpublished.
   */
  async awaitPublished(upTo: number, deadline: number): Promise<boolean> {
    for (;;) {
      const round = this.roundEnded.promise;
      const rows: { pending: boolean }[] = await this.dataSource.query(
        `SELECT EXISTS (SELECT 1 FROM ${this.table} WHERE published_at IS NULL AND id <= $1) AS pending`,
        [upTo],
      );
      if (!rows[0]?.pending) return true;
      const left = deadline - Date.now();
      if (left <= 0) return false;
      this.pause.wake(); // its rows are committed: read them now rather than at the next poll
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, Math.min(left, this.isLeader ? 1000 : 25));
        void round.then(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  /** Number of events not yet published (for metrics and tests). */
  async pending(): Promise<number> {
    const rows: { n: string }[] = await this.dataSource.query(
      `SELECT count(*) AS n FROM ${this.table} WHERE published_at IS NULL`,
    );
    return Number(rows[0]?.n ?? 0);
  }

  private async run(): Promise<void> {
    let failures = 0;
    while (this.running) {
      try {
        if (!this.leader) {
          await this.acquireLeadership();
          if (!this.leader) {
            await this.pause.sleep(2000);
            continue;
          }
        }
        const published = await this.relayBatch().finally(() => this.endRound());
        failures = 0;
        await this.cleanupIfDue();
        if (published < this.options.batchSize) {
          await this.pause.sleep(this.options.pollIntervalMs);
          if (this.running && this.options.lingerMs > 0) await new Promise((r) => setTimeout(r, this.options.lingerMs));
        }
      } catch (err) {
        failures++;
        const delay = backoffDelay(failures + 1, { baseMs: 250, maxMs: 30_000 }); // 0.5 s, 1 s, 2 s… up to 30 s, jittered
        this.logger.error('outbox relay batch failed; retrying', {
          service: this.service,
          err: String(err),
          retryInMs: delay,
        });
        if (this.client && !(await this.clientAlive())) await this.dropLeadership();
        await this.pause.sleep(delay);
      }
    }
    await this.dropLeadership();
  }

  private endRound(): void {
    const ended = this.roundEnded;
    this.roundEnded = deferred();
    ended.resolve();
  }

  private async acquireLeadership(): Promise<void> {
    if (!this.client) {
      const client = new WatchedClient({
        connectionString: this.databaseUrl,
        application_name: `herald-${this.service}-relay`,
      });
      client.on('error', () => undefined);
      await client.connect();
      this.client = client;
      this.unlisten ??= await PgNotifications.for(this.databaseUrl).listen(outboxChannel(this.service), () =>
        this.pause.wake(),
      );
    }
    const res = await this.client.query<{ ok: boolean }>('SELECT pg_try_advisory_lock($1) AS ok', [
      advisoryLockKey(`herald-outbox-relay:${this.service}`),
    ]);
    this.leader = res.rows[0]?.ok === true;
    if (this.leader) this.logger.info('outbox relay active', { service: this.service });
  }

  private async dropLeadership(): Promise<void> {
    this.leader = false;
    const client = this.client;
    this.client = undefined;
    await client?.end().catch(() => undefined);
  }

  private async clientAlive(): Promise<boolean> {
    try {
      await this.client?.query('SELECT 1');
      return true;
    } catch {
      return false;
    }
  }

  /**
   * One round in two round trips: BEGIN, the plan setting and the read go as one message (the
   * simple query protocol runs several statements, and none has parameters); after the publisher
   * accepted the rows, the mark and COMMIT go as another. Through TypeORM's transaction, a
   * statement a message, it was five.
   */
  private async relayBatch(): Promise<number> {
    const client = await pgPool(this.dataSource).connect();
    let broken = false;
    // While the transport takes the rows no query runs on the connection, and a checked-out pg client
    // has no error listener: the server ending it then (a PostgreSQL restart, 57P01) would be an
    // uncaught 'error' that ends the process. The round fails at its next statement instead.
    const lost = () => {
      broken = true;
    };
    client.on('error', lost);
    try {
      const [plan, read] = pendingRowsRead(this.table, this.options.batchSize);
      const results = (await client.query(`BEGIN; ${plan}; ${read}`)) as unknown as pg.QueryResult<{
        id: string;
        envelope: EventEnvelope;
      }>[];
      const rows = results[2]!.rows;
      if (rows.length === 0) {
        await client.query('COMMIT');
        return 0;
      }
      const envelopes = rows.map((r) => r.envelope);
      const traced = startPublishSpans(this.service, this.publisher.system ?? 'herald', envelopes);
      try {
        await this.publisher.publish(envelopes);
      } catch (err) {
        traced?.(err);
        throw err;
      }
      traced?.();
      const ids = rows.map((r) => r.id);
      if (!ids.every((id) => /^\d+$/.test(id))) throw new Error('outbox ids must be integers'); // bigserial, written into the statement
      await client.query(
        `UPDATE ${this.table} SET published_at = now() WHERE id = ANY('{${ids.join(',')}}'::bigint[]); COMMIT`,
      );
      messagingMetrics.published.inc({ service: this.service }, rows.length);
      return rows.length;
    } catch (err) {
      // a connection that cannot even roll back is closed rather than returned to the pool in an unknown state
      await client.query('ROLLBACK').catch(() => (broken = true));
      throw err;
    } finally {
      client.removeListener('error', lost);
      client.release(broken);
    }
  }

  private async cleanupIfDue(): Promise<void> {
    const now = Date.now();
    if (now - this.lastCleanup < 10 * 60_000) return;
    this.lastCleanup = now;
    await this.dataSource.query(
      `DELETE FROM ${this.table} WHERE published_at < now() - ($1::bigint * interval '1 millisecond')`,
      [this.options.retentionMs],
    );
  }
}

/** A promise with its resolver. */
function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

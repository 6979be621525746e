import { configureLogging, CoreModule, DEFAULT_RETENTION, type HeraldRuntime } from '@herald/core';
import { createHttpApp } from '@herald/http';
import { PersistenceModule, pruneInBatches, Retention, retentionToken } from '@herald/persistence';
import { createTestDatabase, eventually, TEST_INTERNAL_SECRET, type TestDatabase } from '@herald/testing';
import { Module } from '@nestjs/common';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { getDataSourceToken } from '@nestjs/typeorm';
import { randomUUID } from 'node:crypto';
import { register } from 'prom-client';
import type { DataSource } from 'typeorm';
import { messagingEntities } from '../entities/index.js';
import { MessagingModule } from '../messaging.module.js';
import { messagingRetentionTasks } from './messaging-retention.js';

const SVC = 'retsvc';
const DAY = 86_400_000;

/**
 * A service's inbox and dead letters past retention, on PostgreSQL, through the same modules every
 * service composes (PersistenceModule's pruner, MessagingModule's tasks).
 */
describe('messaging retention: inbox and dead letters pruned past their retention (PostgreSQL)', () => {
  let db: TestDatabase;
  let app: NestFastifyApplication;
  let ds: DataSource;
  let retention: Retention;

  beforeAll(async () => {
    configureLogging(process.env.HERALD_TEST_LOG_LEVEL ?? 'silent');
    db = await createTestDatabase();
    const runtime: HeraldRuntime = {
      mode: 'standalone',
      databaseUrl: db.url,
      databasePoolSize: 2,
      internalJwtSecret: TEST_INTERNAL_SECRET,
      jobLeaseMs: 30_000,
      // the timer is far off: each test runs a round itself
      retention: { ...DEFAULT_RETENTION, inboxMs: 2 * DAY, deadLettersMs: 3 * DAY, batchSize: 1000, intervalMs: DAY },
    };
    @Module({
      imports: [
        PersistenceModule.forService({
          service: SVC,
          entities: [...messagingEntities],
          migrations: [],
          migrateOnStart: () => false,
        }),
        MessagingModule.forService({ service: SVC }),
      ],
    })
    class ServiceModule {}
    @Module({ imports: [CoreModule.forRoot(runtime), MessagingModule.forRoot(), ServiceModule] })
    class TestRoot {}
    app = await createHttpApp(TestRoot);
    ds = app.get<DataSource>(getDataSourceToken(SVC));
    await ds.query(`CREATE SCHEMA ${SVC}`);
    await ds.synchronize();
    await app.init();
    retention = app.get<Retention>(retentionToken(SVC));
    await retention.stop(); // its loop's first round may start at any time: the tests run theirs
  });

  afterEach(async () => {
    await ds.query(`TRUNCATE ${SVC}.inbox, ${SVC}.dead_letters`);
  });

  afterAll(async () => {
    await app?.close();
    await db?.drop();
  });

  /** `n` inbox entries applied `ageMs` ago. */
  const applied = (n: number, ageMs: number, consumer = SVC) =>
    ds.query(
      `INSERT INTO ${SVC}.inbox (consumer, event_id, topic, processed_at)
       SELECT $1, gen_random_uuid(), 'contact.updated', now() - $2::bigint * interval '1 millisecond' FROM generate_series(1, $3)`,
      [consumer, ageMs, n],
    );
  const count = async (table: string) =>
    Number((await ds.query(`SELECT count(*) AS n FROM ${SVC}.${table}`))[0].n as string);

  it('deletes the inbox entries applied longer ago than INBOX_RETENTION_MS and keeps the younger ones, of every consumer', async () => {
    await applied(2500, 10 * DAY);
    await applied(40, 2 * DAY + 60_000, 'other');
    await applied(300, 2 * DAY - 60_000); // a minute short of retention
    await applied(200, 0);

    const round = await retention.pruneOnce();

    expect(round.inbox).toEqual({ deleted: 2540, batches: 3 });
    expect(await count('inbox')).toBe(500);
    const [{ oldest }] = await ds.query(
      `SELECT extract(epoch FROM now() - min(processed_at)) * 1000 AS oldest FROM ${SVC}.inbox`,
    );
    expect(Number(oldest)).toBeLessThan(2 * DAY);
  });

  it('deletes in statements of at most RETENTION_BATCH_SIZE rows, each committed on its own', async () => {
    await applied(2500, 10 * DAY);
    const [inbox] = messagingRetentionTasks(ds, { ...DEFAULT_RETENTION, inboxMs: 2 * DAY });
    const sizes: number[] = [];
    const result = await pruneInBatches(
      {
        table: 'inbox',
        pruneBatch: async (limit) => {
          const n = await inbox!.pruneBatch(limit);
          sizes.push(n);
          return n;
        },
      },
      1000,
    );
    expect(sizes).toEqual([1000, 1000, 500]);
    expect(result).toEqual({ deleted: 2500, batches: 3 });
    expect(await count('inbox')).toBe(0);
  });

  it('an event still in the inbox stays a duplicate: pruning never removes an entry younger than retention', async () => {
    const eventId = randomUUID();
    await ds.query(
      `INSERT INTO ${SVC}.inbox (consumer, event_id, topic, processed_at) VALUES ($1, $2, 'x', now() - interval '1 day')`,
      [SVC, eventId],
    );
    await retention.pruneOnce();
    // the consumer's inbox insert for a redelivery of the same event finds it
    const again: unknown[] = await ds.query(
      `INSERT INTO ${SVC}.inbox (consumer, event_id, topic) VALUES ($1, $2, 'x') ON CONFLICT DO NOTHING RETURNING event_id`,
      [SVC, eventId],
    );
    expect(again).toHaveLength(0);
  });

  it('keeps dead letters DEAD_LETTERS_RETENTION_MS, then deletes them', async () => {
    const letter = (ageMs: number) =>
      ds.query(
        `INSERT INTO ${SVC}.dead_letters (consumer, topic, event_id, message, error, attempts, created_at)
         VALUES ($1, 'contact.updated', $2, '{}'::jsonb, 'boom', 5, now() - $3::bigint * interval '1 millisecond')`,
        [SVC, randomUUID(), ageMs],
      );
    await letter(4 * DAY);
    await letter(3 * DAY + 60_000);
    await letter(3 * DAY - 60_000);
    await letter(0);

    const round = await retention.pruneOnce();

    expect(round.dead_letters?.deleted).toBe(2);
    expect(await count('dead_letters')).toBe(2);
  });

  it('a pruner deletes on its own timer, every RETENTION_INTERVAL_MS, until stopped', async () => {
    await applied(50, 10 * DAY);
    const timed = new Retention(SVC, { ...retention.retention, intervalMs: 50 });
    for (const task of messagingRetentionTasks(ds, timed.retention)) timed.register(task);
    timed.start();
    try {
      await eventually(async () => (await count('inbox')) === 0);
    } finally {
      await timed.stop();
    }
  });

  it('reports each table of each service on /metrics: live rows and bytes', async () => {
    await applied(120, 0);
    await ds.query(`ANALYZE ${SVC}.inbox`);
    await eventually(async () =>
      /herald_table_rows\{service="retsvc",table="inbox"\} 120\b/.test(await register.metrics()),
    );
    const text = await register.metrics();
    expect(text).toMatch(/herald_table_rows\{service="retsvc",table="dead_letters"\} \d+/);
    expect(text).toMatch(/herald_table_rows\{service="retsvc",table="outbox"\} \d+/);
    const bytes = Number(/herald_table_bytes\{service="retsvc",table="inbox"\} (\d+)/.exec(text)?.[1]);
    expect(bytes).toBeGreaterThan(8192);
  });
});

import { configureLogging, CoreModule, DEFAULT_RETENTION, type HeraldRuntime } from '@herald/core';
import { createHttpApp } from '@herald/http';
import { PersistenceModule, retentionToken, type Retention } from '@herald/persistence';
import { createTestDatabase, TEST_INTERNAL_SECRET, type TestDatabase } from '@herald/testing';
import { Module } from '@nestjs/common';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { getDataSourceToken } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { Job } from './job.entity.js';
import { JobsModule } from './jobs.module.js';

const SVC = 'jobret';
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/** A service's finished jobs past retention, on PostgreSQL, through JobsModule's registration in the service's pruner. */
describe('job retention: completed and failed jobs pruned past their retention (PostgreSQL)', () => {
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
      retention: {
        ...DEFAULT_RETENTION,
        jobsCompletedMs: HOUR,
        jobsFailedMs: 7 * DAY,
        batchSize: 100,
        intervalMs: DAY,
      },
    };
    @Module({
      imports: [
        PersistenceModule.forService({ service: SVC, entities: [Job], migrations: [], migrateOnStart: () => false }),
        JobsModule.forService(SVC),
      ],
    })
    class ServiceModule {}
    @Module({ imports: [CoreModule.forRoot(runtime), ServiceModule] })
    class TestRoot {}
    app = await createHttpApp(TestRoot);
    ds = app.get<DataSource>(getDataSourceToken(SVC));
    await ds.query(`CREATE SCHEMA ${SVC}`);
    await ds.synchronize();
    await app.init();
    retention = app.get<Retention>(retentionToken(SVC));
    await retention.stop(); // the tests run its rounds
  });

  afterAll(async () => {
    await app?.close();
    await db?.drop();
  });

  /** `n` jobs in `state` whose last change was `ageMs` ago. */
  const jobs = (prefix: string, n: number, state: string, ageMs: number) =>
    ds.query(
      `INSERT INTO ${SVC}.jobs (id, queue, state, updated_at, created_at)
       SELECT $1 || g, 'work', $2, now() - $3::bigint * interval '1 millisecond', now() - $3::bigint * interval '1 millisecond'
         FROM generate_series(1, $4) g`,
      [prefix, state, ageMs, n],
    );
  const left = async () =>
    Object.fromEntries(
      (
        (await ds.query(
          `SELECT split_part(id, '-', 1) AS kind, count(*)::int AS n FROM ${SVC}.jobs GROUP BY 1 ORDER BY 1`,
        )) as { kind: string; n: number }[]
      ).map((r) => [r.kind, r.n]),
    );

  it('deletes completed jobs after JOBS_COMPLETED_RETENTION_MS and failed ones after JOBS_FAILED_RETENTION_MS, in batches; never a queued or running one', async () => {
    await jobs('doneold-', 250, 'completed', 2 * HOUR);
    await jobs('donenew-', 30, 'completed', HOUR - 60_000);
    // a failed job is kept longer than a completed one: two hours old, still there
    await jobs('failedyoung-', 20, 'failed', 2 * HOUR);
    await jobs('failedold-', 120, 'failed', 8 * DAY);
    await jobs('queuedold-', 10, 'queued', 30 * DAY);
    await jobs('runningold-', 5, 'running', 30 * DAY);

    const round = await retention.pruneOnce();

    // completed: 100 + 100 + 50 (3 statements); failed: 100 + 20 (2 statements)
    expect(round.jobs).toEqual({ deleted: 370, batches: 5 });
    expect(await left()).toEqual({ donenew: 30, failedyoung: 20, queuedold: 10, runningold: 5 });
  });
});

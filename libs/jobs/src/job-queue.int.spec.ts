import { createServiceDataSource } from '@herald/persistence';
import { createTestDatabase, eventually, type TestDatabase } from '@herald/testing';
import type { DataSource } from 'typeorm';
import { Job } from './job.entity.js';
import { JobQueue, type JobHandler } from './job-queue.js';

describe('durable job queue on PostgreSQL', () => {
  let db: TestDatabase;
  let ds: DataSource;
  const queues: JobQueue[] = [];
  const newQueue = (leaseMs = 2000) => {
    const q = new JobQueue('jobtest', db.url, ds, { leaseMs, pollIntervalMs: 50, concurrency: 2 });
    queues.push(q);
    return q;
  };
  const state = async (id: string) => (await ds.getRepository(Job).findOneByOrFail({ id })).state;

  beforeAll(async () => {
    db = await createTestDatabase();
    ds = await createServiceDataSource({ service: 'jobtest', entities: [Job], migrations: [] }, db.url, 4).initialize();
    await ds.query('CREATE SCHEMA jobtest');
    await ds.synchronize();
  });
  afterEach(async () => {
    await Promise.all(queues.splice(0).map((q) => q.stop(2000)));
    await ds.query('TRUNCATE jobtest.jobs');
  });
  afterAll(async () => {
    await ds.destroy();
    await db.drop();
  });

  it('never runs a job whose enqueuing transaction rolled back, and runs a committed one once', async () => {
    // a lease far longer than the test: a loaded machine's stalled event loop must not let the claim expire
    const q = newQueue(60_000);
    const runs: string[] = [];
    q.register('work', async ({ job }) => void runs.push(job.id));
    await ds
      .transaction(async (m) => {
        await q.enqueue(m, 'work', {}, { id: 'rolled-back' });
        throw new Error('abort');
      })
      .catch(() => undefined);
    await ds.transaction((m) => q.enqueue(m, 'work', { n: 1 }, { id: 'committed' }));
    await q.start();
    await eventually(async () => (await state('committed')) === 'completed');
    // a job enqueued later and run proves the queue has claimed again since: a second run would be there by now
    await ds.transaction((m) => q.enqueue(m, 'work', {}, { id: 'marker' }));
    await eventually(async () => (await state('marker')) === 'completed');
    expect(runs).toEqual(['committed', 'marker']);
    expect(await ds.getRepository(Job).existsBy({ id: 'rolled-back' })).toBe(false);
  });

  it('cancels queued jobs by a payload value, forgets only completed ones, and reports the live payload values', async () => {
    const q = newQueue();
    const later = new Date(Date.now() + 60_000);
    await ds.transaction(async (m) => {
      await q.enqueue(m, 'check', { domainId: 'a' }, { id: 'a-1', runAt: later });
      await q.enqueue(m, 'check', { domainId: 'b' }, { id: 'b-1', runAt: later });
      await q.enqueue(m, 'other', { domainId: 'a' }, { id: 'other-a', runAt: later });
    });
    expect(await q.liveValues('check', 'domainId')).toEqual(new Set(['a', 'b']));
    await ds.transaction((m) => q.cancel(m, 'check', 'domainId', ['a']));
    expect(await ds.getRepository(Job).existsBy({ id: 'a-1' })).toBe(false);
    expect(await ds.getRepository(Job).existsBy({ id: 'other-a' })).toBe(true);
    expect(await q.liveValues('check', 'domainId')).toEqual(new Set(['b']));
    await ds.transaction((m) => q.forget(m, ['b-1']));
    expect(await ds.getRepository(Job).existsBy({ id: 'b-1' })).toBe(true); // still queued: not forgotten
    await ds.query(`UPDATE jobtest.jobs SET state = 'completed' WHERE id = 'b-1'`);
    await ds.transaction((m) => q.forget(m, ['b-1']));
    expect(await ds.getRepository(Job).existsBy({ id: 'b-1' })).toBe(false);
  });

  it('retries a failing job with backoff and marks it failed with the error after its last attempt', async () => {
    const q = newQueue();
    let calls = 0;
    q.register('flaky', async () => {
      calls++;
      throw new Error(`boom ${calls}`);
    });
    await ds.transaction((m) => q.enqueue(m, 'flaky', {}, { id: 'flaky', maxAttempts: 2 }));
    await q.start();
    await eventually(async () => (await state('flaky')) === 'failed', { timeoutMs: 10_000 });
    const job = await ds.getRepository(Job).findOneByOrFail({ id: 'flaky' });
    expect(calls).toBe(2);
    expect(job.lastError).toMatch(/boom 2/);
  });

  it('claims again a running job whose worker died once its lease expires', async () => {
    // a worker that took the job and then vanished: state running, lease already over
    await ds.query(
      `INSERT INTO jobtest.jobs (id, queue, payload, state, attempts, locked_by, locked_until) VALUES ('orphan', 'work', '{}', 'running', 1, 'dead-worker', now() - interval '1 second')`,
    );
    const q = newQueue();
    const handler: JobHandler = async () => undefined;
    q.register('work', handler);
    await q.start();
    await eventually(async () => (await state('orphan')) === 'completed');
  });

  it('does not hand a job with a live lease to a second worker', async () => {
    const a = newQueue(60_000);
    const b = newQueue(60_000);
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const ranBy: string[] = [];
    a.register('slow', async () => {
      ranBy.push('a');
      await gate;
    });
    b.register('slow', async () => void ranBy.push('b'));
    b.register('marker', async () => void ranBy.push('b:marker'));
    await ds.transaction((m) => a.enqueue(m, 'slow', {}, { id: 'slow' }));
    await a.start();
    await eventually(() => ranBy.length === 1);
    await b.start();
    try {
      // b claims in run_after order: once it has run a job queued after the leased one, its claim has
      // passed over the leased job (a steal would have taken that one first)
      await ds.transaction((m) => b.enqueue(m, 'marker', {}, { id: 'marker' }));
      await eventually(async () => (await state('marker')) === 'completed');
      expect(ranBy).toEqual(['a', 'b:marker']);
    } finally {
      release();
    }
    await eventually(async () => (await state('slow')) === 'completed');
    expect(ranBy).toEqual(['a', 'b:marker']);
  });

  it('puts a job interrupted by a graceful stop back in the queue without counting the attempt', async () => {
    const q = newQueue();
    q.register('long', async ({ signal }) => {
      await new Promise((_, reject) => signal.addEventListener('abort', () => reject(new Error('stopping'))));
    });
    await ds.transaction((m) => q.enqueue(m, 'long', {}, { id: 'long' }));
    await q.start();
    await eventually(async () => (await state('long')) === 'running');
    await q.stop();
    const job = await ds.getRepository(Job).findOneByOrFail({ id: 'long' });
    expect(job.state).toBe('queued');
    expect(job.attempts).toBe(0);
  });
});

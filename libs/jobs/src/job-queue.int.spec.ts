import { createServiceDataSource } from '@herald/persistence';
import { createTestDatabase, eventually, type TestDatabase } from '@herald/testing';
import { register } from 'prom-client';
import type { DataSource } from 'typeorm';
import { Job } from './job.entity.js';
import { JobQueue, LeaseLostError, type JobHandler } from './job-queue.js';
import { runJobsCommand } from './jobs-command.js';

describe('durable job queue on PostgreSQL', () => {
  let db: TestDatabase;
  let ds: DataSource;
  const queues: JobQueue[] = [];
  const newQueue = (leaseMs = 2000, concurrency = 2, source?: DataSource) => {
    const q = new JobQueue('jobtest', db.url, source ?? ds, { leaseMs, pollIntervalMs: 50, concurrency });
    queues.push(q);
    return q;
  };
  const state = async (id: string) => (await ds.getRepository(Job).findOneByOrFail({ id })).state;
  const row = (id: string) => ds.getRepository(Job).findOneByOrFail({ id });
  /** Ends the lease of the claim that made `attempts`, as if its worker had stalled (again until another claim took it). */
  const expireLease = (id: string, attempts: number) =>
    ds.query(
      `UPDATE jobtest.jobs SET locked_until = now() - interval '1 second' WHERE id = $1 AND attempts = $2 AND state = 'running'`,
      [id, attempts],
    );
  /** A handler that runs until its signal aborts, keeping the reason. */
  const untilAborted =
    (reasons: unknown[], runs: Job[] = []): JobHandler =>
    async ({ job, signal }) => {
      runs.push(job);
      await new Promise<void>((resolve) =>
        signal.addEventListener('abort', () => {
          reasons.push(signal.reason);
          resolve();
        }),
      );
    };

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

  it("aborts a job's signal when another worker claims it after its lease expired, counts that claim's attempt, and never records the first run's outcome over it", async () => {
    const reasons: unknown[] = [];
    // a renews every 200 ms, so it notices the steal quickly; one job at a time, so a cannot take it back
    const a = newQueue(600, 1);
    a.register('work', untilAborted(reasons));
    await ds.transaction((m) => a.enqueue(m, 'work', {}, { id: 'stolen' }));
    await a.start();
    await eventually(async () => (await row('stolen')).attempts === 1);

    const b = newQueue(60_000);
    const bRuns: Job[] = [];
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    b.register('work', async ({ job }) => {
      bRuns.push(job);
      await gate;
    });
    await b.start();
    // a's renewals may extend the lease again before b claims: expire it until b has the job
    await eventually(async () => {
      await expireLease('stolen', 1);
      return bRuns.length === 1;
    });
    await eventually(() => reasons.length === 1, { message: "a's signal never aborted" });
    expect(reasons[0]).toBeInstanceOf(LeaseLostError);
    expect(bRuns[0]!.attempts).toBe(2);
    expect(bRuns[0]!.lastError).toMatch(/^lease expired on attempt 1 of 5/);

    await a.stop(); // a's run has ended (its handler returned): it wrote nothing over b's claim
    const held = await row('stolen');
    expect(held.state).toBe('running');
    expect(held.attempts).toBe(2);
    expect(held.lockedBy).not.toBeNull();
    release();
    await eventually(async () => (await state('stolen')) === 'completed');
  });

  it('dead-letters a job whose lease expired with no attempts left, with the lease expiry as its error, tells its queue, and never runs it again', async () => {
    // the worker died on the job's last attempt (a job that kills its process)
    await ds.query(
      `INSERT INTO jobtest.jobs (id, queue, payload, state, attempts, max_attempts, locked_by, locked_until, last_error)
       VALUES ('doomed', 'work', '{}', 'running', 3, 3, 'dead-worker', now() - interval '1 second', 'Error: out of memory')`,
    );
    const q = newQueue();
    const runs: string[] = [];
    const told: string[] = [];
    q.register('work', async ({ job }) => void runs.push(job.id), {
      onDead: async (job) => void told.push(`${job.id}: ${job.lastError}`),
    });
    await q.start();
    await eventually(async () => (await state('doomed')) === 'failed');
    await eventually(() => told.length === 1, { message: "the queue's dead-letter hook was not told" });
    expect(told[0]).toMatch(/^doomed: lease expired on attempt 3 of 3/);
    const dead = await row('doomed');
    expect(dead.attempts).toBe(3);
    expect(dead.lockedBy).toBeNull();
    expect(dead.lastError).toBe(
      'lease expired on attempt 3 of 3: the worker died or stalled while running it; before that: Error: out of memory',
    );
    // a job enqueued later and run proves the queue has claimed since: the dead one was passed over
    await ds.transaction((m) => q.enqueue(m, 'work', {}, { id: 'marker' }));
    await eventually(async () => (await state('marker')) === 'completed');
    expect(runs).toEqual(['marker']);
    expect(await state('doomed')).toBe('failed');
    expect(await register.getSingleMetricAsString('herald_jobs_dead')).toMatch(
      /herald_jobs_dead\{service="jobtest",queue="work"\} 1/,
    );
  });

  it('counts every claim after a lease expiry: a job whose workers keep dying is dead-lettered after its last attempt, and that last run is aborted', async () => {
    const reasons: unknown[] = [];
    const runs: Job[] = [];
    const a = newQueue(600, 1);
    a.register('work', untilAborted(reasons, runs));
    await ds.transaction((m) => a.enqueue(m, 'work', {}, { id: 'crashy', maxAttempts: 2 }));
    await a.start();
    await eventually(() => runs.length === 1);
    const b = newQueue(600, 1);
    b.register('work', untilAborted(reasons, runs));
    await b.start();
    await eventually(async () => {
      await expireLease('crashy', 1);
      return runs.length === 2;
    });
    // the second (last) claim's worker stalls too: nobody may run the job a third time
    await eventually(async () => {
      await expireLease('crashy', 2);
      return (await state('crashy')) === 'failed';
    });
    await eventually(() => reasons.length === 2, { message: 'a run kept going after losing its lease' });
    expect(reasons.every((r) => r instanceof LeaseLostError)).toBe(true);
    expect(runs.map((j) => j.attempts)).toEqual([1, 2]);
    const dead = await row('crashy');
    expect(dead.attempts).toBe(2);
    expect(dead.lastError).toBe('lease expired on attempt 2 of 2: the worker died or stalled while running it');
    expect(runs).toHaveLength(2);
  });

  it('aborts a job whose lease renewals fail until the lease runs out', async () => {
    const own = await createServiceDataSource(
      { service: 'jobtest', entities: [Job], migrations: [] },
      db.url,
      2,
    ).initialize();
    const reasons: unknown[] = [];
    const q = newQueue(300, 1, own);
    q.register('work', untilAborted(reasons));
    await ds.transaction((m) => q.enqueue(m, 'work', {}, { id: 'cut-off' }));
    await q.start();
    await eventually(async () => (await state('cut-off')) === 'running');
    await own.destroy(); // the worker's database connections are gone: every renewal fails
    await eventually(() => reasons.length === 1);
    expect(reasons[0]).toBeInstanceOf(LeaseLostError);
    expect(String((reasons[0] as Error).message)).toMatch(/renewals failed until the lease ran out/);
  });

  it('lists dead-lettered jobs with their error and retries one from scratch (the operator command)', async () => {
    await ds.query(
      `INSERT INTO jobtest.jobs (id, queue, payload, state, attempts, max_attempts, last_error)
       VALUES ('dead-1', 'work', '{}', 'failed', 5, 5, 'Error: boom'), ('done-1', 'work', '{}', 'completed', 1, 5, NULL)`,
    );
    const lines: string[] = [];
    expect(await runJobsCommand('jobtest', ds, ['list'], (l) => lines.push(l))).toBe(0);
    expect(lines.map((l) => JSON.parse(l) as Record<string, unknown>)).toEqual([
      expect.objectContaining({
        service: 'jobtest',
        id: 'dead-1',
        queue: 'work',
        state: 'failed',
        attempts: 5,
        lastError: 'Error: boom',
      }),
    ]);
    lines.length = 0;
    expect(await runJobsCommand('jobtest', ds, ['retry', 'done-1'], (l) => lines.push(l))).toBe(1); // only failed jobs
    expect(await runJobsCommand('jobtest', ds, ['list', '--bogus', 'x'], (l) => lines.push(l))).toBe(2);

    const q = newQueue();
    const runs: Job[] = [];
    q.register('work', async ({ job }) => void runs.push(job));
    await q.start();
    expect(await runJobsCommand('jobtest', ds, ['retry', 'dead-1'], () => undefined)).toBe(0);
    await eventually(async () => (await state('dead-1')) === 'completed');
    expect(runs.map((j) => [j.id, j.attempts])).toEqual([['dead-1', 1]]);
  });
  it('records work that failed outside a run as a dead-lettered job (replacing one of its id), listed and retried by the operator command', async () => {
    const q = newQueue();
    const runs: Job[] = [];
    q.register('redo', async ({ job }) => void runs.push(job));
    await ds.transaction((m) =>
      q.enqueue(m, 'redo', { n: 0 }, { id: 'chain-1', runAt: new Date(Date.now() + 3_600_000) }),
    );
    await ds.transaction((m) =>
      q.deadLetter(m, 'redo', { n: 1 }, { id: 'chain-1', attempts: 8, lastError: 'HTTP 500' }),
    );
    await ds.transaction((m) =>
      q.deadLetter(m, 'redo', { n: 2 }, { id: 'chain-2', attempts: 3, lastError: 'timeout' }),
    );
    const lines: string[] = [];
    expect(await runJobsCommand('jobtest', ds, ['list', '--queue', 'redo'], (l) => lines.push(l))).toBe(0);
    expect(
      lines
        .map((l) => JSON.parse(l) as Record<string, unknown>)
        .sort((a, b) => String(a.id).localeCompare(String(b.id))),
    ).toEqual([
      expect.objectContaining({ id: 'chain-1', state: 'failed', attempts: 8, lastError: 'HTTP 500' }),
      expect.objectContaining({ id: 'chain-2', state: 'failed', attempts: 3, lastError: 'timeout' }),
    ]);
    await q.start();
    expect(await runJobsCommand('jobtest', ds, ['retry', 'chain-1'], () => undefined)).toBe(0);
    await eventually(async () => (await state('chain-1')) === 'completed');
    expect(runs.map((j) => [j.id, j.payload])).toEqual([['chain-1', { n: 1 }]]);
    expect(await state('chain-2')).toBe('failed');
  });
});

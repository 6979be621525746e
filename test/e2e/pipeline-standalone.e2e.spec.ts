import { accountWithProject, bearer, createTestDatabase, freePort, ServiceProcess, type TestDatabase } from '@herald/testing';
import { expectConverged, trackedTotal, trackMany } from './pipeline-load.js';

/**
 * The same scenario in standalone mode: one process, the in-process bus, the same outbox and inbox;
 * requests authenticate with a project's secret key through the in-process gateway.
 */
describe('event pipeline in standalone mode', () => {
  let db: TestDatabase;
  let herald: ServiceProcess;

  beforeAll(async () => {
    db = await createTestDatabase();
    herald = new ServiceProcess('standalone', await freePort(), { DATABASE_URL: db.url, RATE_LIMIT_PER_MINUTE: '100000' });
    await herald.start();
  }, 60_000);

  afterAll(async () => {
    await herald?.stop();
    await db?.drop();
  }, 60_000);

  it('loses no event and applies none twice when the process is killed mid-stream', async () => {
    const auth = bearer((await accountWithProject(herald.url)).secretKey);
    const total = 400;
    let killed = false;
    await trackMany(() => herald, auth, total, 8, async (done) => {
      if (!killed && done >= total / 2) {
        killed = true;
        await herald.kill();
        await herald.start();
      }
    });
    await expectConverged(herald, herald, auth, db.url, total);
  }, 120_000);

  it('finishes in-flight requests and exits 0 on SIGTERM', async () => {
    const auth = bearer((await accountWithProject(herald.url)).secretKey);
    const inFlight = Array.from({ length: 20 }, (_, i) =>
      fetch(`${herald.url}/v1/track`, {
        method: 'POST',
        headers: auth,
        body: JSON.stringify({ email: `g${i}@example.com`, event: 'graceful' }),
      }).then(
        (r) => r.status,
        () => 0, // refused or reset before the request reached a handler
      ),
    );
    await new Promise((r) => setTimeout(r, 5));
    const code = await herald.stop();
    const statuses = await Promise.all(inFlight);
    if (code !== 0) throw new Error(`exit ${code}:\n${herald.output}`);
    // every request that reached the server was answered; none was cut off half-way
    expect(statuses.filter((s) => s !== 200 && s !== 0 && s !== 503)).toEqual([]);
    await herald.start();
    const answered = statuses.filter((s) => s === 200).length;
    expect(await trackedTotal(herald, auth)).toBe(answered);
  }, 60_000);
});

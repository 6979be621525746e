import {
  accountWithProject,
  bearer,
  createTestDatabase,
  eventually,
  freePort,
  ServiceProcess,
  type TestDatabase,
} from '@herald/testing';
import http from 'node:http';
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
    herald = new ServiceProcess('standalone', await freePort(), {
      DATABASE_URL: db.url,
      RATE_LIMIT_PER_MINUTE: '100000',
      LOG_LEVEL: 'info', // its "shutting down" line tells the in-flight test that SIGTERM has been taken
    });
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
    await trackMany(
      () => herald,
      auth,
      total,
      8,
      async (done) => {
        if (!killed && done >= total / 2) {
          killed = true;
          await herald.kill();
          await herald.start();
        }
      },
    );
    await expectConverged(herald, herald, auth, db.url, total);
  }, 120_000);

  it('finishes the requests in flight when SIGTERM arrives and exits 0', async () => {
    const auth = bearer((await accountWithProject(herald.url)).secretKey);
    // Each request sends its head with `Expect: 100-continue` and holds its body back: the server's
    // 100 proves it has taken the request in. SIGTERM comes next, and the bodies only once the
    // process logs that it is shutting down: every one of these requests is in flight at the signal.
    const inFlight = Array.from({ length: 10 }, (_, i) =>
      heldRequest(herald.url, auth, { email: `g${i}@example.com`, event: 'graceful' }),
    );
    await Promise.all(inFlight.map((r) => r.accepted));
    const stopping = herald.stop();
    await eventually(() => herald.output.includes('"msg":"shutting down"'), {
      timeoutMs: 10_000,
      message: 'the process never logged its shutdown',
    });
    for (const r of inFlight) r.send();
    const statuses = await Promise.all(inFlight.map((r) => r.status));
    const code = await stopping;
    if (code !== 0) throw new Error(`exit ${code}:\n${herald.output}`);
    expect(statuses).toEqual(inFlight.map(() => 200));
    await herald.start();
    expect(await trackedTotal(herald, auth)).toBe(inFlight.length);
  }, 60_000);
});

/** A POST whose head goes now (`Expect: 100-continue`) and whose body goes on `send()`. */
function heldRequest(base: string, headers: Record<string, string>, body: unknown) {
  const payload = Buffer.from(JSON.stringify(body));
  const req = http.request(`${base}/v1/track`, {
    method: 'POST',
    agent: false,
    headers: { ...headers, 'content-length': String(payload.length), expect: '100-continue' },
  });
  const accepted = new Promise<void>((resolve, reject) => {
    req.once('continue', () => resolve());
    req.once('error', reject);
  });
  const status = new Promise<number>((resolve, reject) => {
    req.once('response', (res) => {
      res.resume();
      res.once('end', () => resolve(res.statusCode ?? 0));
    });
    req.once('error', reject);
  });
  req.flushHeaders();
  return { accepted, status, send: () => req.end(payload) };
}

import {
  createTestDatabase,
  distributedEnv,
  eventually,
  freePort,
  migrateApps,
  principalHeaders,
  ServiceProcess,
  startKafka,
  testReport,
  type KafkaBroker,
  type TestDatabase,
} from '@herald/testing';

interface ReadyBody {
  status: 'ok' | 'error';
  checks: Record<string, { status: 'up' | 'down'; error?: string }>;
}

/** Milliseconds from `since` until `probe` holds (polled every 50 ms), or a failure after `deadlineMs`. */
async function msUntil(
  since: number,
  probe: () => Promise<boolean>,
  deadlineMs: number,
  what: string,
): Promise<number> {
  for (;;) {
    if (await probe().catch(() => false)) return Date.now() - since;
    if (Date.now() - since > deadlineMs) throw new Error(`${what} not within ${deadlineMs} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

const status = async (url: string, headers: Record<string, string> = {}) => (await fetch(url, { headers })).status;

/**
 * The lifecycle of a service process in distributed mode (contacts over the Kafka mock broker, with
 * the default consumer-group settings): it listens at once, serves its routes while its consumer
 * joins, is ready only when the database answers, its migrations are applied and its consumer has
 * joined, and comes back quickly after a SIGKILL or a SIGTERM.
 */
describe('service lifecycle (distributed)', () => {
  let db: TestDatabase;
  let kafka: KafkaBroker;
  let env: Record<string, string>;
  const processes: ServiceProcess[] = [];

  beforeAll(async () => {
    [db, kafka] = await Promise.all([createTestDatabase(), startKafka()]);
    // The defaults under test: no KAFKA_SESSION_TIMEOUT_MS override.
    const { KAFKA_SESSION_TIMEOUT_MS: _default, ...rest } = distributedEnv(db.url, kafka.brokers);
    env = rest;
  }, 60_000);

  afterAll(async () => {
    await Promise.all(processes.map((p) => p.stop()));
    await kafka?.stop();
    await db?.drop();
  }, 60_000);

  it('is not ready before its migrations (503 naming them), and ready once they are applied', async () => {
    const contacts = new ServiceProcess('contacts', await freePort(), env);
    processes.push(contacts);
    await contacts.start({ waitReady: false });
    await eventually(async () => (await status(`${contacts.url}/health/live`)) === 200, {
      timeoutMs: 30_000,
      message: '/health/live never answered',
    });
    const notReady = await eventually(
      async () => {
        const res = await fetch(`${contacts.url}/health/ready`);
        const body = (await res.json()) as ReadyBody;
        return res.status === 503 && body.checks['migrations:contacts'] ? body : undefined;
      },
      { timeoutMs: 30_000, message: '/health/ready never named the migrations' },
    );
    expect(notReady.status).toBe('error');
    expect(notReady.checks['migrations:contacts']).toMatchObject({ status: 'down' });
    expect(notReady.checks['migrations:contacts']!.error).toMatch(/pending migration.*InitialSchema/);
    expect(notReady.checks['database:contacts']).toMatchObject({ status: 'up' });

    await migrateApps(['contacts'], env);
    const ready = await eventually(
      async () => {
        const res = await fetch(`${contacts.url}/health/ready`);
        return res.status === 200 ? ((await res.json()) as ReadyBody) : undefined;
      },
      { timeoutMs: 30_000, message: '/health/ready never turned 200 after migrating' },
    );
    expect(ready.checks).toMatchObject({
      'migrations:contacts': { status: 'up' },
      consumers: { status: 'up' },
      'database:contacts': { status: 'up' },
    });
    expect(await status(`${contacts.url}/contacts`, principalHeaders('prj_lifecycle'))).toBe(200);
    // No start-up warnings (FSTDEP022, TimeoutNegativeWarning, ...): Node prints them as "(node:<pid>) …Warning".
    expect(contacts.output).not.toMatch(/\(node:\d+\) \[?\w*\]? ?\w*Warning/);
    await contacts.stop();
  }, 120_000);

  // No clock decides this test: after a SIGKILL the dead member holds the group for the session
  // timeout (15 s here), so readiness comes back only then; the routes must come
  // back first, while the consumer still waits. Before the fix the port stayed closed until the
  // consumer had joined, so the routes could not answer before readiness. The times are printed.
  it('serves its routes again after a SIGKILL before its consumer is back in the group, and after a SIGTERM restart', async () => {
    await migrateApps(['contacts'], env); // (done already when the test above ran)
    const contacts = new ServiceProcess('contacts', await freePort(), { ...env, KAFKA_SESSION_TIMEOUT_MS: '15000' });
    processes.push(contacts);
    const route = () => fetch(`${contacts.url}/contacts`, { headers: principalHeaders('prj_lifecycle') });
    const times: Record<string, Record<string, number>> = {};
    const measure = async (how: string) => {
      const spawned = Date.now();
      await contacts.start({ waitReady: false });
      const live = await msUntil(
        spawned,
        async () => (await status(`${contacts.url}/health/live`)) === 200,
        120_000,
        `${how}: /health/live`,
      );
      const routes = await msUntil(
        spawned,
        async () => (await route()).status === 200,
        120_000,
        `${how}: GET /contacts`,
      );
      const ready = await msUntil(
        spawned,
        async () => (await status(`${contacts.url}/health/ready`)) === 200,
        180_000,
        `${how}: /health/ready`,
      );
      times[how] = { liveMs: live, routesMs: routes, readyMs: ready };
    };

    await measure('cold start');
    await contacts.kill();
    await measure('SIGKILL');
    expect(await contacts.stop()).toBe(0);
    await measure('SIGTERM');
    testReport(`service-lifecycle: times from spawn, contacts on the mock broker ${JSON.stringify(times)}`);
    expect(times.SIGKILL!.routesMs).toBeLessThan(times.SIGKILL!.readyMs);
  }, 600_000); // three starts, each given up to 180 s on a busy machine
});

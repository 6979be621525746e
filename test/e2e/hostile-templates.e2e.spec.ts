import {
  accountWithProject,
  createTestDatabase,
  freePort,
  ServiceProcess,
  type TestDatabase,
  type TestProject,
} from '@herald/testing';
import pg from 'pg';

/**
 * Issue 19, finding 4: 10,000 nested `{% if %}` (240 KB, under the 512 KiB template limit) held the
 * process for seconds on `POST /templates` (liquidjs' parser recurses once per level). They are
 * refused before parsing, in linear time: a 422 naming the nesting limit, /health/live answering meanwhile.
 */
describe('hostile templates on POST /templates (standalone)', () => {
  let db: TestDatabase;
  let herald: ServiceProcess;
  let account: TestProject;

  beforeAll(async () => {
    db = await createTestDatabase();
    herald = new ServiceProcess('standalone', await freePort(), {
      DATABASE_URL: db.url,
      RATE_LIMIT_PER_MINUTE: '1000000',
    });
    await herald.start();
    account = await accountWithProject(herald.url);
  }, 120_000);

  afterAll(async () => {
    await herald?.stop();
    await db?.drop();
  }, 60_000);

  const post = async (body: string) => {
    const started = performance.now();
    const res = await fetch(`${herald.url}/templates`, {
      method: 'POST',
      headers: { cookie: account.cookie, 'x-project-id': account.projectId, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'hostile', subject: 'Hi', body }),
    });
    return {
      status: res.status,
      body: (await res.json()) as { error: { errors?: { field: string; code: string; message: string }[] } },
      ms: performance.now() - started,
    };
  };

  it.each([
    ['10,000 nested {% if %}', `${'{% if a %}'.repeat(10_000)}x${'{% endif %}'.repeat(10_000)}`],
    [
      '10,000 nested if lines in one {% liquid %} tag',
      `{% liquid\n${'if a\n'.repeat(10_000)}echo "x"\n${'endif\n'.repeat(10_000)}%}`,
    ],
  ])(
    '%s are refused with a 422 naming the nesting limit, quickly, /health/live answering meanwhile',
    async (_name, source) => {
      // a same-run reference: a small invalid template (the machine may be loaded)
      const reference = await post('{% if a %}');
      expect(reference.status).toBe(422);
      let slowestLive = 0;
      let stop = false;
      const live = (async () => {
        while (!stop) {
          const started = performance.now();
          await (await fetch(`${herald.url}/health/live`)).text();
          slowestLive = Math.max(slowestLive, performance.now() - started);
          await new Promise((r) => setTimeout(r, 10));
        }
      })();
      const res = await post(source);
      stop = true;
      await live;
      expect(res.status).toBe(422);
      expect(res.body.error.errors).toEqual([
        expect.objectContaining({
          field: 'body',
          code: 'invalid_template',
          message: expect.stringContaining('nested deeper than the limit of 50 levels'),
        }),
      ]);
      const bound = Math.max(1000, 10 * reference.ms); // the base took 50 s and more
      expect(res.ms).toBeLessThan(bound);
      expect(slowestLive).toBeLessThan(bound);
      const rows = new pg.Client({ connectionString: db.url });
      await rows.connect();
      try {
        expect((await rows.query('SELECT count(*)::int AS n FROM sending.templates')).rows[0].n).toBe(0);
      } finally {
        await rows.end();
      }
    },
    120_000,
  );
});

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
 * refused before parsing, in linear time: a 422 naming the nesting limit. That the refusal comes from the linear
 * pre-pass, not from liquidjs' parser, is proven without a clock in libs/templating's hostile-templates.spec.ts
 * (the answer names the 51st tag's column); this test proves the HTTP answer and that nothing is stored.
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
    const res = await fetch(`${herald.url}/templates`, {
      method: 'POST',
      headers: { cookie: account.cookie, 'x-project-id': account.projectId, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'hostile', subject: 'Hi', body }),
    });
    return {
      status: res.status,
      body: (await res.json()) as { error: { errors?: { field: string; code: string; message: string }[] } },
    };
  };

  it.each([
    ['10,000 nested {% if %}', `${'{% if a %}'.repeat(10_000)}x${'{% endif %}'.repeat(10_000)}`],
    [
      '10,000 nested if lines in one {% liquid %} tag',
      `{% liquid\n${'if a\n'.repeat(10_000)}echo "x"\n${'endif\n'.repeat(10_000)}%}`,
    ],
  ])(
    '%s are refused with a 422 naming the nesting limit, and no template is stored',
    async (_name, source) => {
      const res = await post(source);
      expect(res.status).toBe(422);
      expect(res.body.error.errors).toEqual([
        expect.objectContaining({
          field: 'body',
          code: 'invalid_template',
          message: expect.stringContaining('nested deeper than the limit of 50 levels'),
        }),
      ]);
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

import { allServices } from '@herald/service-catalog';
import {
  accountWithProject,
  createTestDatabase,
  eventually,
  freePort,
  hostileJson,
  hostileQuery,
  listHttpRoutes,
  pathologicalBodies,
  SeededRandom,
  ServiceProcess,
  type DeclaredRoute,
  type TestDatabase,
  type TestProject,
} from '@herald/testing';
import http from 'node:http';
import pg from 'pg';

/**
 * Hostile input against every public and dashboard route of one standalone Herald, the routes read
 * from the services' own controllers (a new route is covered without editing this file).
 *
 * Timing on a shared 2-core machine: absolute milliseconds measure the machine as much as Herald, so
 * each bound is relative to a reference measured in the same run — a benign body of the same size
 * (900 KB of one string) posted to POST /contacts, which parses it, authenticates and validates it:
 * ten times that, and never below one second. On the base commit a pathological body cost seconds
 * (50,000 keys: 3.4 to 14 s, growing with the key count), so the bound still separates the two by an
 * order of magnitude, while a garbage collection or a busy neighbour on this 2-core machine (seen:
 * 300-550 ms under CI load) cannot fail it. The figures (slowest answer, longest event-loop block)
 * are printed for the closing note; the issue's 200 ms is a speed target, which belongs in a bench.
 * A request slower than the bound is measured once more and fails only when it is slow again.
 * `/health/live` is polled while the bodies are sent: its slowest answer is the longest the event
 * loop was blocked (a slow poll caused by the machine is followed by fast ones).
 */
describe('hostile input on every route (standalone)', () => {
  let db: TestDatabase;
  let herald: ServiceProcess;
  let sql: pg.Client;
  let account: TestProject;
  let bound = 0;

  /** Public and dashboard routes: not the internal API (principal JWT only), health or metrics. */
  const routes: DeclaredRoute[] = listHttpRoutes(allServices.map((s) => s.module)).filter(
    (r) => !/^\/(internal|health|metrics)(\/|$)/.test(r.path) && !r.path.startsWith('/auth/logout'),
  );
  const bodyRoutes = routes.filter((r) => ['POST', 'PUT', 'PATCH'].includes(r.method));
  const queryRoutes = routes.filter((r) => r.method === 'GET');
  const concrete = (path: string) => path.replace(/:[A-Za-z]+/g, 'prb_x').replace('*', 'x');

  /**
   * One request over node:http, which reads an answer the server gives before the upload ended (a
   * 413 for a body over the limit, after which the server closes the connection: fetch would only
   * report the broken pipe).
   */
  const send = (method: string, path: string, body?: string) =>
    new Promise<{ status: number; ms: number; text: string }>((resolve) => {
      const started = performance.now();
      let settled = false;
      const finish = (status: number, text: string) => {
        if (settled) return;
        settled = true;
        resolve({ status, ms: performance.now() - started, text });
      };
      const req = http.request(
        `${herald.url}${path}`,
        {
          method,
          headers: {
            cookie: account.cookie,
            'x-project-id': account.projectId,
            ...(body === undefined
              ? {}
              : { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) }),
          },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => finish(res.statusCode ?? 0, Buffer.concat(chunks).toString()));
          res.on('error', () => finish(res.statusCode ?? 0, Buffer.concat(chunks).toString()));
        },
      );
      req.on('error', (err) => setTimeout(() => finish(0, `connection failed: ${err.message}`), 50));
      req.end(body);
    });

  /** Rows the routes write synchronously (a refused request must leave them as they were). */
  const rows = async (): Promise<number> => {
    const tables = [
      'contacts.contacts',
      'contacts.tracked_events',
      'sending.emails',
      'sending.templates',
      'domains.domains',
      'gateway.users',
      'gateway.projects',
    ];
    const res = await sql.query<{ n: string }>(
      `SELECT (${tables.map((t) => `(SELECT count(*) FROM ${t})`).join(' + ')})::text AS n`,
    );
    return Number(res.rows[0]!.n);
  };

  /**
   * The longest the event loop was blocked since the previous call, in ms (prom-client's
   * monitorEventLoopDelay maximum, reset at each scrape): what /health/live would have waited.
   */
  const loopBlockMs = async (): Promise<number> => {
    const text = await (await fetch(`${herald.url}/metrics`)).text();
    const max = /^herald_nodejs_eventloop_lag_max_seconds (\S+)$/m.exec(text);
    if (!max) throw new Error('no event-loop lag in /metrics');
    return Number(max[1]) * 1000;
  };

  /** One request with the event loop's longest block during it; measured once more when either is over the bound. */
  const measured = async (method: string, path: string, body?: string) => {
    let result = { status: 0, ms: 0, text: '', blockMs: 0 };
    for (let attempt = 0; attempt < 2; attempt++) {
      await loopBlockMs();
      const res = await send(method, path, body);
      result = { ...res, blockMs: await loopBlockMs() };
      if (res.ms <= bound && result.blockMs <= bound) break;
    }
    return result;
  };

  /** Polls /health/live one request after another until stopped; resolves to the slowest answer (ms). */
  const watchLiveness = () => {
    let stop = false;
    const done = (async () => {
      let slowest = 0;
      while (!stop) {
        const started = performance.now();
        const res = await fetch(`${herald.url}/health/live`);
        await res.text();
        slowest = Math.max(slowest, performance.now() - started);
        await new Promise((r) => setTimeout(r, 10));
      }
      return slowest;
    })();
    return async () => {
      stop = true;
      return done;
    };
  };

  beforeAll(async () => {
    db = await createTestDatabase();
    herald = new ServiceProcess('standalone', await freePort(), {
      DATABASE_URL: db.url,
      RATE_LIMIT_PER_MINUTE: '1000000',
      // the generic webhook enabled (unsigned bodies are then 401, not the 503 of a disabled route)
      WEBHOOK_SIGNING_SECRET: 'hostile-input-test-secret-0123456789',
    });
    await herald.start();
    sql = new pg.Client({ connectionString: db.url });
    await sql.connect();
    account = await accountWithProject(herald.url);
    const reference: number[] = [];
    for (let i = 0; i < 5; i++) {
      const res = await send('POST', '/contacts', JSON.stringify({ pad: 'x'.repeat(900_000) }));
      expect(res.status).toBe(422);
      reference.push(res.ms);
    }
    const median = reference.sort((a, b) => a - b)[2]!;
    bound = Math.max(1000, 10 * median);
  }, 120_000);

  afterAll(async () => {
    await sql?.end();
    await herald?.stop();
    await db?.drop();
  }, 60_000);

  it('lists the routes from the services themselves', () => {
    expect(bodyRoutes.map((r) => `${r.method} ${r.path}`)).toEqual(
      expect.arrayContaining([
        'POST /auth/login',
        'POST /auth/signup',
        'POST /contacts',
        'POST /v1/track',
        'POST /v1/send',
      ]),
    );
  });

  it('answers each pathological shape on every route with a 4xx within the bound, /health/live staying responsive, nothing written', async () => {
    const before = await rows();
    const stopWatching = watchLiveness();
    const problems: string[] = [];
    let slowest = 0;
    let slowestBlock = 0;
    for (const { shape, body } of pathologicalBodies())
      for (const route of bodyRoutes) {
        const res = await measured(route.method, concrete(route.path), body);
        slowest = Math.max(slowest, res.ms);
        slowestBlock = Math.max(slowestBlock, res.blockMs);
        if (res.status < 400 || res.status >= 500 || res.ms > bound || res.blockMs > bound)
          problems.push(
            `${route.method} ${route.path} with ${shape}: ${res.status} in ${Math.round(res.ms)} ms, event loop blocked ${Math.round(res.blockMs)} ms`,
          );
      }
    const liveSlowest = await stopWatching();
    process.stdout.write(
      `pathological bodies: ${pathologicalBodies().length * bodyRoutes.length} requests, slowest ${Math.round(slowest)} ms, ` +
        `event loop blocked at most ${Math.round(slowestBlock)} ms, /health/live slowest ${Math.round(liveSlowest)} ms, ` +
        `bound ${Math.round(bound)} ms\n`,
    );
    expect(problems).toEqual([]);
    expect(await rows()).toBe(before);
  }, 180_000);

  it('fuzz: seeded hostile bodies and queries get no 5xx, no slow answer, and write nothing when refused', async () => {
    const rng = new SeededRandom(19);
    const problems: string[] = [];
    let requests = 0;
    let slowest = { ms: 0, what: '' };
    const check = async (method: string, path: string, body?: string) => {
      const before = await rows();
      const res = await measured(method, path, body);
      requests++;
      if (res.ms > slowest.ms) slowest = { ms: res.ms, what: `${method} ${path}` };
      const what = `${method} ${path} ${body === undefined ? '' : body.slice(0, 120)}`;
      if (res.status >= 500) problems.push(`${what}: ${res.status} ${res.text.slice(0, 200)}`);
      if (res.ms > bound || res.blockMs > bound)
        problems.push(`${what}: ${Math.round(res.ms)} ms, event loop blocked ${Math.round(res.blockMs)} ms`);
      if (res.status >= 400 && res.status < 500 && (await rows()) !== before)
        problems.push(`${what}: ${res.status} wrote rows`);
    };
    for (let round = 0; round < 3; round++) {
      for (const route of bodyRoutes) await check(route.method, concrete(route.path), hostileJson(rng));
      for (const route of queryRoutes) await check('GET', `${concrete(route.path)}?${hostileQuery(rng)}`);
    }
    process.stdout.write(
      `fuzz: ${requests} requests (${bodyRoutes.length} body routes, ${queryRoutes.length} GET routes), ` +
        `slowest ${Math.round(slowest.ms)} ms (${slowest.what}), bound ${Math.round(bound)} ms\n`,
    );
    expect(problems).toEqual([]);
  }, 180_000);

  describe('text PostgreSQL cannot hold, and malformed uploads', () => {
    const api = (path: string, init: RequestInit = {}) =>
      fetch(`${herald.url}${path}`, {
        ...init,
        headers: { authorization: `Bearer ${account.secretKey}`, ...(init.headers as Record<string, string>) },
      });
    const json = (body: unknown): RequestInit => ({
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });

    it('refuses a /v1/send with a NUL in the subject with 422 and creates no contact', async () => {
      const res = await api(
        '/v1/send',
        json({ to: 'nul-recipient@example.com', subject: 'a\u0000b', body: '<p>x</p>' }),
      );
      expect(res.status).toBe(422);
      expect(((await res.json()) as { error: { errors: { field: string }[] } }).error.errors[0]!.field).toBe('subject');
      const found = await api('/contacts/lookup', json({ emails: ['nul-recipient@example.com'] }));
      expect(((await found.json()) as { found: unknown[] }).found).toEqual([]);
    });

    it('imports the valid rows of a CSV and reports the row holding a NUL', async () => {
      const form = new FormData();
      form.append(
        'file',
        new Blob(['email,plan\nok1@example.com,gold\nbad@example.com,a\u0000b\nok2@example.com,free\n'], {
          type: 'text/csv',
        }),
        'c.csv',
      );
      const started = await api('/contacts/import', { method: 'POST', body: form });
      expect(started.status).toBe(202);
      const { jobId } = (await started.json()) as { jobId: string };
      const job = await eventually(async () => {
        const body = (await (await api(`/contacts/import/${jobId}`)).json()) as {
          status: string;
          imported: number;
          errors: { row: number; reason: string }[];
        };
        return body.status !== 'queued' ? body : undefined;
      });
      expect(job).toMatchObject({ status: 'completed', imported: 2, errors: [{ row: 3, reason: 'invalid_text' }] });
    });

    it.each(['/contacts/import', '/uploads/image'])(
      'answers a multipart body without a boundary on %s with 400 in the error body',
      async (path) => {
        const res = await api(path, {
          method: 'POST',
          headers: { 'content-type': 'multipart/form-data' },
          body: 'garbage',
        });
        expect(res.status).toBe(400);
        expect(((await res.json()) as { error: { code: string } }).error.code).toBe('MALFORMED_MULTIPART');
      },
    );
  });
});

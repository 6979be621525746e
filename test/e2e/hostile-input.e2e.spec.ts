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
  testReport,
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
 * What fails these tests is what cannot be caused by the machine's load: a 5xx, a 2xx to a hostile
 * body, a row written by a refused request. Time is only reported: the slowest answer, the longest
 * event-loop block (prom-client's maximum between two scrapes) and /health/live's slowest answer are
 * printed beside a same-run reference (a benign 900 KB body posted to POST /contacts) for the closing
 * note. The speed target (a pathological body answered within 200 ms, the loop never blocked longer)
 * is measured by bench/hostile-input.bench.ts, beside its raw limit. That a pathological body is
 * refused before it is parsed is proven without a clock by libs/core's json-text-scan.spec.ts.
 */
describe('hostile input on every route (standalone)', () => {
  let db: TestDatabase;
  let herald: ServiceProcess;
  let sql: pg.Client;
  let account: TestProject;
  let referenceMs = 0;

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
    const text = await (await fetch(herald.metricsUrl)).text();
    const max = /^herald_nodejs_eventloop_lag_max_seconds (\S+)$/m.exec(text);
    if (!max) throw new Error('no event-loop lag in /metrics');
    return Number(max[1]) * 1000;
  };

  /**
   * One request with the event loop's longest block during it (reported, never asserted). A body over
   * the route's limit is answered 413 from its content-length and the connection closed while the
   * client still writes: the client can then see the broken pipe before the answer. That race is the
   * transport's, so a request whose answer was lost is sent again (at most five times).
   */
  const measured = async (method: string, path: string, body?: string) => {
    let res = { status: 0, ms: 0, text: '' };
    let blockMs = 0;
    for (let attempt = 0; attempt < 5 && res.status === 0; attempt++) {
      await loopBlockMs();
      res = await send(method, path, body);
      blockMs = await loopBlockMs();
    }
    return { ...res, blockMs };
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
    referenceMs = median;
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

  it('answers each pathological shape on every route with a 4xx and writes nothing (times reported)', async () => {
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
        if (res.status < 400 || res.status >= 500)
          problems.push(
            `${route.method} ${route.path} with ${shape}: ${res.status} in ${Math.round(res.ms)} ms, event loop blocked ${Math.round(res.blockMs)} ms`,
          );
      }
    const liveSlowest = await stopWatching();
    testReport(
      `pathological bodies: ${pathologicalBodies().length * bodyRoutes.length} requests, slowest ${Math.round(slowest)} ms, ` +
        `event loop blocked at most ${Math.round(slowestBlock)} ms, /health/live slowest ${Math.round(liveSlowest)} ms, ` +
        `reference (benign 900 KB body) ${Math.round(referenceMs)} ms`,
    );
    expect(problems).toEqual([]);
    expect(await rows()).toBe(before);
  }, 180_000);

  it('fuzz: seeded hostile bodies and queries get no 5xx and write nothing when refused (times reported)', async () => {
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
      if (res.status >= 400 && res.status < 500 && (await rows()) !== before)
        problems.push(`${what}: ${res.status} wrote rows`);
    };
    for (let round = 0; round < 3; round++) {
      for (const route of bodyRoutes) await check(route.method, concrete(route.path), hostileJson(rng));
      for (const route of queryRoutes) await check('GET', `${concrete(route.path)}?${hostileQuery(rng)}`);
    }
    testReport(
      `fuzz: ${requests} requests (${bodyRoutes.length} body routes, ${queryRoutes.length} GET routes), ` +
        `slowest ${Math.round(slowest.ms)} ms (${slowest.what}), reference ${Math.round(referenceMs)} ms`,
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

  describe('authentication before the body is read', () => {
    /**
     * Starts a /v1/send announcing a 30 MB body, writes its first 64 KB and then waits: the answer
     * either comes while the upload is unfinished (the server did not wait to read and parse the body)
     * or not at all (the request is then abandoned after 10 s and the test fails).
     */
    const unfinishedSend = (headers: Record<string, string>) =>
      new Promise<{ status: number; text: string } | 'no answer before the body'>((resolve) => {
        const req = http.request(`${herald.url}/v1/send`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'content-length': String(30 * 1024 * 1024), ...headers },
        });
        const abandon = setTimeout(() => {
          req.destroy();
          resolve('no answer before the body');
        }, 10_000);
        req.on('response', (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => {
            clearTimeout(abandon);
            req.destroy();
            resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString() });
          });
        });
        req.on('error', () => undefined);
        req.write(`{"to":"a@example.com","subject":"x","body":"${'a'.repeat(64 * 1024)}`);
      });

    it.each([
      ['no credentials', {}, 'UNAUTHORIZED'],
      ['a key that does not exist', { authorization: `Bearer sk_${'0'.repeat(48)}` }, 'INVALID_API_KEY'],
      ['a forged session cookie', { cookie: 'herald_session=forged', 'x-project-id': 'prj_x' }, 'UNAUTHORIZED'],
    ])('/v1/send with %s is refused with 401 before its body is read', async (_name, headers, code) => {
      const res = await unfinishedSend(headers as Record<string, string>);
      expect(res).not.toBe('no answer before the body');
      const { status, text } = res as { status: number; text: string };
      expect(status).toBe(401);
      expect((JSON.parse(text) as { error: { code: string } }).error.code).toBe(code);
    });

    it('/v1/send with a valid key and a body over what the route accepts (attachments + content, 18 MB) is refused with 413 before it is read', async () => {
      const res = await unfinishedSend({ authorization: `Bearer ${account.secretKey}` });
      expect(res).not.toBe('no answer before the body');
      expect((res as { status: number }).status).toBe(413);
    });
  });
});

import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { collect, Herald, HeraldError, retryAfterMs, type HeraldConnectionOptions } from './index.js';

/** What the loopback server received. */
interface Received {
  method: string;
  url: URL;
  headers: IncomingMessage['headers'];
  body: unknown;
  at: number;
}
type Reply = (req: Received, res: ServerResponse) => void;

const json = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...headers });
  res.end(JSON.stringify(body));
};
const errorBody = (status: number, code: string, extra: Record<string, unknown> = {}) => ({
  success: false,
  message: `${code} happened`,
  error: { code, message: `${code} happened`, statusCode: status, requestId: 'req-from-body', ...extra },
  timestamp: new Date().toISOString(),
});
const sent = { success: true, data: { emails: [], timestamp: '2026-11-29T00:00:00.000Z' } };

describe('@herald/sdk against a loopback HTTP server', () => {
  let server: Server;
  let baseUrl: string;
  let replies: Reply[];
  let received: Received[];

  beforeAll(async () => {
    server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        const r: Received = {
          method: req.method!,
          url: new URL(req.url!, 'http://x'),
          headers: req.headers,
          body: !text
            ? undefined
            : req.headers['content-type']?.includes('json')
              ? (JSON.parse(text) as unknown)
              : text,
          at: Date.now(),
        };
        received.push(r);
        const reply = replies.shift();
        if (reply) reply(r, res);
        else json(res, 500, errorBody(500, 'NO_REPLY_SCRIPTED'));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
  beforeEach(() => {
    replies = [];
    received = [];
  });

  const herald = (options: Partial<HeraldConnectionOptions> = {}) =>
    new Herald({ apiKey: 'sk_test', baseUrl, retryBaseDelayMs: 10, ...options });

  it('sends the secret key as a bearer token and the body as JSON, and returns the answer', async () => {
    replies.push((_, res) => json(res, 200, sent));
    const answer = await herald().emails.send({ to: 'ada@example.com', subject: 'Hi', body: 'Hello' });
    expect(answer).toEqual(sent);
    expect(received[0]).toMatchObject({
      method: 'POST',
      body: { to: 'ada@example.com', subject: 'Hi', body: 'Hello' },
      headers: { authorization: 'Bearer sk_test', 'content-type': 'application/json' },
    });
    expect(received[0]!.url.pathname).toBe('/v1/send');
  });

  it('in session mode sends no Authorization header, names the project with X-Project-Id and sends the cookie (credentials same-origin)', async () => {
    const inits: RequestInit[] = [];
    const recording: typeof fetch = (input, init) => {
      inits.push(init!);
      return fetch(input, init);
    };
    replies.push((_, res) => json(res, 200, { data: [], cursor: null }));
    const client = new Herald({ session: { projectId: 'proj_1' }, baseUrl, fetch: recording });
    await client.contacts.list();
    expect(received[0]!.headers.authorization).toBeUndefined();
    expect(received[0]!.headers['x-project-id']).toBe('proj_1');
    expect(inits[0]!.credentials).toBe('same-origin');
  });

  it('in session mode without a project sends neither Authorization nor X-Project-Id; a key and a session exclude each other', async () => {
    replies.push((_, res) => json(res, 200, { id: 'u1' }));
    await new Herald({ session: {}, baseUrl }).request('get', '/users/@me');
    expect(received[0]!.headers.authorization).toBeUndefined();
    expect(received[0]!.headers['x-project-id']).toBeUndefined();
    // @ts-expect-error: the types refuse both, and so does the constructor
    expect(() => new Herald({ apiKey: 'sk_test', session: {}, baseUrl })).toThrow(/exclude/);
    // @ts-expect-error: neither
    expect(() => new Herald({ baseUrl })).toThrow(/apiKey/);
  });

  it('uploads a CSV import as multipart/form-data with its file part, and follows the job by its id', async () => {
    replies.push((_, res) => json(res, 202, { jobId: 'imp_1', status: 'queued' }));
    replies.push((_, res) => json(res, 200, { jobId: 'imp_1', status: 'completed' }));
    const client = herald();
    const started = await client.contacts.import(new Blob(['email\nada@example.com\n'], { type: 'text/csv' }), {
      verify: true,
      filename: 'list.csv',
    });
    expect(started).toEqual({ jobId: 'imp_1', status: 'queued' });
    await client.contacts.importStatus('imp_1');
    expect(received[0]!.headers['content-type']).toMatch(/^multipart\/form-data; boundary=/);
    expect(received[0]!.url.pathname + received[0]!.url.search).toBe('/contacts/import?verify=true');
    expect(received[0]!.body).toContain('filename="list.csv"');
    expect(received[0]!.body).toContain('ada@example.com');
    expect(received[1]!.url.pathname).toBe('/contacts/import/imp_1');
  });

  it('throws a HeraldError with the status, code, requestId and field errors of the error body', async () => {
    const fields = [{ field: 'email', message: 'email must be an email', code: 'invalid_string' }];
    replies.push((_, res) =>
      json(res, 422, errorBody(422, 'VALIDATION_ERROR', { errors: fields, suggestion: 'Fix it.' })),
    );
    const error = await herald()
      .contacts.create({ email: 'nope' })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HeraldError);
    expect(error).toMatchObject({
      name: 'HeraldError',
      status: 422,
      code: 'VALIDATION_ERROR',
      message: 'VALIDATION_ERROR happened',
      requestId: 'req-from-body',
      errors: fields,
      suggestion: 'Fix it.',
    });
  });

  it('takes the requestId from X-Request-Id when the answer is not an error body', async () => {
    replies.push((_, res) => {
      res.writeHead(502, { 'content-type': 'text/plain', 'x-request-id': 'req-from-header' });
      res.end('Bad gateway');
    });
    await expect(herald().contacts.get('cnt_1')).rejects.toMatchObject({
      status: 502,
      code: 'HTTP_502',
      requestId: 'req-from-header',
      body: 'Bad gateway',
    });
  });

  it('retries a 429 after the Retry-After it names, with the same Idempotency-Key, so a send is applied once', async () => {
    replies.push((_, res) => json(res, 429, errorBody(429, 'RATE_LIMITED'), { 'retry-after': '1' }));
    replies.push((_, res) => json(res, 200, sent));
    await expect(herald().emails.send({ to: 'ada@example.com', subject: 'Hi', body: 'x' })).resolves.toEqual(sent);
    expect(received).toHaveLength(2);
    expect(received[1]!.at - received[0]!.at).toBeGreaterThanOrEqual(950);
    const keys = received.map((r) => r.headers['idempotency-key']);
    expect(keys[0]).toMatch(/^[0-9a-f-]{36}$/);
    expect(keys[1]).toBe(keys[0]);
  });

  it("keeps the caller's Idempotency-Key and batch validation mode", async () => {
    replies.push((_, res) => json(res, 200, { success: true, data: { items: [], timestamp: 'now' } }));
    await herald().emails.sendBatch([{ to: 'a@example.com', subject: 's', body: 'b' }], {
      idempotencyKey: 'order-42',
      validation: 'permissive',
    });
    expect(received[0]!.url.pathname).toBe('/v1/send/batch');
    expect(received[0]!.headers).toMatchObject({ 'idempotency-key': 'order-42', 'x-batch-validation': 'permissive' });
  });

  it('makes no Idempotency-Key of its own when retries are off (nothing to repeat)', async () => {
    replies.push((_, res) => json(res, 200, sent));
    await herald({ maxRetries: 0 }).emails.send({ to: 'ada@example.com', subject: 'Hi', body: 'x' });
    expect(received[0]!.headers['idempotency-key']).toBeUndefined();
  });

  it('retries a 503 with exponential backoff and throws the last answer once the retries are spent', async () => {
    for (let i = 0; i < 3; i++) replies.push((_, res) => json(res, 503, errorBody(503, 'SERVICE_UNAVAILABLE')));
    await expect(herald({ maxRetries: 2 }).workflows.list()).rejects.toMatchObject({
      status: 503,
      code: 'SERVICE_UNAVAILABLE',
    });
    expect(received).toHaveLength(3);
  });

  it('does not wait for a Retry-After beyond maxRetryDelayMs: it throws at once', async () => {
    replies.push((_, res) => json(res, 429, errorBody(429, 'BILLING_LIMIT_EXCEEDED'), { 'retry-after': '3600' }));
    await expect(
      herald({ maxRetryDelayMs: 5_000 }).events.track({ email: 'a@example.com', event: 'x' }),
    ).rejects.toMatchObject({
      status: 429,
      code: 'BILLING_LIMIT_EXCEEDED',
    });
    expect(received).toHaveLength(1);
  });

  it('does not retry other failures (4xx, 500)', async () => {
    replies.push((_, res) => json(res, 500, errorBody(500, 'INTERNAL_SERVER_ERROR')));
    await expect(herald().campaigns.get('cmp_1')).rejects.toMatchObject({ status: 500 });
    replies.push((_, res) => json(res, 404, errorBody(404, 'CONTACT_NOT_FOUND')));
    await expect(herald().contacts.delete('cnt_1')).rejects.toMatchObject({ status: 404, code: 'CONTACT_NOT_FOUND' });
    expect(received).toHaveLength(2);
  });

  it('iterates a cursor list page after page until the cursor is null', async () => {
    const page = (ids: string[], cursor: string | null) => ({
      data: ids.map((id) => ({ id })),
      cursor,
      hasMore: cursor !== null,
      total: 5,
    });
    replies.push((_, res) => json(res, 200, page(['c1', 'c2'], 'cur-2')));
    replies.push((_, res) => json(res, 200, page(['c3', 'c4'], 'cur-3')));
    replies.push((_, res) => json(res, 200, page(['c5'], null)));
    const all = await collect(herald().contacts.listAll({ limit: 2, subscribed: true }));
    expect(all.map((c) => c.id)).toEqual(['c1', 'c2', 'c3', 'c4', 'c5']);
    expect(received.map((r) => Object.fromEntries(r.url.searchParams))).toEqual([
      { limit: '2', subscribed: 'true' },
      { limit: '2', subscribed: 'true', cursor: 'cur-2' },
      { limit: '2', subscribed: 'true', cursor: 'cur-3' },
    ]);
  });

  it('iterates a page list page after page up to totalPages', async () => {
    const page = (n: number, ids: string[]) => ({
      campaigns: ids.map((id) => ({ id })),
      page: n,
      pageSize: 2,
      total: 3,
      totalPages: 2,
      cursor: n < 2 ? String(n + 1) : null,
    });
    replies.push((_, res) => json(res, 200, page(1, ['a', 'b'])));
    replies.push((_, res) => json(res, 200, page(2, ['c'])));
    const all = await collect(herald().campaigns.listAll({ limit: 2 }));
    expect(all.map((c) => c.id)).toEqual(['a', 'b', 'c']);
    expect(received.map((r) => r.url.searchParams.get('page'))).toEqual(['1', '2']);
  });

  it('request() reaches any operation of the document, filling its path parameters and query', async () => {
    replies.push((_, res) => json(res, 200, { data: [], cursor: null, hasMore: false }));
    await herald().request('get', '/workflows/{id}/executions', { path: { id: 'wf 1' }, query: { limit: 5 } });
    expect(received[0]!.url.pathname).toBe('/workflows/wf%201/executions');
    expect(received[0]!.url.searchParams.get('limit')).toBe('5');
  });

  it('sends an array query parameter once, comma-separated (the API refuses a repeated query key)', async () => {
    replies.push((_, res) => json(res, 200, { from: '', to: '', interval: 'day', tz: 'UTC', buckets: [] }));
    await herald().request('get', '/analytics/timeseries', { query: { metrics: ['sent', 'opened'], interval: 'day' } });
    expect(received[0]!.url.searchParams.getAll('metrics')).toEqual(['sent,opened']);
  });

  it('retries a request that got no answer only when repeating it cannot apply it twice', async () => {
    replies.push((_, res) => res.socket!.destroy());
    replies.push((_, res) => json(res, 200, { id: 'cnt_1' }));
    await expect(herald().contacts.get('cnt_1')).resolves.toEqual({ id: 'cnt_1' });
    replies.push((_, res) => res.socket!.destroy());
    await expect(herald().contacts.create({ email: 'a@example.com' })).rejects.toMatchObject({
      status: 0,
      code: 'NETWORK_ERROR',
    });
    expect(received).toHaveLength(3);
  });

  it('reads Retry-After as seconds or as an HTTP date', () => {
    const now = Date.parse('2026-11-29T10:00:00Z');
    expect(retryAfterMs('2', now)).toBe(2000);
    expect(retryAfterMs('Sun, 29 Nov 2026 10:00:05 GMT', now)).toBe(5000);
    expect(retryAfterMs(null, now)).toBeUndefined();
    expect(retryAfterMs('soon', now)).toBeUndefined();
  });
});

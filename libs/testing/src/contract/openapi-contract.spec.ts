import { AnswerCheck } from './answer-check.js';
import { OpenApiContract, type ObservedAnswer } from './openapi-contract.js';

/**
 * The checker of the contract test (ADR 0026): an answer outside the document is reported, naming
 * the request, the status and what is wrong; an answer inside it is not. A small made-up document
 * keeps each rule visible; the last specs read the repository's own docs/openapi.json.
 */
const errorBody = {
  type: 'object',
  properties: { success: { const: false }, error: { type: 'object', required: ['code'] } },
  required: ['success', 'error'],
};
const document = {
  openapi: '3.1.1',
  paths: {
    '/things/{id}': {
      get: {
        responses: {
          '200': {
            description: 'ok',
            content: { 'application/json': { schema: { $ref: '#/components/schemas/Thing' } } },
          },
          '404': { $ref: '#/components/responses/Error' },
          default: { $ref: '#/components/responses/Error' },
        },
      },
      delete: { responses: { '204': { description: 'gone' } } },
    },
    '/things/export': {
      get: { responses: { '200': { description: 'csv', content: { 'text/csv': { schema: { type: 'string' } } } } } },
    },
  },
  components: {
    schemas: {
      Thing: {
        type: 'object',
        properties: { id: { type: 'string' }, at: { type: 'string', format: 'date-time' } },
        required: ['id'],
      },
      ErrorBody: errorBody,
    },
    responses: { Error: { description: 'error', content: { 'application/json': { schema: errorBody } } } },
  },
};

const json = 'application/json; charset=utf-8';
const answer = (a: Partial<ObservedAnswer>): ObservedAnswer => ({
  method: 'GET',
  path: '/things/t1',
  status: 200,
  contentType: json,
  body: '{"id":"t1"}',
  ...a,
});

describe('the OpenAPI contract of answers', () => {
  const contract = new OpenApiContract(document);

  it('accepts an answer that matches its documented schema', () => {
    expect(contract.problemOf(answer({}))).toBeUndefined();
    expect(contract.problemOf(answer({ body: '{"id":"t1","at":"2026-01-01T00:00:00.000Z"}' }))).toBeUndefined();
  });

  it('reports a body that breaks the schema, naming the request, the status and the field', () => {
    const problem = contract.problemOf(answer({ body: '{"id":42}' }));
    expect(problem).toContain('GET /things/t1 (GET /things/{id}) answered 200');
    expect(problem).toContain('/id must be string');
    expect(contract.problemOf(answer({ body: '{"at":"yesterday"}' }))).toMatch(/required property 'id'/);
    expect(contract.problemOf(answer({ body: '{"id":"t1","at":"yesterday"}' }))).toMatch(/\/at must match format/);
  });

  it('checks an error answer against its documented status, else `default`', () => {
    expect(contract.problemOf(answer({ status: 404, body: '{"success":false,"error":{"code":"X"}}' }))).toBe(undefined);
    expect(contract.problemOf(answer({ status: 409, body: '{"success":false,"error":{"code":"X"}}' }))).toBe(undefined);
    expect(contract.problemOf(answer({ status: 409, body: '{"message":"conflict"}' }))).toMatch(
      /answered 409: the body does not match responses.default/,
    );
  });

  it('reports a status the operation does not document when it has no `default`', () => {
    expect(contract.problemOf(answer({ method: 'DELETE', status: 200, body: '' }))).toMatch(
      /DELETE \/things\/t1 \(DELETE \/things\/\{id\}\) answered 200: the document lists only 204/,
    );
    expect(contract.problemOf(answer({ method: 'DELETE', status: 204, body: '' }))).toBeUndefined();
  });

  it('reports a body where the document gives none, another media type, and a body that is not JSON', () => {
    expect(contract.problemOf(answer({ method: 'DELETE', status: 204, body: '{}' }))).toMatch(/gives no body/);
    expect(contract.problemOf(answer({ contentType: 'text/html' }))).toMatch(
      /Content-Type text\/html, the document gives application\/json/,
    );
    expect(contract.problemOf(answer({ body: 'oops' }))).toMatch(/the body is not JSON/);
    expect(contract.problemOf(answer({ path: '/things/export', contentType: 'text/csv', body: 'a,b' }))).toBe(
      undefined,
    );
  });

  it('prefers a literal path segment to a parameter', () => {
    expect(contract.problemOf(answer({ path: '/things/export', contentType: json }))).toMatch(
      /\(GET \/things\/export\).*Content-Type application\/json/,
    );
  });

  it('holds requests the document does not describe to the standard error body (internal routes: their errors), and skips OPTIONS and HEAD', () => {
    const notFound = { status: 404, body: '{"success":false,"error":{"code":"ROUTE_NOT_FOUND"}}' };
    expect(contract.problemOf(answer({ path: '/internal/things', ...notFound }))).toBeUndefined();
    expect(contract.problemOf(answer({ method: 'PUT', ...notFound }))).toBeUndefined();
    expect(contract.problemOf(answer({ path: '/internal/things', status: 404, body: 'Not Found' }))).toMatch(
      /GET \/internal\/things \(not in the document\) answered 404: the body is not the standard error body/,
    );
    expect(contract.problemOf(answer({ path: '/not-a-route' }))).toMatch(
      /GET \/not-a-route \(not in the document\) answered 200: only errors may answer a route the document does not describe/,
    );
    expect(contract.problemOf(answer({ path: '/internal/calls/x', status: 200, body: '{"ok":1}' }))).toBeUndefined();
    expect(contract.problemOf(answer({ path: '/internal/calls/x', status: 401, body: 'no' }))).toMatch(
      /not the standard error body/,
    );
    expect(contract.problemOf(answer({ method: 'OPTIONS', status: 204, body: '' }))).toBeUndefined();
    expect(contract.problemOf(answer({ method: 'HEAD', body: '' }))).toBeUndefined();
  });

  it("leaves the dashboard's files (GET /, /app/…, /assets/…) to the web app, not the API; their errors still carry the standard body", () => {
    const html = { status: 200, contentType: 'text/html; charset=utf-8', body: '<!doctype html>' };
    for (const path of ['/', '/app', '/app/p/1/contacts', '/assets/index-abc.js'])
      expect({ path, problem: contract.problemOf(answer({ path, ...html })) }).toEqual({ path, problem: undefined });
    expect(contract.problemOf(answer({ method: 'POST', path: '/app/login', ...html }))).toMatch(
      /only errors may answer/,
    );
    expect(contract.problemOf(answer({ path: '/apps', ...html }))).toMatch(/only errors may answer/);
    expect(contract.problemOf(answer({ path: '/assets/x.js', status: 404, body: 'Not Found' }))).toMatch(
      /not the standard error body/,
    );
  });

  it("reads the repository's document: a /v1/send answer without its emails is reported", () => {
    const repo = OpenApiContract.load();
    const send = { method: 'POST', path: '/v1/send', status: 200, contentType: json };
    expect(repo.problemOf({ ...send, body: '{"success":true}' })).toMatch(
      /POST \/v1\/send \(POST \/v1\/send\) answered 200: the body does not match responses.200/,
    );
    const refused = {
      success: false,
      message: 'Validation failed',
      error: { code: 'VALIDATION_ERROR', message: 'Validation failed', statusCode: 422, requestId: 'r1' },
      timestamp: '2026-01-01T00:00:00.000Z',
    };
    expect(repo.problemOf({ ...send, status: 422, body: JSON.stringify(refused) })).toBeUndefined();
  });
});

describe('the answers fetch receives', () => {
  const contract = new OpenApiContract(document);
  let server: { url: string; close(): Promise<void> };

  beforeAll(async () => {
    const http = await import('node:http');
    const srv = http.createServer((req, res) => {
      res.setHeader('content-type', json);
      res.end(req.url === '/things/good' ? '{"id":"good"}' : '{"id":7}');
    });
    await new Promise<void>((resolve) => srv.listen(0, '127.0.0.1', resolve));
    const { port } = srv.address() as { port: number };
    server = {
      url: `http://127.0.0.1:${port}`,
      close: () => new Promise<void>((resolve) => srv.close(() => resolve())),
    };
  });

  afterAll(() => server.close());

  it('are checked when they come from a watched Herald, and the test still reads the body', async () => {
    const check = new AnswerCheck(
      () => Promise.resolve(contract),
      (url) => url.origin === server.url,
    );
    const watched = check.wrap(fetch);
    expect(await (await watched(`${server.url}/things/good`)).json()).toEqual({ id: 'good' });
    expect(await (await watched(`${server.url}/things/bad?x=1`)).json()).toEqual({ id: 7 });
    const problems = await check.flush();
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(/^GET \/things\/bad \(GET \/things\/\{id\}\) answered 200: .*\/id must be string/);
    expect(await check.flush()).toEqual([]);
  });

  it('are not checked when they come from another server', async () => {
    const check = new AnswerCheck(
      () => Promise.resolve(contract),
      () => false,
    );
    expect((await check.wrap(fetch)(`${server.url}/things/bad`)).status).toBe(200);
    expect(await check.flush()).toEqual([]);
  });
});

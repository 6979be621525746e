import { e2eMode, startTopology, type Topology } from '@herald/testing';
import { newProject, type ErrorBody, type Reply, type TestProjectApi } from './contacts-helpers.js';

/** An error answer with the caller's clock around it: when the request left, and when its answer was read. */
interface Timed extends Reply<ErrorBody> {
  sentAt: number;
  readAt: number;
}

/**
 * What clients written for Plunk read in Herald's error bodies (docs/errors.md, "What Plunk clients
 * read"): every error body carries a top-level `message` equal to `error.message` (the official
 * client throws `data.message`, or "Unknown API Error" without it); on the public API (`/v1/…`) the
 * body also carries Plunk's `code` (the HTTP status) and `time` (epoch milliseconds); the standard
 * `error` object stays as it is everywhere. In distributed mode the gateway answers the 401s and the
 * unknown route itself and forwards the rest to the services: both must give the same body.
 */
describe(`error bodies every client can read (${e2eMode()})`, () => {
  let herald: Topology;
  let api: TestProjectApi;

  beforeAll(async () => {
    herald = await startTopology({ env: { RATE_LIMIT_PER_MINUTE: '100000' } });
    api = await newProject(herald.url);
  }, 480_000); // eight processes migrated and started on a loaded machine: a deadline, not a target

  afterAll(async () => {
    await herald?.stop();
  }, 60_000);

  /** One request with `key`, timed by the test's clock. */
  const call = async (method: string, path: string, key: string, body?: unknown): Promise<Timed> => {
    const sentAt = Date.now();
    const res = await fetch(`${herald.url}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${key}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const parsed = (await res.json()) as ErrorBody;
    return { status: res.status, body: parsed, sentAt, readAt: Date.now() };
  };

  /** The public API's shape: the standard body, its message on top, and Plunk's code and time. */
  const expectPublicBody = (res: Timed, status: number, code: string) => {
    expect([res.status, res.body.error.code, res.body.error.statusCode]).toEqual([status, code, status]);
    expect(res.body.message).toBe(res.body.error.message);
    expect(res.body.code).toBe(status);
    expect(Number.isInteger(res.body.time)).toBe(true);
    expect(res.body.time).toBeGreaterThanOrEqual(res.sentAt);
    expect(res.body.time).toBeLessThanOrEqual(res.readAt);
    expect(res.body.time).toBe(Date.parse(res.body.timestamp));
    expect(res.body.success).toBe(false);
  };

  /** A dashboard route's shape: the standard body and its message on top, nothing of Plunk's. */
  const expectDashboardBody = (res: Timed, status: number, code: string) => {
    expect([res.status, res.body.error.code, res.body.error.statusCode]).toEqual([status, code, status]);
    expect(res.body.message).toBe(res.body.error.message);
    expect(Object.keys(res.body).sort()).toEqual(['error', 'message', 'success', 'timestamp']);
  };

  it('a refused /v1/send (422) carries message = error.message, code = 422 and the time it was answered', async () => {
    const res = await call('POST', '/v1/send', api.key, {
      to: 'ada@example.com',
      from: 'news@never-added.example.test',
      subject: 'Hi',
      body: '<p>Hi</p>',
    });
    expectPublicBody(res, 422, 'VALIDATION_ERROR');
    expect(res.body.message).toContain('never-added.example.test');
    expect(res.body.error.errors?.[0]).toMatchObject({ field: 'from', code: 'domain_not_verified' });
  });

  it('a wrong key on /v1/track (401) carries message = error.message, code = 401 and time, refused before or after its body is read', async () => {
    // with a body: refused before the body is read (early authentication); without one: by the guard
    for (const body of [{ email: 'ada@example.com', event: 'signed-up' }, undefined]) {
      const res = await call('POST', '/v1/track', 'sk_not_a_key_of_anyone', body);
      expectPublicBody(res, 401, 'INVALID_API_KEY');
    }
  });

  it('an unknown route (404) carries message = error.message; under /v1/ also code and time, elsewhere neither', async () => {
    expectPublicBody(await call('GET', '/v1/nowhere', api.key), 404, 'ROUTE_NOT_FOUND');
    expectDashboardBody(await call('GET', '/nowhere', api.key), 404, 'ROUTE_NOT_FOUND');
  });

  it('a refused dashboard route (422) carries message = error.message and neither code nor time', async () => {
    const res = await call('POST', '/contacts', api.key, { email: 'not-an-email' });
    expectDashboardBody(res, 422, 'VALIDATION_ERROR');
    expect(res.body.error.errors?.map((e) => e.field)).toEqual(['email']);
  });
});

import { e2eMode, startTopology, type Topology } from '@herald/testing';
import { newProject, type ErrorBody, type TestProjectApi, type TrackedEventBody } from './contacts-helpers.js';

/**
 * POST /v1/track with an `Idempotency-Key` (issue 41, item 5; docs/contacts.md): as on /v1/send, the
 * same key and body within 24 hours records one event and answers the first answer again, byte for
 * byte; another body with the key is 409 IDEMPOTENCY_KEY_REUSED (Stripe's rule); the key is per
 * project; a request without the header is tracked as before. Each check reads the contact's events
 * through the API right after the answers (the events are contacts' own rows: no waiting). Runs in
 * the run's mode (HERALD_E2E_MODE: standalone, or every service its own process behind the gateway).
 */
describe(`POST /v1/track with an Idempotency-Key (${e2eMode()})`, () => {
  let herald: Topology;
  let owner: string;
  const project = () => newProject(herald.url, owner);

  beforeAll(async () => {
    herald = await startTopology({ env: { RATE_LIMIT_PER_MINUTE: '100000' } });
    owner = (await newProject(herald.url)).cookie;
  }, 480_000); // every process migrated and started on a loaded machine: a deadline, not a target

  afterAll(async () => {
    await herald?.stop();
  }, 60_000);

  /** POST /v1/track with the header (when given), answering the status, the raw text and the parsed body. */
  const track = async (api: TestProjectApi, body: unknown, key?: string) => {
    const res = await fetch(`${herald.url}/v1/track`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${api.key}`,
        'content-type': 'application/json',
        ...(key === undefined ? {} : { 'idempotency-key': key }),
      },
      body: JSON.stringify(body),
    });
    const text = await res.text();
    return {
      status: res.status,
      text,
      body: JSON.parse(text) as { data: { contact: string; event: string } } & ErrorBody,
    };
  };
  const eventsOf = async (api: TestProjectApi, contactId: string): Promise<TrackedEventBody[]> => {
    const res = await api.get<{ data: TrackedEventBody[] }>(`/events/contact/${contactId}?limit=100`);
    expect(res.status).toBe(200);
    return res.body.data.filter((e) => !e.system);
  };

  it('the same key and body record one event and replay the first answer byte for byte', async () => {
    const api = await project();
    const body = { email: 'ada@example.com', event: 'order-paid', data: { order: 'o-1', total: 42 } };
    const first = await track(api, body, 'order-o-1');
    const again = await track(api, body, 'order-o-1');
    // the same body with its keys in another order is the same request
    const reordered = await track(
      api,
      { data: { total: 42, order: 'o-1' }, event: 'order-paid', email: 'ada@example.com' },
      'order-o-1',
    );
    expect([first.status, again.status, reordered.status]).toEqual([200, 200, 200]);
    expect(again.text).toBe(first.text);
    expect(reordered.text).toBe(first.text);
    const events = await eventsOf(api, first.body.data.contact);
    expect(events.map((e) => [e.id, e.name, e.data])).toEqual([
      [first.body.data.event, 'order-paid', { order: 'o-1', total: 42 }],
    ]);
  });

  it("the same key with another body is 409 IDEMPOTENCY_KEY_REUSED in the spec's error body, and records nothing", async () => {
    const api = await project();
    const first = await track(api, { email: 'bob@example.com', event: 'signed-up' }, 'signup-bob');
    const other = await track(
      api,
      { email: 'bob@example.com', event: 'signed-up', data: { plan: 'pro' } },
      'signup-bob',
    );
    expect(other.status).toBe(409);
    expect(other.body).toMatchObject({
      success: false,
      message: other.body.error.message,
      error: {
        code: 'IDEMPOTENCY_KEY_REUSED',
        message: 'This Idempotency-Key was used with a different request body',
        statusCode: 409,
        requestId: expect.any(String),
        suggestion: expect.any(String),
      },
      timestamp: expect.any(String),
    });
    expect(await eventsOf(api, first.body.data.contact)).toHaveLength(1);
  });

  it('without the header every request is recorded, as before', async () => {
    const api = await project();
    const body = { email: 'cy@example.com', event: 'page-viewed' };
    const answers = await Promise.all([track(api, body), track(api, body), track(api, body)]);
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200]);
    expect(new Set(answers.map((a) => a.body.data.event)).size).toBe(3);
    expect(await eventsOf(api, answers[0]!.body.data.contact)).toHaveLength(3);
  });

  it('keys are per project: two projects with the same key and different bodies each record their event', async () => {
    const [one, two] = await Promise.all([project(), project()]);
    const a = await track(one, { email: 'dee@example.com', event: 'trial-started' }, 'shared-key');
    const b = await track(two, { email: 'dee@example.com', event: 'trial-ended' }, 'shared-key');
    expect([a.status, b.status]).toEqual([200, 200]);
    expect((await eventsOf(one, a.body.data.contact)).map((e) => e.name)).toEqual(['trial-started']);
    expect((await eventsOf(two, b.body.data.contact)).map((e) => e.name)).toEqual(['trial-ended']);
  });

  it('refuses an empty key or one over 255 characters (422 naming the header), recording nothing', async () => {
    const api = await project();
    for (const key of ['', 'k'.repeat(256)]) {
      const res = await track(api, { email: 'eve@example.com', event: 'x' }, key);
      expect([res.status, res.body.error.errors?.map((e) => e.field)]).toEqual([422, ['Idempotency-Key']]);
    }
    expect((await api.get<{ data: unknown[] }>('/contacts')).body.data).toEqual([]);
  });
});

import { randomUUID } from 'node:crypto';
import { eventually, SHARED_TOPOLOGY_ENV, startTopology, type Topology } from '@herald/testing';
import { Webhook } from 'standardwebhooks';
import { fieldsOf, newProject, type ErrorBody, type TestProjectApi } from './contacts-helpers.js';
import { WebhookReceiver, type ReceivedWebhook } from './webhooks-helpers.js';

/**
 * Event webhooks through the public API, in the run's mode (one standalone process, or every service
 * its own process behind the gateway): endpoints on a loopback receiver (`localhost`, allowed by
 * WEBHOOKS_ALLOW with http by WEBHOOKS_ALLOW_HTTP) and a short retry schedule (SHARED_TOPOLOGY_ENV).
 * docs/webhooks-out.md.
 */

interface EndpointBody {
  id: string;
  url: string;
  eventTypes: string[];
  enabled: boolean;
  status: 'active' | 'failing';
  secret?: string;
}

interface DeliveryBody {
  id: string;
  eventId: string;
  eventType: string;
  status: 'pending' | 'delivered' | 'dead';
  attempts: number;
  responseStatus: number | null;
  responseBody: string | null;
  latencyMs: number | null;
  error: string | null;
}

describe('event webhooks', () => {
  let herald: Topology;
  let receiver: WebhookReceiver;

  beforeAll(async () => {
    [herald, receiver] = await Promise.all([
      startTopology({ env: { ...SHARED_TOPOLOGY_ENV } }),
      new WebhookReceiver().start(),
    ]);
  }, 600_000);
  afterAll(async () => {
    await Promise.all([herald?.stop(), receiver?.stop()]);
  }, 60_000);

  const path = (kind: 'ok' | 'fail') => `/${kind}/${randomUUID()}`;
  const endpoint = async (api: TestProjectApi, url: string, eventTypes = ['contact.created']) => {
    const res = await api.post<EndpointBody>('/webhooks/endpoints', { url, eventTypes });
    expect([res.status, res.body.secret]).toEqual([201, expect.stringMatching(/^whsec_/)]);
    return res.body as EndpointBody & { secret: string };
  };
  const verify = (secret: string, r: ReceivedWebhook) =>
    new Webhook(secret).verify(r.body, r.headers as Record<string, string>) as Record<string, unknown>;
  const log = async (api: TestProjectApi, id: string) =>
    (await api.get<{ data: DeliveryBody[] }>(`/webhooks/endpoints/${id}/deliveries`)).body.data;

  it('a subscription receives a signed delivery of its event that the off-the-shelf standardwebhooks library verifies, and the log shows it delivered', async () => {
    const api = await newProject(herald.url);
    const at = path('ok');
    const e = await endpoint(api, receiver.url(at));
    const contact = await api.upsert(`hook-${randomUUID()}@example.com`, { plan: 'pro' });
    const [got] = await eventually(() => (receiver.at(at).length > 0 ? receiver.at(at) : undefined));
    expect(verify(e.secret, got!)).toMatchObject({
      type: 'contact.created',
      version: 1,
      id: got!.headers['webhook-id'],
      projectId: api.projectId,
      data: { contactId: contact.id, email: contact.email, data: { plan: 'pro' } },
    });
    expect(() => verify(`whsec_${Buffer.alloc(32, 7).toString('base64')}`, got!)).toThrow();
    const [delivery] = await eventually(async () => {
      const rows = await log(api, e.id);
      return rows[0]?.status === 'delivered' ? rows : undefined;
    });
    expect(delivery).toMatchObject({
      eventType: 'contact.created',
      eventId: got!.headers['webhook-id'],
      attempts: 1,
      responseStatus: 200,
      responseBody: 'ok',
      latencyMs: expect.any(Number),
    });
    // another project sees none of it
    const other = await newProject(herald.url);
    expect((await other.get(`/webhooks/endpoints/${e.id}`)).status).toBe(404);
    expect((await other.get(`/webhooks/endpoints/${e.id}/deliveries`)).status).toBe(404);
  });

  it('an endpoint answering 500 gets retries with the same event id, then its delivery is dead and the endpoint failing', async () => {
    const api = await newProject(herald.url);
    const at = path('fail');
    const e = await endpoint(api, receiver.url(at));
    await api.upsert(`fail-${randomUUID()}@example.com`);
    await eventually(
      async () => (await api.get<EndpointBody>(`/webhooks/endpoints/${e.id}`)).body.status === 'failing',
    );
    const attempts = receiver.at(at);
    expect(attempts).toHaveLength(3);
    expect(new Set(attempts.map((r) => r.headers['webhook-id'])).size).toBe(1);
    expect((await log(api, e.id))[0]).toMatchObject({
      status: 'dead',
      attempts: 3,
      responseStatus: 500,
      responseBody: 'receiver down',
      error: 'HTTP 500',
    });
  });

  it('replay re-sends one delivery, and every delivery of a time range, with their event ids; a success marks a failing endpoint active', async () => {
    const api = await newProject(herald.url);
    const failing = path('fail');
    const e = await endpoint(api, receiver.url(failing));
    const from = new Date(Date.now() - 60_000).toISOString();
    await api.upsert(`replay-${randomUUID()}@example.com`);
    await eventually(
      async () => (await api.get<EndpointBody>(`/webhooks/endpoints/${e.id}`)).body.status === 'failing',
    );
    const [dead] = await log(api, e.id);

    // the receiver is fixed: the dead delivery is replayed there, and the endpoint is active again
    const fixed = path('ok');
    expect((await api.patch(`/webhooks/endpoints/${e.id}`, { url: receiver.url(fixed) })).status).toBe(200);
    const replayed = await api.post<DeliveryBody>(`/webhooks/endpoints/${e.id}/deliveries/${dead!.id}/replay`);
    expect([replayed.status, replayed.body.status, replayed.body.attempts]).toEqual([202, 'pending', 0]);
    await eventually(() => receiver.at(fixed).length === 1);
    expect(verify(e.secret, receiver.at(fixed)[0]!)).toMatchObject({ id: dead!.eventId });
    await eventually(async () => (await api.get<EndpointBody>(`/webhooks/endpoints/${e.id}`)).body.status === 'active');

    const range = await api.post<{ replayed: number }>(`/webhooks/endpoints/${e.id}/replay`, {
      from,
      to: new Date(Date.now() + 60_000).toISOString(),
    });
    expect(range).toEqual({ status: 202, body: { replayed: 1 } });
    await eventually(() => receiver.at(fixed).length === 2);
    expect(receiver.ids(fixed)).toEqual(new Set([dead!.eventId]));

    const backwards = await api.post<ErrorBody>(`/webhooks/endpoints/${e.id}/replay`, { from, to: from });
    expect([backwards.status, fieldsOf(backwards.body)]).toEqual([422, ['to']]);
    const missing = await api.post<ErrorBody>(`/webhooks/endpoints/${e.id}/deliveries/whd_nope/replay`);
    expect([missing.status, missing.body.error.code]).toEqual([404, 'WEBHOOK_DELIVERY_NOT_FOUND']);
  });

  it('a loopback, private or metadata URL is refused by default (a field error on url), as are http where not allowed and unknown event types', async () => {
    const api = await newProject(herald.url);
    for (const url of [
      'http://127.0.0.1:8080/hook',
      'http://[::1]/hook',
      'https://169.254.169.254/latest',
      'https://10.1.2.3/',
    ]) {
      const res = await api.post<ErrorBody>('/webhooks/endpoints', { url, eventTypes: ['email.sent'] });
      expect([url, res.status, res.body.error.code, fieldsOf(res.body)]).toEqual([
        url,
        422,
        'VALIDATION_ERROR',
        ['url'],
      ]);
    }
    const types = await api.post<ErrorBody>('/webhooks/endpoints', {
      url: receiver.url('/ok/x'),
      eventTypes: ['email.sent', 'event.tracked'],
    });
    expect([types.status, fieldsOf(types.body)]).toEqual([422, ['eventTypes']]);
    const none = await api.post<ErrorBody>('/webhooks/endpoints', { url: receiver.url('/ok/x'), eventTypes: [] });
    expect([none.status, fieldsOf(none.body)]).toEqual([422, ['eventTypes']]);
    expect((await api.get<{ data: unknown[] }>('/webhooks/endpoints')).body.data).toEqual([]);
  });

  it('deleting an endpoint stops its deliveries; a disabled one gets none until enabled again', async () => {
    const api = await newProject(herald.url);
    const [kept, gone, paused] = [path('ok'), path('ok'), path('ok')];
    await endpoint(api, receiver.url(kept));
    const deleted = await endpoint(api, receiver.url(gone));
    const disabled = await endpoint(api, receiver.url(paused));
    expect((await api.delete(`/webhooks/endpoints/${deleted.id}`)).status).toBe(200);
    expect((await api.get(`/webhooks/endpoints/${deleted.id}`)).status).toBe(404);
    expect((await api.patch<EndpointBody>(`/webhooks/endpoints/${disabled.id}`, { enabled: false })).body.enabled).toBe(
      false,
    );
    await api.upsert(`delete-${randomUUID()}@example.com`);
    await eventually(() => receiver.at(kept).length === 1);
    // the deleted and the disabled endpoints' subscriptions were read with the kept one's: nothing for them
    expect([receiver.at(gone).length, receiver.at(paused).length]).toEqual([0, 0]);
    const listed = await api.get<{ data: EndpointBody[] }>('/webhooks/endpoints');
    expect(listed.body.data.map((e) => e.id).sort()).toEqual([disabled.id, expect.any(String)].sort());
  });

  it('a test event reaches an endpoint whatever it subscribes to; a rotated secret signs beside the new one', async () => {
    const api = await newProject(herald.url);
    const at = path('ok');
    const e = await endpoint(api, receiver.url(at), ['campaign.sent']);
    const test = await api.post<DeliveryBody>(`/webhooks/endpoints/${e.id}/test`);
    expect([test.status, test.body.eventType]).toEqual([202, 'webhook.test']);
    await eventually(() => receiver.at(at).length === 1);
    expect(verify(e.secret, receiver.at(at)[0]!)).toMatchObject({ type: 'webhook.test', data: { endpointId: e.id } });

    const rotated = await api.post<EndpointBody & { secret: string }>(`/webhooks/endpoints/${e.id}/rotate-secret`);
    expect([rotated.status, rotated.body.secret]).toEqual([200, expect.stringMatching(/^whsec_/)]);
    expect(rotated.body.secret).not.toBe(e.secret);
    expect((await api.get<EndpointBody>(`/webhooks/endpoints/${e.id}`)).body.secret).toBeUndefined();
    await api.post(`/webhooks/endpoints/${e.id}/test`);
    await eventually(() => receiver.at(at).length === 2);
    const second = receiver.at(at)[1]!;
    expect(verify(rotated.body.secret, second)).toMatchObject({ type: 'webhook.test' });
    expect(verify(e.secret, second)).toMatchObject({ type: 'webhook.test' });
  });
});

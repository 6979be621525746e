import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ContactCreated, type EventEnvelope } from '@herald/contracts';
import { newId } from '@herald/core';
import { JobQueue, runJobsCommand, type Job } from '@herald/jobs';
import { createServiceDataSource, migrateServiceSchema } from '@herald/persistence';
import { createTestDatabase, eventually, type TestDatabase } from '@herald/testing';
import { Webhook } from 'standardwebhooks';
import type { DataSource } from 'typeorm';
import { newSigningSecret, sealSigningSecret } from '../endpoints/endpoint-secrets.js';
import { Endpoint } from '../endpoints/endpoint.entity.js';
import { EndpointsStore } from '../endpoints/endpoints.store.js';
import { WebhookFanOut } from '../events/webhook-fan-out.js';
import { webhooksSchema } from '../webhooks.module.js';
import { WebhooksServiceSettings } from '../webhooks.settings.js';
import { DeliveriesService } from './deliveries.service.js';
import { DeliveriesStore } from './deliveries.store.js';
import { DeliveryAttempts } from './delivery-attempts.js';
import { DeliveryLaneProcessor } from './delivery-lane.processor.js';
import { DeliveryLanes } from './delivery-lanes.js';
import { DeliveryLanesStore } from './delivery-lanes.store.js';
import { DeliveryOutcomes } from './delivery-outcomes.js';
import { Delivery } from './delivery.entity.js';

const KEY = 'int-spec-encryption-key-0123456789abcdef';

interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  at: number;
}

/** The delivery machinery on PostgreSQL, with a real job queue and a loopback receiver. */
describe('webhook deliveries (PostgreSQL, job queue, loopback receiver)', () => {
  let db: TestDatabase;
  let ds: DataSource;
  let receiver: Server;
  let base: string;
  const received: Received[] = [];
  let queue: JobQueue;
  let fanOut: WebhookFanOut;
  let lanes: DeliveryLanes;
  let processor: DeliveryLaneProcessor;

  const settings = Object.assign(new WebhooksServiceSettings(), {
    WEBHOOKS_ALLOW: '127.0.0.1',
    WEBHOOKS_ALLOW_HTTP: true,
    WEBHOOKS_RETRY_SCHEDULE: '100ms,200ms',
    WEBHOOKS_ENDPOINT_CONCURRENCY: 2,
    WEBHOOKS_TIMEOUT_MS: 5000,
  });

  beforeAll(async () => {
    db = await createTestDatabase();
    ds = await createServiceDataSource(webhooksSchema, db.url, 8).initialize();
    await migrateServiceSchema(ds);
    receiver = createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString('utf8')));
      req.on('end', () => {
        const path = req.url ?? '/';
        received.push({ path, headers: req.headers, body, at: Date.now() });
        const answer = () => {
          res.writeHead(path.startsWith('/fail') ? 500 : 200, { 'content-type': 'text/plain' });
          res.end(path.startsWith('/fail') ? `nope ${'x'.repeat(5000)}` : 'ok');
        };
        if (path.startsWith('/slow')) setTimeout(answer, 1500);
        else answer();
      });
    });
    await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
  });

  beforeEach(async () => {
    queue = new JobQueue('webhooks', db.url, ds, { leaseMs: 10_000, pollIntervalMs: 50, concurrency: 4 });
    const deliveries = new DeliveriesStore(ds);
    const endpoints = new EndpointsStore(ds);
    lanes = new DeliveryLanes(ds, queue, new DeliveryLanesStore(ds), deliveries);
    fanOut = new WebhookFanOut(settings, endpoints, deliveries, lanes);
    const outcomes = new DeliveryOutcomes(ds, queue, settings, deliveries, endpoints);
    processor = new DeliveryLaneProcessor(ds, queue, KEY, lanes, deliveries, new DeliveryAttempts(settings), outcomes);
    processor.onModuleInit();
    new DeliveriesService(ds, queue, settings, deliveries, lanes).onModuleInit();
  });

  afterEach(async () => {
    await queue.stop(2000);
    await ds.query('TRUNCATE webhooks.endpoints, webhooks.deliveries, webhooks.lanes, webhooks.jobs');
    received.length = 0;
  });

  afterAll(async () => {
    await new Promise((r) => receiver.close(r));
    await ds?.destroy();
    await db?.drop();
  });

  const endpoint = async (projectId: string, path: string, eventTypes = ['contact.created']) => {
    const secret = newSigningSecret();
    const id = newId('whe');
    await ds.getRepository(Endpoint).insert({
      id,
      projectId,
      url: `${base}${path}`,
      description: null,
      eventTypes,
      enabled: true,
      status: 'active',
      failingSince: null,
      secretSealed: sealSigningSecret(secret, KEY),
      previousSecretSealed: null,
      previousSecretUntil: null,
    });
    return { id, secret };
  };
  const created = (projectId: string, contactId: string): EventEnvelope =>
    ContactCreated.create({
      projectId,
      source: 'contacts',
      payload: { contactId, email: `${contactId}@example.com`, subscribed: true, data: {} },
    });
  const apply = (events: EventEnvelope[]) => ds.transaction((m) => fanOut.apply(m, events));
  const rows = () => ds.getRepository(Delivery).find({ order: { seq: 'ASC' } });
  const at = (path: string) => received.filter((r) => r.path === path);

  it('writes one delivery per subscribed endpoint and event (none again for a redelivered event), signed so that standardwebhooks verifies it', async () => {
    const a = await endpoint('prj_a', '/ok/a');
    await endpoint('prj_a', '/ok/other-type', ['email.sent']);
    await endpoint('prj_b', '/ok/b');
    const event = created('prj_a', 'c1');
    await apply([event]);
    await apply([event]);
    expect((await rows()).map((d) => [d.endpointId, d.eventId, d.status])).toEqual([[a.id, event.eventId, 'pending']]);
    await queue.start();
    await eventually(() => at('/ok/a').length === 1);
    const got = at('/ok/a')[0]!;
    const verified = new Webhook(a.secret).verify(got.body, got.headers as Record<string, string>) as Record<
      string,
      unknown
    >;
    expect(verified).toMatchObject({ type: 'contact.created', version: 1, id: event.eventId, projectId: 'prj_a' });
    expect(got.headers['webhook-id']).toBe(event.eventId);
    await eventually(async () => (await rows())[0]!.status === 'delivered');
    expect((await rows())[0]).toMatchObject({ attempts: 1, responseStatus: 200, responseBody: 'ok', lastError: null });
    expect(received.filter((r) => r.path !== '/ok/a')).toEqual([]);
  });

  it("attempts one contact's deliveries to an endpoint in the order of its events, one at a time", async () => {
    await endpoint('prj_a', '/ok/ordered');
    const events = Array.from({ length: 30 }, () => created('prj_a', 'same-contact'));
    await apply(events.slice(0, 10));
    await apply(events.slice(10));
    await queue.start();
    await eventually(() => at('/ok/ordered').length === 30);
    expect(at('/ok/ordered').map((r) => r.headers['webhook-id'])).toEqual(events.map((e) => e.eventId));
  });

  it('a delivery in flight is attempted by one worker only: a link whose lease ran out mid-attempt and its next claim do not both send it', async () => {
    await endpoint('prj_a', '/slow/once');
    await apply([created('prj_a', 'c1')]);
    const [lane] = (await ds.query('SELECT endpoint_id, project_id, lane, link_seq FROM webhooks.lanes')) as {
      endpoint_id: string;
      project_id: string;
      lane: number;
      link_seq: number;
    }[];
    const payload = {
      endpointId: lane!.endpoint_id,
      projectId: lane!.project_id,
      lane: Number(lane!.lane),
      seq: Number(lane!.link_seq),
      link: `${lane!.endpoint_id}:${lane!.lane}`,
    };
    const run = () => processor.runLink({ job: { payload } as unknown as Job, signal: new AbortController().signal });
    // the same link run twice at once: its first claim still attempting (a 1.5 s answer), its second claim starting
    const first = run();
    await eventually(() => at('/slow/once').length === 1);
    await Promise.all([first, run()]);
    expect(at('/slow/once')).toHaveLength(1);
    expect(await rows()).toMatchObject([{ status: 'delivered', attempts: 1 }]);
  });

  it('retries a failing delivery on the schedule; after the last retry it is dead, the endpoint failing, and the operator lists it as a failed job and retries it', async () => {
    const e = await endpoint('prj_a', '/fail/1');
    await apply([created('prj_a', 'c1')]);
    await queue.start();
    await eventually(async () => (await rows())[0]!.status === 'dead', { timeoutMs: 15_000 });
    const [dead] = await rows();
    expect(at('/fail/1')).toHaveLength(3);
    expect(dead).toMatchObject({ attempts: 3, responseStatus: 500, lastError: 'HTTP 500' });
    expect(Buffer.byteLength(dead!.responseBody!)).toBe(1024);
    expect(await ds.getRepository(Endpoint).findOneByOrFail({ id: e.id })).toMatchObject({ status: 'failing' });
    const lines: string[] = [];
    await runJobsCommand('webhooks', ds, ['list', '--queue', 'webhooks.delivery'], (l) => lines.push(l));
    expect(lines.map((l) => JSON.parse(l) as Record<string, unknown>)).toEqual([
      expect.objectContaining({ id: dead!.id, state: 'failed', attempts: 3 }),
    ]);

    // the receiver recovers: the operator's retry replays the delivery, and the endpoint is active again
    await ds.getRepository(Endpoint).update({ id: e.id }, { url: `${base}/ok/recovered` });
    expect(await runJobsCommand('webhooks', ds, ['retry', dead!.id], () => undefined)).toBe(0);
    await eventually(async () => (await rows())[0]!.status === 'delivered');
    expect(await ds.getRepository(Endpoint).findOneByOrFail({ id: e.id })).toMatchObject({ status: 'active' });
  });

  it("a slow endpoint holds at most its lanes: another project's delivery goes out meanwhile", async () => {
    await endpoint('prj_slow', '/slow/a');
    await endpoint('prj_fast', '/ok/fast');
    await apply(Array.from({ length: 20 }, (_, i) => created('prj_slow', `c${i}`)));
    await queue.start();
    await eventually(() => at('/slow/a').length >= 1);
    const sent = Date.now();
    await apply([created('prj_fast', 'f1')]);
    await eventually(() => at('/ok/fast').length === 1);
    expect(at('/ok/fast')[0]!.at - sent).toBeLessThan(1000);
    // two lanes: never more than two slow attempts were under way before the fast one arrived
    expect(at('/slow/a').length).toBeLessThanOrEqual(4);
  });

  it('retention deletes delivered and dead deliveries past their age, never a pending one', async () => {
    const e = await endpoint('prj_a', '/ok/old');
    await apply([created('prj_a', 'c1'), created('prj_a', 'c2'), created('prj_a', 'c3')]);
    const [a, b, c] = await rows();
    await ds.getRepository(Delivery).update({ id: a!.id }, { status: 'delivered' });
    await ds.getRepository(Delivery).update({ id: b!.id }, { status: 'dead' });
    await ds.query(`UPDATE webhooks.deliveries SET created_at = now() - interval '2 days' WHERE endpoint_id = $1`, [
      e.id,
    ]);
    const store = new DeliveriesStore(ds);
    expect(await store.pruneFinished(3 * 86_400_000, 100)).toBe(0);
    expect(await store.pruneFinished(86_400_000, 1)).toBe(1);
    expect(await store.pruneFinished(86_400_000, 100)).toBe(1);
    expect((await rows()).map((d) => d.id)).toEqual([c!.id]);
  });

  it('a lane whose link was lost is restarted at start, and its deliveries go out', async () => {
    await endpoint('prj_a', '/ok/lost');
    await apply([created('prj_a', 'c1'), created('prj_a', 'c2')]);
    await ds.query('DELETE FROM webhooks.jobs');
    await queue.start();
    expect(await lanes.restartBrokenLanes()).toBeGreaterThan(0);
    await eventually(() => at('/ok/lost').length === 2);
    expect(await lanes.restartBrokenLanes()).toBe(0);
  });
});

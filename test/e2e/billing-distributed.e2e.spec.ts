import {
  createTestDatabase,
  distributedEnv,
  eventually,
  freePort,
  migrateApps,
  ServiceProcess,
  startDnsServer,
  startKafka,
  startRedis,
  startSmtpSink,
  type KafkaBroker,
  type SmtpSink,
  type TestDatabase,
  type TestDnsServer,
} from '@herald/testing';
import Stripe from 'stripe';
import { newProject, type ErrorBody, type Json, type TestProjectApi } from './contacts-helpers.js';
import { SendingDb, verifiedDomain } from './sending-helpers.js';

const WEBHOOK_SECRET = 'whsec_distributed_billing_0123456789';

/**
 * Billing in distributed mode: consumption reaches the gateway as `email.sent` / `email.bounced` on
 * Kafka, the sending process asks the gateway (GATEWAY_URL defaulting to APP_URL) before each send,
 * and Stripe's webhook under `/webhooks/incoming` is the gateway's own though `/webhooks` is
 * routed to sending (docs/billing.md). The same rules as billing.e2e.spec.ts, across processes.
 */
describe('billing caps and reputation across services (distributed)', () => {
  let db: TestDatabase;
  let kafka: KafkaBroker;
  let redis: { url: string; stop(): Promise<void> };
  let dns: TestDnsServer;
  let smtp: SmtpSink;
  let sending: SendingDb;
  const processes: ServiceProcess[] = [];
  let gateway: ServiceProcess;
  let seq = 0;

  const session = async (cookie: string, method: string, path: string, body?: unknown) => {
    const res = await fetch(`${gateway.url}${path}`, {
      method,
      headers: { cookie, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as Json };
  };

  const project = async (): Promise<TestProjectApi & { from: string }> => {
    const api = await newProject(gateway.url);
    const domain = `d${++seq}-${Date.now().toString(36)}.example.test`;
    await verifiedDomain(api, dns, sending, domain);
    return Object.assign(api, { from: `hi@${domain}` });
  };
  const send = (api: TestProjectApi & { from: string }, to: string) =>
    api.post<ErrorBody>('/v1/send', { to, from: api.from, subject: 'Hi', body: 'Hi' });

  beforeAll(async () => {
    [db, kafka, redis, dns, smtp] = await Promise.all([
      createTestDatabase(),
      startKafka(),
      startRedis(),
      startDnsServer(),
      startSmtpSink(),
    ]);
    const env = distributedEnv(db.url, kafka.brokers, {
      DKIM_ENCRYPTION_KEY: 'distributed-test-dkim-encryption-key-0123456789',
      LINK_SECRET: 'distributed-test-link-secret-0123456789abcdef',
      DNS_SERVERS: dns.address,
    });
    await migrateApps(['gateway', 'contacts', 'domains', 'sending'], env);
    const gatewayPort = await freePort();
    const contacts = new ServiceProcess('contacts', await freePort(), env);
    const domains = new ServiceProcess('domains', await freePort(), env);
    const sendingProcess = new ServiceProcess('sending', await freePort(), {
      ...env,
      CONTACTS_URL: contacts.url,
      DOMAINS_URL: domains.url,
      APP_URL: `http://127.0.0.1:${gatewayPort}`,
      SMTP_URL: smtp.url,
    });
    processes.push(contacts, domains, sendingProcess);
    await Promise.all([contacts.start(), domains.start(), sendingProcess.start()]);
    const nowhere = 'http://127.0.0.1:9';
    gateway = new ServiceProcess('gateway', gatewayPort, {
      ...env,
      REDIS_URL: redis.url,
      RATE_LIMIT_PER_MINUTE: '100000',
      SMTP_URL: smtp.url,
      REPUTATION_MIN_SENDS: '3',
      STRIPE_SECRET_KEY: 'sk_test_distributed',
      STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
      STRIPE_PRICES: 'price_small=1/-/-',
      STRIPE_API_URL: nowhere,
      CONTACTS_URL: contacts.url,
      SENDING_URL: sendingProcess.url,
      DOMAINS_URL: domains.url,
      CAMPAIGNS_URL: nowhere,
      SEGMENTS_URL: nowhere,
      WORKFLOWS_URL: nowhere,
      ANALYTICS_URL: nowhere,
    });
    processes.push(gateway);
    await gateway.start();
    sending = new SendingDb(db.url);
  }, 180_000);

  afterAll(async () => {
    await Promise.all(processes.map((p) => p.stop()));
    await sending?.end();
    await Promise.all([kafka?.stop(), redis?.stop(), smtp?.stop(), dns?.stop()]);
    await db?.drop();
  }, 60_000);

  it('a cap refuses the next send once email.sent over Kafka counted it, and raising it is honoured at once', async () => {
    const api = await project();
    const base = `/users/@me/projects/${api.projectId}`;
    expect((await session(api.cookie, 'PUT', `${base}/billing-limits`, { transactional: 1 })).status).toBe(200);
    expect((await send(api, 'one@example.com')).status).toBe(200);
    await eventually(async () =>
      (await session(api.cookie, 'GET', `${base}/billing-consumption`)).body.categories.transactional.used === 1
        ? true
        : undefined,
    );
    const refused = await send(api, 'two@example.com');
    expect([refused.status, refused.body.error.code]).toEqual([429, 'BILLING_LIMIT_EXCEEDED']);
    expect(refused.body.error.message).toContain('transactional');
    expect((await session(api.cookie, 'PUT', `${base}/billing-limits`, { transactional: 2 })).status).toBe(200);
    expect((await send(api, 'two@example.com')).status).toBe(200);
  });

  it('bounces reported on Kafka suspend the project; sends are refused until an OWNER lifts it', async () => {
    const api = await project();
    smtp.reject({ recipient: /@gone\.example\.test$/i, code: 550 });
    for (let i = 0; i < 3; i++) expect((await send(api, `x${i}@gone.example.test`)).status).toBe(200);
    await eventually(async () =>
      (await session(api.cookie, 'GET', `/projects/${api.projectId}/security`)).body.status === 'suspended'
        ? true
        : undefined,
    );
    const refused = await send(api, 'fine@example.com');
    expect([refused.status, refused.body.error.code]).toEqual([403, 'PROJECT_SENDING_SUSPENDED']);
    expect((await session(api.cookie, 'POST', `/projects/${api.projectId}/security/lift`)).status).toBe(200);
    expect((await send(api, 'fine@example.com')).status).toBe(200);
  });

  it('the Stripe webhook is served by the gateway itself, verified over the exact bytes', async () => {
    const payload = JSON.stringify({ id: 'evt_dist_1', object: 'event', type: 'invoice.paid', data: { object: {} } });
    const deliver = (signature: string) =>
      fetch(`${gateway.url}/webhooks/incoming/stripe`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'stripe-signature': signature },
        body: payload,
      });
    const good = await deliver(Stripe.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET }));
    expect([good.status, await good.json()]).toEqual([200, { received: true, duplicate: false }]);
    const bad = await deliver(Stripe.webhooks.generateTestHeaderString({ payload, secret: 'whsec_other' }));
    expect([bad.status, ((await bad.json()) as ErrorBody).error.code]).toEqual([400, 'INVALID_WEBHOOK_SIGNATURE']);
  });
});

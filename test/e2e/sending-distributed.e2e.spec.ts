import { createHmac } from 'node:crypto';
import {
  createTestDatabase,
  distributedEnv,
  eventually,
  freePort,
  migrateApps,
  principalHeaders,
  ServiceProcess,
  startDnsServer,
  startKafka,
  startRedis,
  startSmtpSink,
  type KafkaBroker,
  type SmtpSink,
  type TestDatabase,
  type TestDnsServer,
  TEST_INTERNAL_SECRET,
} from '@herald/testing';
import { newProject, type TestProjectApi } from './contacts-helpers.js';
import { holdSenderDomainCopy, SendingDb, verifiedDomain, verifyNow } from './sending-helpers.js';

const WEBHOOK_SECRET = 'whsec_distributed_0123456789';

/**
 * Sending in distributed mode: gateway, contacts, domains and sending as their own processes over
 * Kafka. The domain's verification reaches sending as `domain.verified` on Kafka (and, before it
 * arrives, sending asks the domains process); /v1/send upserts its recipient in the contacts
 * process over internal HTTP; a signed relay webhook crosses the
 * gateway byte for byte.
 */
describe('sending across services (distributed)', () => {
  let db: TestDatabase;
  let kafka: KafkaBroker;
  let redis: { url: string; stop(): Promise<void> };
  let dns: TestDnsServer;
  let smtp: SmtpSink;
  let sending: SendingDb;
  const processes: ServiceProcess[] = [];
  let gateway: ServiceProcess;
  let sendingUrl: string;
  let api: TestProjectApi;

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
      WEBHOOK_SIGNING_SECRET: WEBHOOK_SECRET,
    });
    processes.push(contacts, domains, sendingProcess);
    sendingUrl = sendingProcess.url;
    await Promise.all([contacts.start(), domains.start(), sendingProcess.start()]);
    const nowhere = 'http://127.0.0.1:9';
    gateway = new ServiceProcess('gateway', gatewayPort, {
      ...env,
      REDIS_URL: redis.url,
      RATE_LIMIT_PER_MINUTE: '100000',
      CONTACTS_URL: contacts.url,
      SENDING_URL: sendingProcess.url,
      DOMAINS_URL: domains.url,
      CAMPAIGNS_URL: nowhere,
      SEGMENTS_URL: nowhere,
      WORKFLOWS_URL: nowhere,
      ANALYTICS_URL: nowhere,
      WEBHOOKS_URL: nowhere,
    });
    processes.push(gateway);
    await gateway.start();
    sending = new SendingDb(db.url);
    api = await newProject(gateway.url);
    await verifiedDomain(api, dns, sending, 'dist.example.test');
  }, 180_000);

  afterAll(async () => {
    await Promise.all(processes.map((p) => p.stop()));
    await sending?.end();
    await Promise.all([kafka?.stop(), redis?.stop(), smtp?.stop(), dns?.stop()]);
    await db?.drop();
  }, 60_000);

  it('sends through the gateway: the recipient becomes a contact in the contacts service and the message is delivered signed', async () => {
    const res = await api.post('/v1/send', {
      to: 'dist@example.com',
      from: 'hi@dist.example.test',
      subject: 'Hello {{svc_email}}',
      body: '<p>Hi {{name ?? "you"}}</p>',
      data: { plan: 'pro' },
    });
    expect(res.status).toBe(200);
    const [message] = await smtp.waitFor((m) => m.to.includes('dist@example.com'));
    expect(message!.subject).toBe('Hello dist@example.com');
    expect(message!.headerLines.some((h) => h.key === 'dkim-signature')).toBe(true);
    const contact = await api.contact(res.body.data.emails[0].contact.id);
    expect(contact).toMatchObject({ email: 'dist@example.com', subscribed: false, data: { plan: 'pro' } });
  });

  it("accepts mail from a domain in the very next request after its verification, before domain.verified reaches sending's copy, and signs it", async () => {
    const hold = await holdSenderDomainCopy(db.url);
    let domainId = '';
    try {
      domainId = (await verifyNow(api, dns, 'ryw-dist.example.test')).id;
      const sent = await api.post('/v1/send', {
        to: 'ryw-dist@example.com',
        from: 'hi@ryw-dist.example.test',
        subject: 'Right away',
        body: 'Hi',
      });
      expect(sent.status).toBe(200);
      const template = await api.post('/templates', {
        name: 'Now',
        subject: 'Hi',
        body: 'Hi',
        from: 'news@ryw-dist.example.test',
      });
      expect(template.status).toBe(201);
      const [message] = await smtp.waitFor((m) => m.to.includes('ryw-dist@example.com'));
      expect(message!.headerLines.find((h) => h.key === 'dkim-signature')?.line).toContain('d=ryw-dist.example.test');
      expect(await hold.copyOf(domainId)).toBeUndefined();
    } finally {
      await hold.release();
    }
    await eventually(async () => ((await sending.senderDomain(domainId))?.verified ? true : undefined), {
      timeoutMs: 30_000,
    });
  });

  it('shows what became of an email through the gateway (GET /emails/:id, GET /emails)', async () => {
    const res = await api.post('/v1/send', {
      to: 'seen@example.com',
      from: 'hi@dist.example.test',
      subject: 'Seen',
      body: 'Hi',
    });
    expect(res.body.data.emails[0]).toMatchObject({ status: 'queued' });
    const id = res.body.data.emails[0].email;
    const shown = await eventually(async () => {
      const r = await api.get(`/emails/${id}`);
      return r.status === 200 && r.body.status === 'sent' ? r.body : undefined;
    });
    expect(shown.events.map((e: { type: string }) => e.type)).toEqual(['sent']);
    const listed = await api.get(`/emails?contactId=${res.body.data.emails[0].contact.id}`);
    expect(listed.body).toMatchObject({ total: 1, data: [{ id, subject: 'Seen' }] });
  });

  it('takes mail of another service on its intake call (POST /internal/calls/sending.intake): a recipient given by address is looked up in the contacts process, and email.sent names the workflow', async () => {
    const created = await api.post('/contacts', { email: 'wf@example.com', subscribed: true, data: { name: 'Wanda' } });
    expect(created.status).toBeLessThan(300);
    const item = {
      key: 'workflow:wex_1:step_1',
      to: 'wf@example.com',
      from: 'hi@dist.example.test',
      subject: 'Hi {{name}}',
      body: '<p>You did {{event.kind}}</p>',
      data: { event: { kind: 'signup' } },
      category: 'marketing',
      origin: 'workflow',
      workflowId: 'wfl_1',
      executionId: 'wex_1',
    };
    const service = { kind: 'service' as const, service: 'workflows', projectId: api.projectId };
    const res = await fetch(`${sendingUrl}/internal/calls/sending.intake`, {
      method: 'POST',
      headers: principalHeaders(api.projectId, TEST_INTERNAL_SECRET, service),
      body: JSON.stringify({ items: [item] }),
    });
    const body = (await res.json()) as { results: { status: string; emailId: string }[] };
    expect({ status: res.status, result: body.results?.[0]?.status }).toEqual({ status: 200, result: 'queued' });
    const [message] = await smtp.waitFor((m) => m.to.includes('wf@example.com'));
    expect(message!.subject).toBe('Hi Wanda');
    expect(message!.html).toContain('You did signup');
    const payload = await eventually(async () => {
      const { rows } = await sending.query(
        `SELECT envelope->'payload' AS payload FROM sending.outbox WHERE topic = 'email.sent' AND envelope->'payload'->>'emailId' = $1`,
        [body.results[0]!.emailId],
      );
      return rows[0]?.payload as Record<string, unknown> | undefined;
    });
    expect(payload).toMatchObject({ origin: 'workflow', workflowId: 'wfl_1', email: 'wf@example.com' });
    const viaGateway = await fetch(`${gateway.url}/internal/calls/sending.intake`, {
      method: 'POST',
      headers: { authorization: `Bearer ${api.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ items: [{ ...item, key: 'workflow:wex_1:step_2' }] }),
    });
    expect(viaGateway.status).toBe(404);
  });

  it('keeps /internal routes unreachable through the gateway', async () => {
    const domains = await fetch(`${gateway.url}/internal/calls/domains.senderDomain`, {
      method: 'POST',
      headers: { authorization: `Bearer ${api.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ domain: 'dist.example.test' }),
    });
    expect(domains.status).toBe(404);
    const res = await fetch(`${gateway.url}/internal/calls/contacts.upsert`, {
      method: 'POST',
      headers: { authorization: `Bearer ${api.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'x@example.com', subscribedIfNew: true, reason: 'send' }),
    });
    expect(res.status).toBe(404);
  });

  it('forwards a signed relay webhook to sending byte for byte (its HMAC still verifies) and the complaint unsubscribes the contact', async () => {
    const res = await api.post('/v1/send', {
      to: 'unhappy@example.com',
      from: 'hi@dist.example.test',
      subject: 'Hi',
      body: 'Hi',
      subscribed: true,
    });
    const [message] = await smtp.waitFor((m) => m.to.includes('unhappy@example.com'));
    // pretty-printed on purpose: a proxy that re-serialises JSON would break the signature
    const raw = JSON.stringify(
      { id: 'n-1', type: 'complaint', email: 'unhappy@example.com', messageId: message!.messageId },
      null,
      2,
    );
    const t = Math.floor(Date.now() / 1000);
    const signature = `t=${t},v1=${createHmac('sha256', WEBHOOK_SECRET).update(`${t}.${raw}`).digest('hex')}`;
    const hook = await fetch(`${gateway.url}/webhooks/generic`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-herald-signature': signature },
      body: raw,
    });
    expect(hook.status).toBe(200);
    expect(await hook.json()).toMatchObject({ received: true, duplicate: false });
    await eventually(
      async () => ((await api.contact(res.body.data.emails[0].contact.id)).subscribed === false ? true : undefined),
      { timeoutMs: 30_000 },
    );
  });
});

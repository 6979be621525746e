import {
  e2eMode,
  eventually as eventuallyWithin,
  signUp,
  startDnsServer,
  startSmtpSink,
  startTopology,
  type SmtpSink,
  type TestDnsServer,
  type Topology,
} from '@herald/testing';
import {
  addsUp,
  campaignIn,
  createCampaign,
  recipientsOf,
  statsOf,
  type CampaignBody,
  type StatsBody,
} from './campaigns-helpers.js';
import { newProject, type ErrorBody, type Json, type Reply, type TestProjectApi } from './contacts-helpers.js';
import { createSegment, where } from './segments-helpers.js';
import { SendingDb, verifiedDomain } from './sending-helpers.js';

/** Eventual rules get 30 s: a loaded machine, and Kafka between the services in distributed mode. */
const eventually: typeof eventuallyWithin = (probe, options = {}) =>
  eventuallyWithin(probe, { timeoutMs: 30_000, ...options });

interface ConsumptionBody {
  periodStart: string;
  periodEnd: string;
  categories: Record<string, { used: number; cap: number | null; periodStart: string; periodEnd: string }>;
}

interface SecurityBody {
  status: 'active' | 'warning' | 'suspended';
  rates: { last7Days: { sends: number; bounces: number; bounceRate: number }; last1000Sends: { sends: number } };
  domains: { domain: string; sends: number; bounces: number }[];
  thresholds: { bounceSuspend: number; complaintSuspend: number; minSends: number };
  suspension: { id: string; reason: string; bounceRate: number } | null;
  recentSuspensions: { id: string; liftedAt: string | null; liftedBy: string | null }[];
}

/**
 * Caps, consumption and sender reputation through the public API, in the run's mode (HERALD_E2E_MODE:
 * one process, or every service its own over Kafka, where consumption reaches the gateway as
 * `email.sent` / `email.bounced` and sending asks the gateway before each send): sends into a
 * loopback SMTP sink (which can answer 550, or 451 to hold a campaign's emails in flight), the
 * owners' notices in the same sink (issue 25; docs/billing.md). Campaigns hand over batches of 5 with
 * at most 5 in flight, so a held batch keeps a campaign mid-send.
 */
describe(`billing caps, consumption and sender reputation (${e2eMode()})`, () => {
  let dns: TestDnsServer;
  let smtp: SmtpSink;
  let herald: Topology;
  let sending: SendingDb;
  let seq = 0;

  const session = async (cookie: string, method: string, path: string, body?: unknown): Promise<Reply> => {
    const res = await fetch(`${herald.url}${path}`, {
      method,
      headers: { cookie, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status, body: text ? (JSON.parse(text) as Json) : undefined };
  };

  /** A fresh account (its own owner address) with a project and a verified sender domain. */
  const project = async (): Promise<TestProjectApi & { from: string; ownerEmail: string }> => {
    const ownerEmail = `owner-${++seq}-${Date.now().toString(36)}@owners.example.test`;
    const { cookie } = await signUp(herald.url, ownerEmail);
    const api = await newProject(herald.url, cookie);
    const domain = `b${seq}-${Date.now().toString(36)}.example.test`;
    await verifiedDomain(api, dns, sending, domain);
    return Object.assign(api, { from: `hello@${domain}`, ownerEmail });
  };

  const send = (api: TestProjectApi & { from: string }, to: string) =>
    api.post<ErrorBody>('/v1/send', { to, from: api.from, subject: 'Hello', body: '<p>Hello</p>' });

  const consumption = async (api: TestProjectApi) =>
    (await session(api.cookie, 'GET', `/users/@me/projects/${api.projectId}/billing-consumption`))
      .body as ConsumptionBody;

  const security = async (api: TestProjectApi, path = `/projects/${api.projectId}/security`) =>
    (await session(api.cookie, 'GET', path)).body as SecurityBody;

  /** A second account, added to the project as a MEMBER. */
  const member = async (api: TestProjectApi): Promise<string> => {
    const email = `member-${++seq}@example.com`;
    const { cookie } = await signUp(herald.url, email);
    const added = await session(api.cookie, 'POST', `/projects/${api.projectId}/members`, { email, role: 'MEMBER' });
    expect(added.status).toBe(201);
    return cookie;
  };

  beforeAll(async () => {
    dns = await startDnsServer();
    smtp = await startSmtpSink();
    herald = await startTopology({
      exclusive: true,
      env: {
        RATE_LIMIT_PER_MINUTE: '100000',
        DNS_SERVERS: dns.address,
        SMTP_URL: smtp.url,
        REPUTATION_MIN_SENDS: '5',
        CAMPAIGN_BATCH_SIZE: '5',
        CAMPAIGN_IN_FLIGHT: '5',
        DELIVERY_RETRY_BASE_MS: '500',
      },
    });
    sending = new SendingDb(herald.db.url);
  }, 360_000);

  afterAll(async () => {
    await sending?.end();
    await herald?.stop();
    await smtp?.stop();
    await dns?.stop();
  }, 60_000);

  it('meters sends, tracked events and stored contacts in the current calendar month', async () => {
    const api = await project();
    expect((await send(api, 'one@example.com')).status).toBe(200);
    expect((await api.post('/v1/track', { email: 'two@example.com', event: 'signup' })).status).toBeLessThan(300);
    await eventually(async () => {
      const c = await consumption(api);
      return c.categories.transactional!.used === 1 &&
        c.categories.events!.used === 1 &&
        c.categories.contacts!.used === 2
        ? c
        : undefined;
    });
    const c = await consumption(api);
    const now = new Date();
    expect(c.periodStart).toBe(new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1)).toISOString());
    expect(c.categories.campaign).toMatchObject({ used: 0, cap: null });
  });

  it('a cap refuses the next send with 429 BILLING_LIMIT_EXCEEDED naming the category and the reset; the owners are emailed at 80% and 100%; raising it works at once', async () => {
    const api = await project();
    const limits = `/users/@me/projects/${api.projectId}/billing-limits`;
    const put = await session(api.cookie, 'PUT', limits, { transactional: 2 });
    expect(put.status).toBe(200);
    expect(put.body).toMatchObject({ transactional: 2, campaign: null, workflow: null });
    expect((await session(api.cookie, 'GET', limits)).body).toMatchObject({ transactional: 2 });

    expect((await send(api, 'a@example.com')).status).toBe(200);
    expect((await send(api, 'b@example.com')).status).toBe(200);
    await eventually(async () => ((await consumption(api)).categories.transactional!.used === 2 ? true : undefined));
    const refused = await send(api, 'c@example.com');
    expect(refused.status).toBe(429);
    expect(refused.body.error.code).toBe('BILLING_LIMIT_EXCEEDED');
    const { periodEnd } = await consumption(api);
    expect(refused.body.error.message).toContain('transactional');
    expect(refused.body.error.message).toContain(periodEnd);

    const notices = await smtp.waitFor({
      where: (m) => m.to.includes(api.ownerEmail) && /cap/.test(m.subject ?? ''),
      count: 2,
    });
    expect(notices.map((m) => m.subject).sort()).toEqual([
      'Herald: 80% of the transactional email cap is used',
      'Herald: the transactional email cap is reached',
    ]);

    expect((await session(api.cookie, 'PUT', limits, { transactional: 3 })).status).toBe(200);
    expect((await send(api, 'c@example.com')).status).toBe(200);
    expect((await session(api.cookie, 'PUT', limits, { transactional: null })).status).toBe(200);
    expect((await send(api, 'd@example.com')).status).toBe(200);
  });

  it('a burst of concurrent sends is held to the cap before any of it is delivered', async () => {
    const api = await project();
    const limits = `/users/@me/projects/${api.projectId}/billing-limits`;
    expect((await session(api.cookie, 'PUT', limits, { transactional: 3 })).status).toBe(200);
    const answers = await Promise.all(Array.from({ length: 6 }, (_, i) => send(api, `burst${i}@example.com`)));
    expect(answers.map((a) => a.status).sort()).toEqual([200, 200, 200, 429, 429, 429]);
    const c = await consumption(api);
    expect(c.categories.transactional).toMatchObject({ admitted: 3, cap: 3 });
  });

  it('validates caps (422 per field) and lets only an OWNER or ADMIN change them', async () => {
    const api = await project();
    const limits = `/users/@me/projects/${api.projectId}/billing-limits`;
    const bad = await session(api.cookie, 'PUT', limits, { transactional: -1, campaign: 'many', sms: 3 });
    expect(bad.status).toBe(422);
    expect((bad.body as ErrorBody).error.errors!.map((e) => e.field)).toEqual(['transactional', 'campaign', 'sms']);
    const memberCookie = await member(api);
    const denied = await session(memberCookie, 'PUT', limits, { transactional: 5 });
    expect([denied.status, (denied.body as ErrorBody).error.code]).toEqual([403, 'INSUFFICIENT_ROLE']);
    expect((await session(memberCookie, 'GET', limits)).status).toBe(200);
    const stranger = await signUp(herald.url, `stranger-${++seq}@example.com`);
    expect((await session(stranger.cookie, 'GET', limits)).status).toBe(404);
  });

  it('a bounce storm (the relay answering 550) suspends sending; /security shows it; a MEMBER cannot lift it, an OWNER can', async () => {
    const api = await project();
    smtp.reject({ recipient: /@storm\.example\.test$/i, code: 550, message: 'No such user' });
    for (let i = 0; i < 5; i++) expect((await send(api, `gone${i}@storm.example.test`)).status).toBe(200);
    await eventually(async () => ((await security(api)).status === 'suspended' ? true : undefined), {
      message: 'the project was never suspended',
    });
    const state = await security(api, `/users/@me/projects/${api.projectId}/security`);
    expect(state.suspension).toMatchObject({ reason: 'bounce_rate', bounceRate: 1 });
    expect(state.rates.last7Days).toMatchObject({ sends: 5, bounces: 5, bounceRate: 1 });
    expect(state.domains).toEqual([
      { domain: api.from.split('@')[1], sends: 5, bounces: 5, complaints: 0, bounceRate: 1, complaintRate: 0 },
    ]);
    expect(state.thresholds).toMatchObject({ bounceSuspend: 0.1, complaintSuspend: 0.003, minSends: 5 });

    const refused = await send(api, 'fine@example.com');
    expect([refused.status, refused.body.error.code]).toEqual([403, 'PROJECT_SENDING_SUSPENDED']);
    await smtp.waitFor((m) => m.to.includes(api.ownerEmail) && /suspended/.test(m.subject ?? ''));

    const memberCookie = await member(api);
    const denied = await session(memberCookie, 'POST', `/projects/${api.projectId}/security/lift`);
    expect([denied.status, (denied.body as ErrorBody).error.code]).toEqual([403, 'INSUFFICIENT_ROLE']);
    const lifted = await session(api.cookie, 'POST', `/projects/${api.projectId}/security/lift`);
    expect(lifted.status).toBe(200);
    const after = await security(api);
    expect(after.status).toBe('active');
    expect(after.recentSuspensions[0]).toMatchObject({ id: state.suspension!.id, liftedBy: expect.any(String) });
    expect((await send(api, 'fine@example.com')).status).toBe(200);
  });

  it('a campaign meeting a sending suspension stops: its remaining recipients end skipped: sending_suspended, the ledger adds up, and it ends with stoppedReason sending_suspended', async () => {
    const api = await project();
    const audience = Array.from({ length: 15 }, (_, i) => `r${i}-p${seq}@held.example.test`);
    for (const email of audience) await api.upsert(email);
    const everyone = await createSegment(api, { name: 'everyone', filters: where('email', 'contains', '@') });
    await eventually(
      async () => {
        const res = await api.get<{ total: number }>(`/segments/${everyone.id}/contacts?pageSize=1`);
        return res.body.total >= audience.length ? true : undefined;
      },
      { message: "segments' read model never held the audience" },
    );
    // the relay defers the campaign's emails (451) until the project is suspended: its first batch
    // stays in flight, so the campaign is mid-send, with 10 recipients pending, when the suspension comes
    let holding = true;
    smtp.reject({ recipient: (a) => holding && audience.includes(a.toLowerCase()), code: 451, message: 'Try later' });
    smtp.reject({ recipient: /@suspend\.example\.test$/i, code: 550, message: 'No such user' });

    const c = await createCampaign(api, {
      name: 'Spring',
      subject: 'Hello',
      body: '<p>Hello</p>',
      from: api.from,
      audienceType: 'ALL',
    });
    expect((await api.post(`/campaigns/${c.id}/send`)).status).toBeLessThan(300);
    await eventually(
      async () => {
        const s = await statsOf(api, c.id);
        return s.recipients === 15 && s.queued === 5 && s.pending === 10 ? s : undefined;
      },
      { message: "the campaign's first batch was never in flight" },
    );

    for (let i = 0; i < 5; i++) expect((await send(api, `gone${i}@suspend.example.test`)).status).toBe(200);
    await eventually(async () => ((await security(api)).status === 'suspended' ? true : undefined), {
      message: 'the project was never suspended',
    });
    holding = false;

    // the held batch goes out; the next one is refused (403) and the campaign stops
    await campaignIn(api, c.id, 'SENT', 120_000);
    const stats: StatsBody = await statsOf(api, c.id);
    expect(stats).toMatchObject({
      recipients: 15,
      sent: 5,
      failed: 0,
      skipped: 10,
      sendingSuspended: 10,
      billingLimit: 0,
    });
    expect(addsUp(stats)).toBe(true);
    expect((await recipientsOf(api, c.id, 'status=skipped&reason=sending_suspended')).length).toBe(10);
    expect((await api.get<CampaignBody>(`/campaigns/${c.id}`)).body).toMatchObject({
      status: 'SENT',
      stoppedReason: 'sending_suspended',
    });
    const delivered = smtp.messages.filter((m) => m.to.some((a) => audience.includes(a.toLowerCase())));
    expect(new Set(delivered.flatMap((m) => m.to)).size).toBe(5);
    expect(delivered).toHaveLength(5);
  });

  it('without Stripe configured, /config says billing is off and the payment routes and the Stripe webhook answer 409 BILLING_NOT_CONFIGURED', async () => {
    const config = (await (await fetch(`${herald.url}/config`)).json()) as { billing: { enabled: boolean } };
    expect(config.billing).toEqual({ enabled: false, provider: null });
    const api = await project();
    for (const [method, path] of [
      ['POST', 'checkout'],
      ['POST', 'billing-portal'],
      ['GET', 'billing-invoices'],
    ] as const) {
      const res = await session(
        api.cookie,
        method,
        `/users/@me/projects/${api.projectId}/${path}`,
        method === 'POST' ? {} : undefined,
      );
      expect([res.status, (res.body as ErrorBody).error.code]).toEqual([409, 'BILLING_NOT_CONFIGURED']);
    }
    // no session, any signature: the webhook says billing is off before it verifies anything
    const hook = await fetch(`${herald.url}/webhooks/incoming/stripe`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'stripe-signature': 't=1,v1=00' },
      body: JSON.stringify({ id: 'evt_unconfigured', type: 'customer.subscription.updated' }),
    });
    expect([hook.status, ((await hook.json()) as ErrorBody).error.code]).toEqual([409, 'BILLING_NOT_CONFIGURED']);
  });
});

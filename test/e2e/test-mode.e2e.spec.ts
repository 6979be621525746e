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
import pg from 'pg';
import { ProjectApi, type Json, type Reply } from './contacts-helpers.js';
import { SendingDb, verifiedDomain } from './sending-helpers.js';

/** Eventual rules get 30 s: a loaded machine, and Kafka between the services in distributed mode. */
const eventually: typeof eventuallyWithin = (probe, options = {}) =>
  eventuallyWithin(probe, { timeoutMs: 30_000, ...options });

const SANDBOX = 'sandbox.herald.test';
const at = (local: string) => `${local}@${SANDBOX}`;

interface CreatedProject {
  id: string;
  secretKey: string;
  publicKey: string;
  testSecretKey: string;
  testPublicKey: string;
  keys: Record<'secret' | 'public' | 'testSecret' | 'testPublic', { prefix: string } | null>;
}

interface SendBody {
  success: true;
  data: { emails: { contact: { id: string; email: string }; email: string; status: string; reason?: string }[] };
}

interface EmailBody {
  id: string;
  status: string;
  reason?: string;
  testMode: boolean;
  complainedAt: string | null;
  bouncedAt: string | null;
  error: string | null;
  events: { type: string; bounceType?: string }[];
}

interface FeedItem {
  type: string;
  email?: { id: string };
  data: Record<string, unknown>;
}

/**
 * Test mode through the gateway, in the run's mode (docs/test-mode.md): a project's test keys, the
 * sandbox outcomes end to end (the email's status and history, its event in the activity feed),
 * nothing at the SMTP sink, and billing usage, sender reputation and analytics totals unchanged by
 * test traffic. The sink is the relay: a test-mode email reaching it would be a failure.
 */
describe(`test mode: test keys and sandbox recipients (${e2eMode()})`, () => {
  let dns: TestDnsServer;
  let smtp: SmtpSink;
  let herald: Topology;
  let sending: SendingDb;
  let db: pg.Pool;
  let seq = 0;

  const session = async <T = Json>(cookie: string, method: string, path: string, body?: unknown): Promise<Reply<T>> => {
    const res = await fetch(`${herald.url}${path}`, {
      method,
      headers: { cookie, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status, body: (text ? JSON.parse(text) : undefined) as T };
  };

  /** A fresh account and project with a verified sender domain: its live and test APIs. */
  const project = async () => {
    const { cookie } = await signUp(herald.url, `owner-${++seq}-${Date.now().toString(36)}@owners.example.test`);
    const created = await session<CreatedProject>(cookie, 'POST', '/users/@me/projects', { name: 'Test mode' });
    expect(created.status).toBe(201);
    const p = created.body;
    const live = new ProjectApi(herald.url, p.secretKey);
    const test = new ProjectApi(herald.url, p.testSecretKey);
    const domain = `t${seq}-${Date.now().toString(36)}.example.test`;
    await verifiedDomain(live, dns, sending, domain);
    return { cookie, projectId: p.id, created: p, live, test, from: `hello@${domain}` };
  };
  type Project = Awaited<ReturnType<typeof project>>;

  const send = (api: ProjectApi, from: string, to: string | string[], extra: Record<string, unknown> = {}) =>
    api.post<SendBody>('/v1/send', { to, from, subject: 'Hello {{email}}', body: '<p>Hello</p>', ...extra });

  /** GET /emails/:id once the email has left the queue (any status but queued and sending). */
  const settled = (api: ProjectApi, id: string) =>
    eventually(
      async () => {
        const r = await api.get<EmailBody>(`/emails/${id}`);
        return r.status === 200 && !['queued', 'sending'].includes(r.body.status) ? r.body : undefined;
      },
      { message: `email ${id} never left the queue` },
    );

  /** The project's feed items of these emails, once there are `count` of them. */
  const feedOf = (api: ProjectApi, ids: string[], count: number) =>
    eventually(
      async () => {
        const r = await api.get<{ data: FeedItem[] }>('/activity?limit=100');
        const items = r.body.data.filter((i) => i.email && ids.includes(i.email.id));
        return items.length >= count ? items : undefined;
      },
      { message: 'the activity feed never showed the emails' },
    );

  /**
   * The event ids sending published for these emails (its history: the `email.*` events), of the
   * topics a consumer reads (`types`: the gateway meters sent, bounced and complained only).
   */
  const eventIds = async (emailIds: string[], types = ['sent', 'delivered', 'bounced', 'complained']) =>
    (
      await db.query(`SELECT event_id FROM sending.email_events WHERE email_id = ANY($1) AND type = ANY($2)`, [
        emailIds,
        types,
      ])
    ).rows.map((r: { event_id: string }) => r.event_id as string);
  const METERED = ['sent', 'bounced', 'complained'];

  /** Waits until the consumer of `schema` (gateway, analytics) has applied every one of these events (its inbox). */
  const applied = (schema: 'gateway' | 'analytics' | 'contacts', ids: string[]) =>
    eventually(
      async () => {
        const { rows } = await db.query(
          `SELECT count(DISTINCT event_id)::int AS n FROM ${schema}.inbox WHERE event_id = ANY($1::uuid[])`,
          [ids],
        );
        return rows[0].n === ids.length ? true : undefined;
      },
      { message: `${schema} never applied the test-mode events` },
    );

  /** Everything billing, reputation and analytics report of a project, as one comparable value (a fixed chart range). */
  const range = `from=${new Date(Date.now() - 86_400_000).toISOString()}&to=${new Date(Date.now() + 3_600_000).toISOString()}`;
  const totals = async (p: Project) => {
    const consumption = await session<{ categories: Record<string, unknown> }>(
      p.cookie,
      'GET',
      `/users/@me/projects/${p.projectId}/billing-consumption`,
    );
    const security = await session<{ status: string; rates: unknown; domains: unknown }>(
      p.cookie,
      'GET',
      `/projects/${p.projectId}/security`,
    );
    return {
      usage: consumption.body.categories,
      reputation: { status: security.body.status, rates: security.body.rates, domains: security.body.domains },
      timeseries: (await p.live.get(`/analytics/timeseries?${range}`)).body,
      stats: (await p.live.get<{ totals: unknown }>(`/activity/stats?${range}`)).body.totals,
      types: (await p.live.get('/activity/types')).body,
      recent: (await p.live.get<{ count: number }>('/activity/recent-count?minutes=120')).body.count,
    };
  };

  beforeAll(async () => {
    dns = await startDnsServer();
    smtp = await startSmtpSink();
    herald = await startTopology({
      exclusive: true,
      env: { RATE_LIMIT_PER_MINUTE: '100000', DNS_SERVERS: dns.address, SMTP_URL: smtp.url, REPUTATION_MIN_SENDS: '1' },
    });
    sending = new SendingDb(herald.db.url);
    db = new pg.Pool({ connectionString: herald.db.url, max: 2 });
  }, 360_000);

  afterAll(async () => {
    await db?.end();
    await sending?.end();
    await herald?.stop();
    await smtp?.stop();
    await dns?.stop();
  }, 60_000);

  it('a project has test keys beside its live ones: shown by prefix, rotated on their own, each pair working alone', async () => {
    const p = await project();
    const { created } = p;
    expect(created.testSecretKey).toMatch(/^sk_test_[0-9a-f]{48}$/);
    expect(created.testPublicKey).toMatch(/^pk_test_[0-9a-f]{48}$/);
    expect(created.keys.testSecret).toMatchObject({ prefix: created.testSecretKey.slice(0, 15) });
    expect(created.keys.testPublic).toMatchObject({ prefix: created.testPublicKey.slice(0, 15) });
    const listed = await session<CreatedProject[]>(p.cookie, 'GET', '/users/@me/projects');
    expect(listed.body[0]!.keys.testSecret).toMatchObject({ prefix: created.testSecretKey.slice(0, 15) });
    expect(JSON.stringify(listed.body)).not.toContain(created.testSecretKey);

    const rotated = await session<CreatedProject>(
      p.cookie,
      'POST',
      `/users/@me/projects/${p.projectId}/regenerate-test-keys`,
    );
    expect(rotated.status).toBe(200);
    expect(rotated.body.testSecretKey).toMatch(/^sk_test_/);
    expect(rotated.body).not.toHaveProperty('secretKey');
    expect((await p.test.get('/emails')).status).toBe(401);
    expect((await new ProjectApi(herald.url, rotated.body.testSecretKey).get('/emails')).status).toBe(200);
    expect((await p.live.get('/emails')).status).toBe(200);

    const live = await session<CreatedProject>(p.cookie, 'POST', `/users/@me/projects/${p.projectId}/regenerate-keys`);
    expect(live.status).toBe(200);
    expect((await p.live.get('/emails')).status).toBe(401);
    expect((await new ProjectApi(herald.url, rotated.body.testSecretKey).get('/emails')).status).toBe(200);
    // a public test key, like a live one, reaches /v1/track only
    const pkTest = new ProjectApi(herald.url, rotated.body.testPublicKey);
    expect((await pkTest.get('/emails')).status).toBe(403);
  });

  it('each sandbox outcome end to end under a test key: the status, the history and the feed mark it, and nothing reaches the relay', async () => {
    const p = await project();
    const to = [at('delivered'), at('bounced'), at('complained'), at('suppressed'), 'someone@example.com'];
    const answer = await send(p.test, p.from, to);
    expect(answer.status).toBe(200);
    const emails = answer.body.data.emails;
    expect(emails.map((e) => [e.contact.email, e.status, e.reason])).toEqual([
      [at('delivered'), 'queued', undefined],
      [at('bounced'), 'queued', undefined],
      [at('complained'), 'queued', undefined],
      [at('suppressed'), 'skipped', 'suppressed'],
      ['someone@example.com', 'queued', undefined],
    ]);
    // a test key writes no contact: these addresses are no contacts of the project
    expect(emails.every((e) => e.contact.id === '')).toBe(true);
    const [delivered, bounced, complained, suppressed, other] = await Promise.all(
      emails.map((e) => settled(p.test, e.email)),
    );

    const outcome = (e: EmailBody) => [e.status, e.testMode, e.events.map((ev) => ev.type)];
    expect(outcome(delivered!)).toEqual(['delivered', true, ['sent', 'delivered']]);
    expect(outcome(bounced!)).toEqual(['bounced', true, ['bounced']]);
    expect(bounced!.events[0]).toMatchObject({ bounceType: 'permanent' });
    expect(bounced!.error).toMatch(/^550 5\.1\.1 Test mode/);
    expect(outcome(complained!)).toEqual(['delivered', true, ['sent', 'delivered', 'complained']]);
    expect(complained!.complainedAt).not.toBeNull();
    expect(outcome(suppressed!)).toEqual(['skipped', true, []]);
    expect(suppressed!.reason).toBe('suppressed');
    expect(outcome(other!)).toEqual(['delivered', true, ['sent', 'delivered']]);

    // the events went out on the bus: the feed (analytics' consumer) shows each one, marked
    const ids = emails.map((e) => e.email);
    const items = await feedOf(p.test, ids, 8);
    const byEmail = (id: string) =>
      items
        .filter((i) => i.email!.id === id)
        .map((i) => i.type)
        .sort();
    expect([delivered, bounced, complained, suppressed, other].map((e) => byEmail(e!.id))).toEqual([
      ['email.delivered', 'email.sent'],
      ['email.bounced'],
      ['email.complained', 'email.delivered', 'email.sent'],
      [],
      ['email.delivered', 'email.sent'],
    ]);
    expect(items.every((i) => i.data.testMode === true)).toBe(true);

    // a live email sent after them reaches the relay; none of the test ones ever did
    await send(p.live, p.from, 'live-after-tests@example.com');
    await smtp.waitFor((m) => m.to.includes('live-after-tests@example.com'));
    expect(smtp.messages.filter((m) => m.to.some((r) => to.includes(r)))).toEqual([]);
    // a simulated bounce suppresses nothing: the address is not on the live suppression list
    const { rows } = await db.query(`SELECT email FROM sending.suppressions WHERE project_id = $1`, [p.projectId]);
    expect(rows).toEqual([]);
  });

  it('test traffic leaves billing usage, sender reputation and analytics totals as they were', async () => {
    const p = await project();
    // a live send first, so that the totals are not all empty
    const first = await send(p.live, p.from, 'counted@example.com');
    await settled(p.live, first.body.data.emails[0]!.email);
    await applied('gateway', await eventIds([first.body.data.emails[0]!.email], METERED));
    await applied('analytics', await eventIds([first.body.data.emails[0]!.email]));
    const before = await totals(p);
    expect(before.usage).toMatchObject({ transactional: expect.objectContaining({ used: 1 }) });

    // bounces and complaints enough to suspend a live sender (REPUTATION_MIN_SENDS 1), through both routes
    const single = await send(p.test, p.from, [at('bounced'), at('complained'), at('delivered'), 'anyone@example.com']);
    const batch = await p.test.post<{ data: { items: { emails: { email: string }[] }[] } }>('/v1/send/batch', [
      { to: at('bounced+batch'), from: p.from, subject: 'Hi', body: 'Hi' },
      { to: at('complained+batch'), from: p.from, subject: 'Hi', body: 'Hi' },
    ]);
    expect([single.status, batch.status]).toEqual([200, 200]);
    const ids = [
      ...single.body.data.emails.map((e) => e.email),
      ...batch.body.data.items.flatMap((i) => i.emails.map((e) => e.email)),
    ];
    for (const id of ids) expect((await settled(p.test, id)).testMode).toBe(true);
    const events = await eventIds(ids);
    // bounced 1, complained 3 (sent, delivered, complained), delivered and anyone 2 each; the batch's 1 and 3
    expect(events).toHaveLength(12);
    // both consumers applied every test-mode event: whatever they were going to count is counted
    await applied('gateway', await eventIds(ids, METERED));
    await applied('analytics', events);

    expect(await totals(p)).toEqual(before);
    // the live sender is not suspended: a live send is still accepted
    expect((await send(p.live, p.from, 'still-sending@example.com')).status).toBe(200);
  });

  it('a sandbox address is simulated with a live key too: never relayed, counted nowhere, its contact left subscribed', async () => {
    const p = await project();
    const contact = await p.live.upsert(at('bounced'), undefined, { subscribed: true });
    const answer = await send(p.live, p.from, at('bounced'));
    expect(answer.body.data.emails[0]!.contact.id).toBe(contact.id);
    const email = await settled(p.live, answer.body.data.emails[0]!.email);
    expect([email.status, email.testMode]).toEqual(['bounced', true]);
    await applied('gateway', await eventIds([email.id], METERED));
    await applied('contacts', await eventIds([email.id]));
    // contacts applied the bounce and unsubscribed no one; a second send is not suppressed
    expect((await p.live.contact(contact.id)).subscribed).toBe(true);
    const again = await send(p.live, p.from, at('bounced'));
    expect(again.body.data.emails[0]!.status).toBe('queued');
    const consumption = await session<{ categories: { transactional: { used: number } } }>(
      p.cookie,
      'GET',
      `/users/@me/projects/${p.projectId}/billing-consumption`,
    );
    expect(consumption.body.categories.transactional.used).toBe(0);
    await settled(p.live, again.body.data.emails[0]!.email);
    expect(smtp.messages.filter((m) => m.to.some((r) => r.endsWith(`@${SANDBOX}`)))).toEqual([]);
  });
});

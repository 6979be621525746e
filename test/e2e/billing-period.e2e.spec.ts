import {
  e2eMode,
  eventually,
  signUp,
  startDnsServer,
  startSmtpSink,
  startTopology,
  type SmtpSink,
  type TestDnsServer,
  type Topology,
} from '@herald/testing';
import { newProject, type ErrorBody, type Json, type Reply, type TestProjectApi } from './contacts-helpers.js';
import { SendingDb, verifiedDomain } from './sending-helpers.js';

/** A calendar month's end, far from the real one: usage metered by the real month would not show here. */
const PERIOD_END = '2040-01-01T00:00:00.000Z';
const NEXT_PERIOD_END = '2040-02-01T00:00:00.000Z';
/**
 * How long before PERIOD_END the gateway's billing clock starts: the time the rest of the topology,
 * a project and the first send take on a loaded machine, with room to spare (a distributed topology
 * has taken over 30 s to become ready at a load of 40; the test waits out the rest of the lead).
 */
const LEAD_S = 150;

interface ConsumptionBody {
  periodStart: string;
  periodEnd: string;
  categories: Record<string, { used: number; admitted?: number; cap: number | null }>;
}

/**
 * A cap resets in the next billing period (issue 25), end to end, in the run's mode: the gateway's
 * billing clock is started LEAD_S before a calendar month ends (`BILLING_CLOCK_START`, docs/billing.md,
 * "The billing clock"), so the period turns while the test waits for it with a deadline; no test
 * code reads a clock. The topology is the file's own: the clock is the gateway process's.
 */
describe(`a billing cap across a period's end (${e2eMode()})`, () => {
  let dns: TestDnsServer;
  let smtp: SmtpSink;
  let herald: Topology;
  let sending: SendingDb;

  const session = async (cookie: string, method: string, path: string, body?: unknown): Promise<Reply> => {
    const res = await fetch(`${herald.url}${path}`, {
      method,
      headers: { cookie, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status, body: text ? (JSON.parse(text) as Json) : undefined };
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
        NODE_ENV: 'test', // BILLING_CLOCK_START is refused in production
        BILLING_CLOCK_START: new Date(Date.parse(PERIOD_END) - LEAD_S * 1000).toISOString(),
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

  it('a cap refuses the next send until the period resets; the next period counts anew, under the same cap', async () => {
    const { cookie } = await signUp(herald.url, 'owner@period.example.test');
    const api: TestProjectApi = await newProject(herald.url, cookie);
    await verifiedDomain(api, dns, sending, 'period.example.test');
    const send = (to: string) =>
      fetch(`${api.baseUrl}/v1/send`, {
        method: 'POST',
        headers: { authorization: `Bearer ${api.key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ to, from: 'hello@period.example.test', subject: 'Hello', body: '<p>Hello</p>' }),
      });
    const consumption = async () =>
      (await session(cookie, 'GET', `/users/@me/projects/${api.projectId}/billing-consumption`))
        .body as ConsumptionBody;
    expect(
      (await session(cookie, 'PUT', `/users/@me/projects/${api.projectId}/billing-limits`, { transactional: 1 }))
        .status,
    ).toBe(200);

    expect((await send('first@example.com')).status).toBe(200);
    // metered in the period of the gateway's clock, the one that ends at PERIOD_END
    const before = await eventually(async () => {
      const c = await consumption();
      return c.categories.transactional!.used === 1 ? c : undefined;
    });
    expect(before.periodEnd).toBe(PERIOD_END); // else the clock passed the end first: raise LEAD_S
    const refused = await send('second@example.com');
    const error = ((await refused.json()) as ErrorBody).error;
    expect([refused.status, error.code]).toEqual([429, 'BILLING_LIMIT_EXCEEDED']);
    expect(error.message).toContain(PERIOD_END);
    const retryAfter = Number(refused.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(LEAD_S);

    // the period turns on the gateway's clock: the same send is accepted, and counts in the new period
    await eventually(
      async () => {
        const res = await send('second@example.com');
        if (res.status === 200) return true;
        if (res.status !== 429) throw new Error(`/v1/send answered ${res.status}`);
        return undefined;
      },
      { timeoutMs: (retryAfter + 60) * 1000, intervalMs: 1000, message: 'the cap never reset' },
    );
    const after = await eventually(async () => {
      const c = await consumption();
      return c.periodStart === PERIOD_END && c.categories.transactional!.used === 1 ? c : undefined;
    });
    expect(after.periodEnd).toBe(NEXT_PERIOD_END);
    expect(after.categories.transactional).toMatchObject({ used: 1, admitted: 1, cap: 1 });
    const again = await send('third@example.com');
    expect(again.status).toBe(429);
    expect(((await again.json()) as ErrorBody).error.message).toContain(NEXT_PERIOD_END);
  }, 360_000);
});

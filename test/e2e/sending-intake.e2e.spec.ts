import pg from 'pg';
import { createResolver } from '@herald/core';
import {
  eventually,
  principalHeaders,
  startDnsServer,
  startSmtpSink,
  startTopology,
  type SmtpSink,
  type TestDnsServer,
  type Topology,
} from '@herald/testing';
// mailauth ships CommonJS; its DKIM verifier is what receiving mail servers run
import { dkimVerify } from 'mailauth/lib/dkim/verify.js';
import { newProject, type TestProjectApi } from './contacts-helpers.js';
import { SendingDb, verifiedDomain } from './sending-helpers.js';

interface IntakeBody {
  results: { key: string; status: 'queued' | 'duplicate' | 'skipped'; emailId?: string; reason?: string }[];
}

/** Each message takes this long to be acknowledged by the sink: a relay slower than the intake, so a backlog builds. */
const SINK_REPLY_DELAY_MS = 20;

/**
 * Sending's internal intake: campaigns' and workflows' mail posted with a service principal to
 * sending's intake call (`SendingCalls.intake`, POST /internal/calls/sending.intake), delivered DKIM-signed into a loopback SMTP sink with the marketing headers;
 * its email.* events name the campaign; and the priority lane: transactional mail overtakes a
 * campaign's backlog. The internal route is posted to the process hosting sending (it is not on the
 * gateway), the public /v1/send to the public URL. Standalone only: the intake call, its delivery,
 * its dedupe, its outbox and the priority lane are the sending service's alone, the same in either
 * mode; campaigns.e2e proves the call from campaigns to sending in both modes
 * (test/architecture/e2e-both-modes.spec.ts).
 */
describe('the intake call, POST /internal/calls/sending.intake (standalone)', () => {
  let dns: TestDnsServer;
  let smtp: SmtpSink;
  let herald: Topology;
  let sending: SendingDb;
  let pool: pg.Pool;
  let api: TestProjectApi & { from: string };

  const intake = async (items: Record<string, unknown>[], projectId = api.projectId) => {
    const res = await fetch(`${herald.processOf('sending').url}/internal/calls/sending.intake`, {
      method: 'POST',
      headers: principalHeaders(projectId, undefined, { kind: 'service', service: 'campaigns', projectId }),
      body: JSON.stringify({ items }),
    });
    return { status: res.status, body: (await res.json()) as IntakeBody };
  };
  const campaignItem = (key: string, to: string, extra: Record<string, unknown> = {}) => ({
    key,
    to,
    contact: { id: `ctc_${key.replace(/\W/g, '_')}`, email: to, subscribed: true, data: { name: 'Ada' } },
    from: api.from,
    subject: 'News for {{name}}',
    body: '<p>Hello {{name}}, <a href="https://example.org/offer">offer</a>. <a href="{{unsubscribeUrl}}">Unsubscribe</a></p>',
    category: 'marketing',
    origin: 'campaign',
    campaignId: 'cmp_e2e',
    ...extra,
  });

  beforeAll(async () => {
    [dns, smtp] = await Promise.all([startDnsServer(), startSmtpSink({ replyDelayMs: SINK_REPLY_DELAY_MS })]);
    herald = await startTopology({
      mode: 'standalone', // the intake call is reached at the one process (processOf), not through its gateway
      env: { RATE_LIMIT_PER_MINUTE: '100000', DNS_SERVERS: dns.address, SMTP_URL: smtp.url },
    });
    sending = new SendingDb(herald.db.url);
    pool = new pg.Pool({ connectionString: herald.db.url, max: 2 });
    const project = await newProject(herald.url);
    const domain = `intake-${Date.now().toString(36)}.example.test`;
    await verifiedDomain(project, dns, sending, domain);
    api = Object.assign(project, { from: `news@${domain}` });
  }, 480_000); // migrated and started on a loaded machine: a deadline, not a target

  afterAll(async () => {
    await pool?.end();
    await sending?.end();
    await herald?.stop();
    await Promise.all([smtp?.stop(), dns?.stop()]);
  }, 60_000);

  it('delivers campaign mail DKIM-signed with one-click List-Unsubscribe and Precedence: bulk, and its email.sent names the campaign', async () => {
    const to = 'reader@example.com';
    const res = await intake([campaignItem('cmp_e2e:reader', to)]);
    expect(res).toEqual({
      status: 200,
      body: { results: [{ key: 'cmp_e2e:reader', status: 'queued', emailId: expect.stringMatching(/^eml_/) }] },
    });
    const [message] = await smtp.waitFor((m) => m.to.includes(to), 20_000);
    const head = message!.raw
      .toString('utf8')
      .split('\r\n\r\n')[0]!
      .replace(/\r\n[ \t]+/g, ' ');
    expect(head).toMatch(/^List-Unsubscribe: <http:\/\/127\.0\.0\.1:\d+\/unsubscribe\/[^>]+>$/m);
    expect(head).toMatch(/^List-Unsubscribe-Post: List-Unsubscribe=One-Click$/m);
    expect(head).toMatch(/^Precedence: bulk$/m);
    // RFC 8058: one-click unsubscribe counts only when both List-Unsubscribe headers are signed
    expect(head).toMatch(/^DKIM-Signature: .* h=[^;]*\blist-unsubscribe-post\b/m);
    expect(message!.subject).toBe('News for Ada');
    const resolver = createResolver({ servers: dns.address });
    const dkim = await dkimVerify(message!.raw, {
      resolver: (n: string, type: string) => resolver.resolve(n, type as 'TXT'),
    });
    expect(dkim.results.map((r: { status: { result: string } }) => r.status.result)).toEqual(['pass']);
    // the sink has the message before the worker records it: email.sent follows
    const payload = await eventually(async () => {
      const { rows } = await pool.query(
        `SELECT envelope->'payload' AS payload FROM sending.outbox WHERE topic = 'email.sent' AND envelope->'payload'->>'emailId' = $1`,
        [res.body.results[0]!.emailId],
      );
      return rows[0]?.payload as Record<string, unknown> | undefined;
    });
    expect(payload).toMatchObject({ origin: 'campaign', campaignId: 'cmp_e2e', email: to });
    // the same key again: nothing new is sent
    const again = await intake([campaignItem('cmp_e2e:reader', to)]);
    expect(again.body.results[0]).toMatchObject({ status: 'duplicate', emailId: res.body.results[0]!.emailId });
  });

  it('refuses a caller that is not a service (a project API key) and writes nothing', async () => {
    const res = await fetch(`${herald.processOf('sending').url}/internal/calls/sending.intake`, {
      method: 'POST',
      headers: principalHeaders(api.projectId),
      body: JSON.stringify({ items: [campaignItem('cmp_e2e:apikey', 'key@example.com')] }),
    });
    // standalone: the one process's edge hides internal routes from any other caller, as the gateway
    // does (404); distributed: the call reaches sending's own guard, which refuses a principal that is
    // not a service (403, "Only Herald services call this route")
    expect(res.status).toBe(herald.mode === 'standalone' ? 404 : 403);
    const { rows } = await pool.query(`SELECT 1 FROM sending.emails WHERE source_key = 'cmp_e2e:apikey'`);
    expect(rows).toEqual([]);
  });

  it('hands a transactional email queued after 5,000 bulk ones to the relay before most of them', async () => {
    const total = 5000;
    for (let at = 0; at < total; at += 500) {
      const items = Array.from({ length: 500 }, (_, k) => campaignItem(`bulk:${at + k}`, `bulk${at + k}@example.com`));
      const res = await intake(items);
      expect({ status: res.status, error: (res.body as { error?: unknown }).error }).toEqual({
        status: 200,
        error: undefined,
      });
    }
    const sent = await api.post('/v1/send', { to: 'urgent@example.com', from: api.from, subject: 'Code', body: '123' });
    expect(sent.status).toBe(200);
    const bulk = (m: { to: string[] }) => m.to.some((t) => t.startsWith('bulk'));
    const backlog = total - smtp.messages.filter(bulk).length;
    const [urgent] = await smtp.waitFor((m) => m.to.includes('urgent@example.com'), 60_000);
    const bulkBefore = smtp.messages.filter((m) => bulk(m) && m.seq < urgent!.seq).length;
    // the rule needs a backlog to prove anything: most of the bulk mail was still queued when the urgent one came
    expect(backlog).toBeGreaterThan(total / 2);
    expect(bulkBefore).toBeLessThan(total / 2);
  }, 300_000); // ten 500-email calls on a loaded machine: a deadline, not a speed target
});

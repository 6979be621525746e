import { createHmac } from 'node:crypto';
import pg from 'pg';
import {
  e2eMode,
  eventually,
  startDnsServer,
  startSmtpSink,
  startTopology,
  type SmtpSink,
  type TestDnsServer,
  type Topology,
} from '@herald/testing';
import { newProject, type ErrorBody, type TestProjectApi, type TrackedEventBody } from './contacts-helpers.js';
import { SendingDb, verifiedDomain } from './sending-helpers.js';

const WEBHOOK_SECRET = 'whsec_timeline_0123456789abcdef';

type TimelineEntry = TrackedEventBody;

const formType = { 'content-type': 'application/x-www-form-urlencoded' };

/** A request of the generic relay-notification format, signed as docs/webhooks.md describes. */
function signedWebhook(body: unknown): RequestInit {
  const raw = JSON.stringify(body);
  const t = Math.floor(Date.now() / 1000);
  const v1 = createHmac('sha256', WEBHOOK_SECRET).update(`${t}.${raw}`).digest('hex');
  return {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-herald-signature': `t=${t},v1=${v1}` },
    body: raw,
  };
}

/**
 * The contact's whole timeline (issue 18, item 3): besides the events of /v1/track, the system
 * events Herald records itself — the email lifecycle with the email id and subject, subscription
 * changes with their cause — in GET /events/contact/:id and GET /events, marked `system`, left out
 * of the custom-event counts (/events/stats, /events/names, /analytics/top-events), refused by
 * DELETE /events/:name, and never duplicated by a replayed topic. Runs in the run's mode
 * (HERALD_E2E_MODE: standalone, or each service its own process over Kafka; libs/testing
 * `startTopology`).
 */
describe(`the contact's timeline (${e2eMode()})`, () => {
  let herald: Topology;
  let smtp: SmtpSink;
  let dns: TestDnsServer;
  let sending: SendingDb;
  let pool: pg.Pool;
  let seq = 0;
  const project = async (): Promise<TestProjectApi & { from: string }> => {
    const api = await newProject(herald.url);
    const domain = `t${++seq}-${Date.now().toString(36)}.example.test`;
    await verifiedDomain(api, dns, sending, domain);
    return Object.assign(api, { from: `hello@${domain}` });
  };
  const timeline = async (api: TestProjectApi, contactId: string): Promise<TimelineEntry[]> => {
    const res = await api.get<{ data: TimelineEntry[] }>(`/events/contact/${contactId}?limit=100`);
    expect(res.status).toBe(200);
    return res.body.data;
  };
  /** The timeline once it holds `count` entries named `name` (the projection follows the topics). */
  const timelineWith = (api: TestProjectApi, contactId: string, name: string, count = 1) =>
    eventually(
      async () => {
        const entries = await timeline(api, contactId);
        return entries.filter((e) => e.name === name).length >= count ? entries : undefined;
      },
      { message: `${name} never reached the timeline of ${contactId}` },
    );
  const subscriptionChanges = (entries: TimelineEntry[]) =>
    entries
      .filter((e) => e.name === 'contact.subscribed' || e.name === 'contact.unsubscribed')
      .reverse()
      .map((e) => `${e.name} (${String(e.data.reason)})`);
  const webhook = (body: unknown) => fetch(`${herald.url}/webhooks/generic`, signedWebhook(body));

  beforeAll(async () => {
    [dns, smtp] = await Promise.all([startDnsServer(), startSmtpSink()]);
    herald = await startTopology({
      env: {
        RATE_LIMIT_PER_MINUTE: '100000',
        DNS_SERVERS: dns.address,
        SMTP_URL: smtp.url,
        WEBHOOK_SIGNING_SECRET: WEBHOOK_SECRET,
      },
    });
    sending = new SendingDb(herald.db.url);
    pool = new pg.Pool({ connectionString: herald.db.url, max: 2 });
  }, 480_000); // eight processes migrated and started on a loaded machine: a deadline, not a target

  afterAll(async () => {
    await pool?.end();
    await sending?.end();
    await herald?.stop();
    await Promise.all([smtp?.stop(), dns?.stop()]);
  }, 60_000);

  it('shows the email lifecycle with the email id and subject and each subscription change with its cause, as system events beside tracked ones', async () => {
    const api = await project();
    const to = 'ada@example.com';
    const contact = await api.upsert(to, {}, { subscribed: false });
    expect((await api.track({ email: to, event: 'signup' })).status).toBe(200);

    const sent = await api.post('/v1/send', {
      to,
      from: api.from,
      subject: 'Welcome aboard',
      body: '<p><a href="https://example.org/start">start</a> <a href="{{unsubscribeUrl}}">u</a> <a href="{{subscribeUrl}}">s</a></p>',
      subscribed: true,
    });
    expect(sent.status).toBe(200);
    const emailId: string = sent.body.data.emails[0].email;
    const [message] = await smtp.waitFor((m) => m.to.includes(to));
    const html = message!.html as string;
    const pixel = await fetch(/src="(http[^"]+\/t\/open\/[^"]+)"/.exec(html)![1]!);
    expect([pixel.status, pixel.headers.get('content-type')]).toEqual([200, 'image/gif']);
    const click = await fetch(/href="(http[^"]+\/t\/click\/[^"]+)"/.exec(html)![1]!, {
      redirect: 'manual',
    });
    expect(click.status).toBe(302);
    await eventually(
      async () => {
        const types = await sending.outboxTypes(api.projectId);
        return types.includes('email.opened') && types.includes('email.clicked') ? true : undefined;
      },
      { message: 'sending never recorded the open and the click' },
    );
    expect(
      (await webhook({ id: `d-${emailId}`, type: 'delivery', email: to, messageId: message!.messageId })).status,
    ).toBe(200);

    // each cause in turn, each applied before the next
    expect((await api.patch(`/contacts/${contact.id}`, { subscribed: false })).status).toBe(200);
    expect((await api.bulk('subscribe', [contact.id])).succeeded).toBe(1);
    // the links as a mail client posts them (RFC 8058 one-click: a form body)
    const oneClick = { method: 'POST', headers: formType, body: 'List-Unsubscribe=One-Click' };
    expect((await fetch(/href="(http[^"]+\/unsubscribe\/[^"]+)"/.exec(html)![1]!, oneClick)).status).toBe(200);
    expect((await fetch(/href="(http[^"]+\/subscribe\/[^"]+)"/.exec(html)![1]!, oneClick)).status).toBe(200);
    expect(
      (await webhook({ id: `c-${emailId}`, type: 'complaint', email: to, messageId: message!.messageId })).status,
    ).toBe(200);
    await eventually(async () => ((await api.contact(contact.id)).subscribed === false ? true : undefined));

    // each topic reaches contacts on its own (over Kafka, in any order across topics): wait for all
    const expected: Record<string, number> = {
      'contact.subscribed': 3,
      'contact.unsubscribed': 3,
      'email.sent': 1,
      'email.delivered': 1,
      'email.opened': 1,
      'email.clicked': 1,
      'email.complained': 1,
    };
    for (const [name, count] of Object.entries(expected)) await timelineWith(api, contact.id, name, count);
    const all = await timeline(api, contact.id);
    expect(subscriptionChanges(all)).toEqual([
      'contact.subscribed (send)',
      'contact.unsubscribed (api)',
      'contact.subscribed (bulk)',
      'contact.unsubscribed (unsubscribe-link)',
      'contact.subscribed (subscribe-link)',
      'contact.unsubscribed (complaint)',
    ]);
    expect(all.every((e) => e.contactId === contact.id)).toBe(true);
    for (const name of ['email.sent', 'email.delivered', 'email.opened', 'email.clicked', 'email.complained'])
      expect(all.filter((e) => e.name === name)).toEqual([
        expect.objectContaining({
          system: true,
          data: expect.objectContaining({ emailId, subject: 'Welcome aboard' }),
        }),
      ]);
    expect(all.find((e) => e.name === 'email.clicked')!.data.url).toBe('https://example.org/start');
    expect(all.filter((e) => !e.system).map((e) => e.name)).toEqual(['signup']);
    expect(all.filter((e) => e.name.startsWith('contact.')).every((e) => e.system)).toBe(true);

    // the project's feed has them too, with their data
    const feed = await api.get<{ data: TimelineEntry[] }>('/events?limit=100');
    expect(feed.body.data.map((e) => e.id).sort()).toEqual(all.map((e) => e.id).sort());
  });

  it('records a bounce and the unsubscription it caused (cause: bounce)', async () => {
    const api = await project();
    const to = 'bounces@example.com';
    smtp.reject({ recipient: to, code: 550, message: 'No such user' });
    const sent = await api.post('/v1/send', { to, from: api.from, subject: 'Hello', body: 'Hi', subscribed: true });
    const contactId: string = sent.body.data.emails[0].contact.id;
    await timelineWith(api, contactId, 'contact.unsubscribed');
    const entries = await timelineWith(api, contactId, 'email.bounced');
    expect(entries.find((e) => e.name === 'email.bounced')).toMatchObject({
      system: true,
      data: { emailId: sent.body.data.emails[0].email, subject: 'Hello', bounceType: 'permanent' },
    });
    expect(subscriptionChanges(entries)).toEqual(['contact.unsubscribed (bounce)']);
  });

  it('counts only custom events in /events/stats, /events/names and /analytics/top-events, and refuses to delete a system event name', async () => {
    const api = await project();
    const to = 'counts@example.com';
    expect((await api.track({ email: to, event: 'signup' })).status).toBe(200);
    const sent = await api.post('/v1/send', { to, from: api.from, subject: 'Hi', body: 'Hi', subscribed: true });
    const contactId: string = sent.body.data.emails[0].contact.id;
    await timelineWith(api, contactId, 'email.sent');
    await eventually(async () => {
      const top = await api.get('/analytics/top-events');
      return top.status === 200 && top.body.events.length > 0 ? true : undefined;
    });

    const stats = await api.get('/events/stats');
    expect(stats.body).toMatchObject({ total: 1, last24Hours: 1, events: [{ name: 'signup', count: 1 }] });
    expect((await api.get('/events/names')).body).toEqual({ names: ['signup'] });
    expect((await api.get('/analytics/top-events')).body.events.map((e: { name: string }) => e.name)).toEqual([
      'signup',
    ]);

    for (const name of ['email.sent', 'contact.unsubscribed']) {
      const refused = await api.delete<ErrorBody>(`/events/${name}`);
      expect(refused.status).toBe(422);
      expect(refused.body.error.code).toBe('SYSTEM_EVENT_NOT_DELETABLE');
    }
    expect((await timeline(api, contactId)).map((e) => e.name).sort()).toEqual(['email.sent', 'signup']);
    expect((await api.delete('/events/signup')).body).toEqual({ deleted: 1 });
    expect((await timeline(api, contactId)).map((e) => e.name)).toEqual(['email.sent']);
  });

  it('adds nothing when the topics are replayed, even to a consumer that forgot it applied them', async () => {
    const api = await project();
    const to = 'replay@example.com';
    const sent = await api.post('/v1/send', { to, from: api.from, subject: 'Hi', body: 'Hi', subscribed: true });
    const contactId: string = sent.body.data.emails[0].contact.id;
    expect((await api.patch(`/contacts/${contactId}`, { subscribed: false })).status).toBe(200);
    await timelineWith(api, contactId, 'email.sent');
    const before = await timelineWith(api, contactId, 'contact.unsubscribed');

    // publish every event of the project again, after wiping contacts' inbox record of them
    const { rows } = await pool.query<{ event_id: string }>(
      `SELECT event_id FROM sending.outbox WHERE envelope->>'projectId' = $1 AND topic LIKE 'email.%'
         UNION ALL SELECT event_id FROM contacts.outbox WHERE envelope->>'projectId' = $1 AND topic LIKE 'contact.%subscribed'`,
      [api.projectId],
    );
    const ids = rows.map((r) => r.event_id);
    expect(ids.length).toBeGreaterThanOrEqual(2);
    await pool.query(`DELETE FROM contacts.inbox WHERE event_id = ANY($1::uuid[])`, [ids]);
    await pool.query(`UPDATE sending.outbox SET published_at = NULL WHERE event_id = ANY($1::uuid[])`, [ids]);
    await pool.query(`UPDATE contacts.outbox SET published_at = NULL WHERE event_id = ANY($1::uuid[])`, [ids]);
    await eventually(
      async () => {
        const { rows: seen } = await pool.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM contacts.inbox WHERE event_id = ANY($1::uuid[])`,
          [ids],
        );
        return seen[0]!.n === ids.length ? true : undefined;
      },
      { message: 'contacts never received the replayed events' },
    );
    expect(await timeline(api, contactId)).toEqual(before);
  });

  it('does not answer /metrics on the public port (the gateway in distributed mode, the one process in standalone): 404 with and without credentials', async () => {
    const api = await project();
    const anonymous = await fetch(`${herald.url}/metrics`);
    expect(anonymous.status).toBe(404);
    expect(await anonymous.text()).not.toContain('herald_');
    const withKey = await fetch(`${herald.url}/metrics`, { headers: { authorization: `Bearer ${api.key}` } });
    expect(withKey.status).toBe(404);
  });

  // /metrics is served on each process's METRICS_PORT, which only the network reaches (no credentials):
  // its label values are routes, statuses, services and outcomes, never a tenant's data
  it("serves Prometheus metrics on each process's METRICS_PORT, showing nothing of a tenant: no project, contact or email id, address, domain, subject or event name", async () => {
    const api = await project();
    const to = 'metrics-probe@example.com';
    const subject = `Metrics probe ${Date.now().toString(36)}`;
    const sent = await api.post('/v1/send', { to, from: api.from, subject, body: 'Hi', subscribed: true });
    expect(sent.status).toBe(200);
    const contactId: string = sent.body.data.emails[0].contact.id;
    const emailId: string = sent.body.data.emails[0].email;
    expect((await api.post('/v1/track', { email: to, event: 'metrics-probe-event' })).status).toBe(200);
    expect((await api.get(`/contacts/${contactId}`)).status).toBe(200);
    expect((await api.get(`/emails/${emailId}`)).status).toBe(200);
    await timelineWith(api, contactId, 'email.sent'); // the send went through every service it concerns
    const tenant = [
      api.projectId,
      contactId,
      emailId,
      to,
      api.from,
      api.from.split('@')[1]!,
      subject,
      'metrics-probe-event',
    ];
    const processes = [...herald.processes.values()];
    expect(processes.length).toBeGreaterThan(0);
    for (const proc of processes) {
      const text = await (await fetch(proc.metricsUrl)).text();
      expect(text).toContain('herald_http_request_duration_seconds_count');
      expect({ process: proc.app, found: tenant.filter((value) => text.includes(value)) }).toEqual({
        process: proc.app,
        found: [],
      });
    }
  });
});

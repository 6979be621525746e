import {
  CampaignScheduled,
  CampaignSending,
  EmailBounced,
  EmailSent,
  WorkflowStepCompleted,
  WorkflowWaiting,
  type EventEnvelope,
} from '@herald/contracts';
import {
  e2eMode,
  eventually as eventuallyWithin,
  startDnsServer,
  startSmtpSink,
  startTopology,
  type SmtpSink,
  type TestDnsServer,
  type Topology,
} from '@herald/testing';
import { AnalyticsOutbox } from './analytics-helpers.js';
import { createCampaign, type CampaignBody } from './campaigns-helpers.js';
import { fieldsOf, newProject, type ErrorBody, type Json, type TestProjectApi } from './contacts-helpers.js';
import { createSegment, where } from './segments-helpers.js';
import { SendingDb, verifiedDomain } from './sending-helpers.js';
import { buildWorkflow, execution, executions, projectWithDomain } from './workflows-helpers.js';

/** Eventual rules get 30 s: a loaded machine, and Kafka between the services in distributed mode. */
const eventually: typeof eventuallyWithin = (probe, options = {}) =>
  eventuallyWithin(probe, { timeoutMs: 30_000, ...options });

interface ActivityBody {
  id: string;
  type: string;
  occurredAt: string;
  contact: { id: string | null; email: string | null } | null;
  email?: { id: string; subject: string | null };
  campaign?: { id: string; name: string | null };
  workflow?: { id: string; name: string | null };
  data: Record<string, unknown>;
}

/**
 * Activity and analytics through the gateway, in the run's mode (HERALD_E2E_MODE: one process, or
 * every service its own over Kafka) (spec: Activity and analytics; issue 24): a real send, open,
 * click, bounce and tracked event reach the feed with their type and contact; a real scheduled
 * campaign and a real waiting execution reach the upcoming list and leave it once cancelled, and
 * lifecycle events published through analytics' outbox leave it once sending or at the next step;
 * the time series honours the time zone and fills empty buckets; another project sees nothing; bad
 * queries are 422s.
 */
describe(`activity and analytics through the gateway (${e2eMode()})`, () => {
  let dns: TestDnsServer;
  let smtp: SmtpSink;
  let herald: Topology;
  let sending: SendingDb;
  let outbox: AnalyticsOutbox;
  let api: TestProjectApi & { from: string };
  let other: TestProjectApi;

  beforeAll(async () => {
    [dns, smtp] = await Promise.all([startDnsServer(), startSmtpSink()]);
    herald = await startTopology({
      exclusive: true,
      env: { RATE_LIMIT_PER_MINUTE: '100000', DNS_SERVERS: dns.address, SMTP_URL: smtp.url },
    });
    sending = new SendingDb(herald.db.url);
    outbox = new AnalyticsOutbox(herald.db.url);
    const p = await newProject(herald.url);
    const domain = `analytics-${Date.now().toString(36)}.example.test`;
    await verifiedDomain(p, dns, sending, domain);
    api = Object.assign(p, { from: `hello@${domain}` });
    other = await newProject(herald.url, p.cookie);
  }, 360_000);

  afterAll(async () => {
    await outbox?.end();
    await sending?.end();
    await herald?.stop();
    await smtp?.stop();
    await dns?.stop();
  }, 60_000);

  /** A tracking link of an email, sent to this deployment (the links name APP_URL, whatever it is). */
  const follow = (link: string, init?: RequestInit) => {
    const u = new URL(link);
    return fetch(`${herald.url}${u.pathname}${u.search}`, init);
  };

  const feedOf = async (project: TestProjectApi, query = ''): Promise<ActivityBody[]> => {
    const res = await project.get<{ data: ActivityBody[] }>(`/activity?limit=100${query}`);
    if (res.status !== 200) throw new Error(`GET /activity answered ${res.status}: ${JSON.stringify(res.body)}`);
    return res.body.data;
  };

  it('a transactional send, an open, a click, a bounce and a tracked event appear in /activity with their type and contact', async () => {
    const sent = await api.post<Json>('/v1/send', {
      to: 'reader@example.com',
      from: api.from,
      subject: 'Welcome aboard',
      body: '<p><a href="https://example.org/start">start</a></p>',
    });
    expect(sent.status).toBe(200);
    const reader = sent.body.data.emails[0].contact as { id: string; email: string };
    const emailId = sent.body.data.emails[0].email as string;
    const [message] = await smtp.waitFor((m) => m.to.includes('reader@example.com'));
    await follow(/src="(http[^"]+\/t\/open\/[^"]+)"/.exec(message!.html!)![1]!);
    await follow(/href="(http[^"]+\/t\/click\/[^"]+)"/.exec(message!.html!)![1]!, { redirect: 'manual' });

    smtp.reject({ recipient: 'nobody@example.com', code: 550, message: 'No such user' });
    const bounced = await api.post<Json>('/v1/send', {
      to: 'nobody@example.com',
      from: api.from,
      subject: 'Hi',
      body: 'Hi',
    });
    const nobody = bounced.body.data.emails[0].contact as { id: string };
    const tracked = await api.track({ email: 'reader@example.com', event: 'plan_upgraded', data: { plan: 'pro' } });
    expect(tracked.status).toBeLessThan(300);

    const feed = await eventually(async () => {
      const items = await feedOf(api);
      const types = new Set(items.map((i) => i.type));
      return ['email.sent', 'email.opened', 'email.clicked', 'email.bounced', 'event.tracked'].every((t) =>
        types.has(t),
      )
        ? items
        : undefined;
    });
    const one = (type: string, contactId: string) => feed.find((i) => i.type === type && i.contact?.id === contactId);
    for (const type of ['email.sent', 'email.opened', 'email.clicked']) {
      expect(one(type, reader.id)).toMatchObject({
        contact: { id: reader.id, email: 'reader@example.com' },
        email: { id: emailId, subject: 'Welcome aboard' },
      });
    }
    expect(one('email.clicked', reader.id)!.data).toMatchObject({ url: 'https://example.org/start' });
    expect(one('email.bounced', nobody.id)).toMatchObject({ contact: { email: 'nobody@example.com' } });
    expect(one('event.tracked', reader.id)).toMatchObject({ data: { name: 'plan_upgraded' } });
    // newest first, and the filters narrow it
    const times = feed.map((i) => Date.parse(i.occurredAt));
    expect(times).toEqual([...times].sort((a, b) => b - a));
    expect((await feedOf(api, `&type=email.opened&contactId=${reader.id}`)).map((i) => i.type)).toEqual([
      'email.opened',
    ]);
    // counts from the aggregates
    const types = (await api.get('/activity/types')).body.types.map((t: { type: string }) => t.type);
    expect(types).toEqual(expect.arrayContaining(['email.sent', 'email.opened', 'email.clicked', 'email.bounced']));
    expect((await api.get('/activity/recent-count?minutes=10')).body.count).toBeGreaterThanOrEqual(5);
    const today = new Date().toISOString().slice(0, 10);
    const topToday = await api.get(`/analytics/top-events?from=${today}T00:00:00Z&to=${new Date().toISOString()}`);
    expect(topToday.body.events).toEqual([{ name: 'plan_upgraded', count: 1 }]);
    const topBefore = await api.get('/analytics/top-events?from=2026-01-01T00:00:00Z&to=2026-01-31T00:00:00Z');
    expect(topBefore.body.events).toEqual([]);
    const stats = await api.get('/activity/stats?interval=hour');
    expect(stats.body.totals).toMatchObject({ 'email.opened': 1, 'email.clicked': 1, 'event.tracked': 1 });
  });

  it('another project sees none of it', async () => {
    await eventually(async () => ((await feedOf(api)).length > 0 ? true : undefined));
    expect(await feedOf(other)).toEqual([]);
    expect((await other.get('/activity/types')).body).toEqual({ types: [] });
    expect((await other.get('/activity/recent-count')).body.count).toBe(0);
    const first = (await feedOf(api))[0]!;
    expect(await feedOf(other, `&contactId=${first.contact!.id}`)).toEqual([]);
  });

  it('a scheduled campaign and a waiting execution appear in /activity/upcoming and leave it once sending or at the next step', async () => {
    const now = new Date();
    const due = new Date(now.getTime() + 3_600_000);
    const campaign = {
      campaignId: 'cmp_upcoming',
      name: 'Autumn news',
      subject: 'News',
      audienceType: 'ALL' as const,
    };
    const execution = {
      workflowId: 'wf_welcome',
      workflowName: 'Welcome',
      executionId: 'exe_upcoming',
      contactId: 'cnt_upcoming',
      email: 'waiting@example.com',
      stepId: 'stp_delay',
      stepType: 'DELAY' as const,
      stepName: 'Wait an hour',
    };
    const ev = (contract: { create: (a: Json) => EventEnvelope }, payload: Json) =>
      contract.create({ projectId: api.projectId, source: 'test', payload });
    await outbox.publish(
      ev(CampaignScheduled, {
        ...campaign,
        at: now.toISOString(),
        scheduledAt: due.toISOString(),
        estimatedRecipients: 42,
      }),
      ev(WorkflowWaiting, { ...execution, status: 'WAITING', at: now.toISOString(), dueAt: due.toISOString() }),
    );
    const upcoming = await eventually(async () => {
      const body = (await api.get('/activity/upcoming')).body;
      return body.campaigns.length && body.executions.length ? body : undefined;
    });
    expect(upcoming).toEqual({
      campaigns: [
        {
          campaign: { id: 'cmp_upcoming', name: 'Autumn news', subject: 'News' },
          scheduledAt: due.toISOString(),
          estimatedRecipients: 42,
        },
      ],
      executions: [
        {
          executionId: 'exe_upcoming',
          workflow: { id: 'wf_welcome', name: 'Welcome' },
          contact: { id: 'cnt_upcoming', email: 'waiting@example.com' },
          nextStep: { id: 'stp_delay', type: 'DELAY', name: 'Wait an hour' },
          dueAt: due.toISOString(),
        },
      ],
    });
    expect((await other.get('/activity/upcoming')).body).toEqual({ campaigns: [], executions: [] });
    const later = new Date(now.getTime() + 1000).toISOString();
    await outbox.publish(
      ev(CampaignSending, { ...campaign, at: later, recipients: 40 }),
      ev(WorkflowStepCompleted, { ...execution, status: 'RUNNING', at: later, outcome: 'delayed' }),
    );
    await eventually(async () => {
      const body = (await api.get('/activity/upcoming')).body;
      return body.campaigns.length === 0 && body.executions.length === 0 ? true : undefined;
    });
  });

  it('a real scheduled campaign and a real waiting execution appear in /activity/upcoming, and leave it once cancelled', async () => {
    const p = await projectWithDomain(herald.url, api.cookie, dns, sending);
    const w = await buildWorkflow(p, {
      eventName: 'trial-started',
      steps: [
        ['DELAY', { amount: 1, unit: 'hours' }],
        ['EXIT', {}],
      ],
    });
    await p.track({ email: 'trialist@example.com', event: 'trial-started' });
    const [waiting] = await eventually(async () => {
      const list = await executions(p, w.id, 'WAITING');
      return list.length === 1 ? list : undefined;
    });
    const [delay] = (await execution(p, w.id, waiting!.id)).steps!;
    // the campaign's estimate is asked of segments' read model: wait until it holds the contact
    const everyone = await createSegment(p, { name: 'everyone', filters: where('email', 'contains', '@') });
    await eventually(async () => (await p.get(`/segments/${everyone.id}/contacts?pageSize=1`)).body.total === 1);
    const c = await createCampaign(p, {
      name: 'Trial tips',
      subject: 'Tips',
      body: '<p>Tips</p>',
      from: p.from,
      audienceType: 'ALL',
    });
    const scheduled = await p.post<CampaignBody>(`/campaigns/${c.id}/send`, {
      scheduledFor: new Date(Date.now() + 86_400_000).toISOString(),
    });
    expect(scheduled.body.status).toBe('SCHEDULED');

    const upcoming = await eventually(async () => {
      const body = (await p.get('/activity/upcoming')).body;
      // workflow.started and workflow.waiting are different topics: the step and due time come with the second
      return body.campaigns.length && body.executions[0]?.dueAt ? body : undefined;
    });
    expect(upcoming).toEqual({
      campaigns: [
        {
          campaign: { id: c.id, name: 'Trial tips', subject: 'Tips' },
          scheduledAt: scheduled.body.scheduledAt,
          estimatedRecipients: 1,
        },
      ],
      executions: [
        {
          executionId: waiting!.id,
          workflow: { id: w.id, name: (await p.get(`/workflows/${w.id}`)).body.name },
          contact: { id: waiting!.contactId, email: 'trialist@example.com' },
          nextStep: { id: w.steps[0]!.id, type: 'DELAY', name: w.steps[0]!.name },
          dueAt: delay!.dueAt,
        },
      ],
    });
    expect((await p.post<CampaignBody>(`/campaigns/${c.id}/cancel`)).body.status).toBe('CANCELLED');
    expect((await p.delete(`/workflows/${w.id}/executions/${waiting!.id}`)).body.status).toBe('CANCELLED');
    await eventually(async () => {
      const body = (await p.get('/activity/upcoming')).body;
      return body.campaigns.length === 0 && body.executions.length === 0 ? true : undefined;
    });
  });

  it('the time series fills empty buckets with zero and places each send in the day of the caller time zone', async () => {
    // 03:30 UTC on 8 March is still 7 March in New York (22:30 EST)
    const sends = ['2026-03-08T03:30:00Z', '2026-03-08T12:00:00Z', '2026-03-10T12:00:00Z'].map((at, i) =>
      EmailSent.create({
        projectId: other.projectId,
        source: 'test',
        occurredAt: new Date(at),
        payload: { emailId: `eml_ts_${i}`, contactId: `cnt_ts_${i}`, email: `ts${i}@example.com`, subject: 'S' },
      }),
    );
    await outbox.publish(...sends);
    const series = async (tz: string) => {
      const from = tz === 'UTC' ? '2026-03-06T00:00:00Z' : '2026-03-06T05:00:00Z';
      const to = tz === 'UTC' ? '2026-03-12T00:00:00Z' : '2026-03-12T04:00:00Z';
      const res = await other.get(
        `/analytics/timeseries?from=${from}&to=${to}&interval=day&tz=${encodeURIComponent(tz)}&metrics=sent,opened`,
      );
      expect(res.status).toBe(200);
      return res.body.buckets as { start: string; sent: number; opened: number }[];
    };
    const utc = await eventually(async () => {
      const b = await series('UTC');
      return b.reduce((s, x) => s + x.sent, 0) === 3 ? b : undefined;
    });
    expect(utc.map((b) => [b.start, b.sent, b.opened])).toEqual([
      ['2026-03-06T00:00:00+00:00', 0, 0],
      ['2026-03-07T00:00:00+00:00', 0, 0],
      ['2026-03-08T00:00:00+00:00', 2, 0],
      ['2026-03-09T00:00:00+00:00', 0, 0],
      ['2026-03-10T00:00:00+00:00', 1, 0],
      ['2026-03-11T00:00:00+00:00', 0, 0],
    ]);
    expect((await series('America/New_York')).map((b) => [b.start, b.sent])).toEqual([
      ['2026-03-06T00:00:00-05:00', 0],
      ['2026-03-07T00:00:00-05:00', 1],
      ['2026-03-08T00:00:00-05:00', 1],
      ['2026-03-09T00:00:00-04:00', 0],
      ['2026-03-10T00:00:00-04:00', 1],
      ['2026-03-11T00:00:00-04:00', 0],
    ]);
    const hourly = await other.get(
      '/analytics/timeseries?from=2026-03-08T00:00:00Z&to=2026-03-08T06:00:00Z&interval=hour&metrics=sent',
    );
    expect(hourly.body.buckets.map((b: { sent: number }) => b.sent)).toEqual([0, 0, 0, 1, 0, 0]);
  });

  it('sent follows one rule in the time series and the campaign stats: each email once, on its email.sent or, when the relay refused it at once, its bounce', async () => {
    const hourly = async (project: TestProjectApi, from: Date, to: Date) => {
      const res = await project.get(
        `/analytics/timeseries?from=${from.toISOString()}&to=${to.toISOString()}&interval=hour&metrics=sent,bounced`,
      );
      expect(res.status).toBe(200);
      const buckets = res.body.buckets as { sent: number; bounced: number }[];
      return { sent: buckets.reduce((n, b) => n + b.sent, 0), bounced: buckets.reduce((n, b) => n + b.bounced, 0) };
    };
    // the first case's real sends: reader's email was sent; nobody's was refused at once (550, no email.sent)
    const now = Date.now();
    const around = [new Date(Math.floor(now / 3_600_000) * 3_600_000 - 3_600_000), new Date(now + 3_600_000)] as const;
    expect(await hourly(api, ...around)).toEqual({ sent: 2, bounced: 1 });

    // a campaign: sent; refused at once (a bounce, no email.sent); sent, then bounced later
    const third = await newProject(herald.url, api.cookie);
    const campaign = { campaignId: 'cmp_sent_rule', origin: 'campaign' as const, subject: 'Rule' };
    const at = (minute: number) => new Date(`2026-04-01T10:${String(minute).padStart(2, '0')}:00Z`);
    const email = (n: number) => ({
      ...campaign,
      emailId: `eml_rule_${n}`,
      contactId: `cnt_rule_${n}`,
      email: `r${n}@example.com`,
    });
    const ev = (contract: { create: (a: never) => EventEnvelope }, payload: object, occurredAt: Date) =>
      contract.create({ projectId: third.projectId, source: 'test', occurredAt, payload } as never);
    await outbox.publish(
      ev(
        CampaignSending,
        { ...campaign, name: 'Rule', audienceType: 'ALL', at: at(0).toISOString(), recipients: 3 },
        at(0),
      ),
      ev(EmailSent, email(1), at(1)),
      ev(EmailBounced, { ...email(2), bounceType: 'permanent' }, at(2)),
      ev(EmailSent, email(3), at(3)),
      ev(EmailBounced, { ...email(3), bounceType: 'permanent' }, at(30)),
    );
    const stats = await eventually(async () => {
      const res = await third.get('/analytics/campaign-stats?campaignId=cmp_sent_rule');
      return res.status === 200 && res.body.bounces === 2 && res.body.sent === 3 ? res.body : undefined;
    });
    expect(stats).toMatchObject({ recipients: 3, sent: 3, bounces: 2 });
    const series = await hourly(third, new Date('2026-04-01T09:00:00Z'), new Date('2026-04-01T12:00:00Z'));
    expect(series).toEqual({ sent: stats.sent, bounced: stats.bounces });
  });

  it('answers 422 with the field for bad queries: from after to, a range past the longest, an unknown zone, metric or type', async () => {
    const bad: [string, string][] = [
      ['/activity?from=2026-03-02T00:00:00Z&to=2026-03-01T00:00:00Z', 'from'],
      ['/activity?type=email.teleported', 'type'],
      ['/activity?limit=101', 'limit'],
      ['/activity?cursor=not-a-cursor', 'cursor'],
      ['/activity/stats?from=2026-03-02T00:00:00Z&to=2026-03-01T00:00:00Z', 'from'],
      ['/analytics/timeseries?from=2026-01-01T00:00:00Z&to=2026-03-01T00:00:00Z&interval=hour', 'from'],
      ['/analytics/timeseries?tz=Mars/Olympus', 'tz'],
      ['/analytics/timeseries?metrics=sent,teleported', 'metrics'],
      ['/analytics/timeseries?interval=week', 'interval'],
      ['/activity/recent-count?minutes=0', 'minutes'],
      ['/analytics/top-campaigns?metric=revenue', 'metric'],
      ['/analytics/campaign-stats?campaignId=', 'campaignId'],
      ['/analytics/campaign-stats?pageSize=101', 'pageSize'],
      ['/analytics/campaign-stats?page=0', 'page'],
    ];
    for (const [path, field] of bad) {
      const res = await api.get<ErrorBody>(path);
      expect([path, res.status, fieldsOf(res.body)]).toEqual([path, 422, [field]]);
    }
    const missing = await api.get<ErrorBody>('/analytics/campaign-stats?campaignId=cmp_nope');
    expect([missing.status, missing.body.error.code]).toEqual([404, 'CAMPAIGN_NOT_FOUND']);
  });
});

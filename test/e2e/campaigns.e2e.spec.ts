import {
  e2eMode,
  eventually,
  startDnsServer,
  startSmtpSink,
  startTopology,
  type CapturedMessage,
  type SmtpSink,
  type TestDnsServer,
  type Topology,
} from '@herald/testing';
import {
  addsUp,
  campaignIn,
  createCampaign,
  OwnerReferences,
  recipientsOf,
  statsOf,
  type CampaignBody,
} from './campaigns-helpers.js';
import { csv, fieldsOf, newProject, refusalOf, type ErrorBody, type TestProjectApi } from './contacts-helpers.js';
import { createSegment, where } from './segments-helpers.js';
import { SendingDb, verifiedDomain } from './sending-helpers.js';

type Api = TestProjectApi & { domain: string; from: string };

/**
 * Campaigns through the public API, with mail captured by the loopback SMTP sink (spec: Campaign,
 * the campaign state table, the Campaigns endpoints; issue 22; docs/campaigns.md): the routes and
 * their rules, isolation, the three audiences, the ledger, scheduling, cancelling, test sends,
 * references, unsubscribes through a campaign's link, and restarts. Runs in the run's mode
 * (HERALD_E2E_MODE, libs/testing `startTopology`); the topology is exclusive: this file restarts the
 * process hosting campaigns, and its settings are its own. Small batches and a small in-flight
 * window make a send last long enough to cancel it, or restart campaigns, in the middle.
 */
const SETTLE_MS = 30_000;

describe(`campaigns through the public API (${e2eMode()})`, () => {
  let dns: TestDnsServer;
  let smtp: SmtpSink;
  let sending: SendingDb;
  let references: OwnerReferences;
  let herald: Topology;
  let owner: string;
  let seq = 0;

  const project = async (): Promise<Api> => {
    const api = await newProject(herald.url, owner);
    const domain = `c${++seq}-${Date.now().toString(36)}.example.test`;
    await verifiedDomain(api, dns, sending, domain);
    return Object.assign(api, { domain, from: `news@${domain}` });
  };
  const to = (address: string) => smtp.messages.filter((m) => m.to.includes(address));
  const content = (api: Api, extra: Record<string, unknown> = {}) => ({
    name: 'Spring',
    subject: 'Hello {{name ?? "friend"}}',
    body: '<p>Hi {{name ?? "friend"}}</p>',
    from: api.from,
    audienceType: 'ALL',
    ...extra,
  });
  /**
   * Contacts created through the API (more than 20: one CSV import), then waited for in segments'
   * read model (fed by events): every contact of the project there, with its subscription as the
   * contacts service has it (a subscription change and a creation are different topics, unordered
   * between them over Kafka).
   */
  async function contacts(api: Api, list: { email: string; data?: Record<string, unknown>; subscribed?: boolean }[]) {
    if (list.length > 20) {
      expect(await api.importAndWait(csv(['email'], ...list.map((c) => [c.email])))).toMatchObject({
        status: 'completed',
      });
    } else for (const c of list) await api.upsert(c.email, c.data, { subscribed: c.subscribed ?? true });
    const all = await api.allContacts();
    const probes: [string, Record<string, unknown>, number][] = [
      ['all', where('email', 'contains', '@'), all.length],
      ['subscribed', where('subscribed', 'equals', true), all.filter((c) => c.subscribed).length],
    ];
    for (const [name, filters, expected] of probes) {
      const probe = await createSegment(api, { name: `${name}-${list.length}`, filters });
      await eventually(
        async () => {
          const res = await api.get<{ total: number }>(`/segments/${probe.id}/contacts?pageSize=1`);
          return res.body.total === expected ? true : undefined;
        },
        { timeoutMs: SETTLE_MS, message: `segments' read model never held the audience (${name}: ${expected})` },
      );
      expect((await api.delete(`/segments/${probe.id}`)).status).toBe(200);
    }
  }

  beforeAll(async () => {
    dns = await startDnsServer();
    smtp = await startSmtpSink();
    herald = await startTopology({
      exclusive: true,
      env: {
        RATE_LIMIT_PER_MINUTE: '100000',
        DNS_SERVERS: dns.address,
        SMTP_URL: smtp.url,
        DELIVERY_RETRY_BASE_MS: '200',
        CAMPAIGN_BATCH_SIZE: '10',
        CAMPAIGN_IN_FLIGHT: '20',
        JOB_LEASE_MS: '2000',
      },
    });
    sending = new SendingDb(herald.db.url);
    references = new OwnerReferences(herald.db.url);
    owner = (await newProject(herald.url)).cookie;
  }, 240_000);

  afterAll(async () => {
    await sending?.end();
    await references?.end();
    await herald?.stop();
    await smtp?.stop();
    await dns?.stop();
  }, 60_000);

  describe('routes', () => {
    it('POST /campaigns answers 201 {success, data} in DRAFT with type = audienceType; GET, list, PUT, duplicate and DELETE work', async () => {
      const api = await project();
      const res = await api.post<{ success: boolean; data: CampaignBody }>('/campaigns', content(api));
      expect(res.status).toBe(201);
      expect(res.body.success).toBe(true);
      expect(res.body.data).toMatchObject({ name: 'Spring', type: 'ALL', status: 'DRAFT', scheduledAt: null });
      const id = res.body.data.id;
      expect(id).toMatch(/^cmp_/);
      expect((await api.get<CampaignBody>(`/campaigns/${id}`)).body).toMatchObject({ id, status: 'DRAFT' });

      const put = await api.call<CampaignBody>('PUT', `/campaigns/${id}`, content(api, { name: 'Summer' }));
      expect([put.status, put.body.name]).toEqual([200, 'Summer']);
      const dup = await api.post<CampaignBody>(`/campaigns/${id}/duplicate`);
      expect(dup.status).toBe(201);
      expect(dup.body).toMatchObject({ status: 'DRAFT', subject: 'Hello {{name ?? "friend"}}' });
      expect(dup.body.id).not.toBe(id);

      const list = await api.get<{ campaigns: CampaignBody[]; page: number; pageSize: number; total: number }>(
        '/campaigns?limit=1',
      );
      expect(list.body).toMatchObject({ page: 1, pageSize: 1, total: 2, totalPages: 2 });
      expect(list.body.campaigns).toHaveLength(1);
      expect((await api.get('/campaigns?status=SENT')).body).toMatchObject({ total: 0, campaigns: [] });
      expect((await api.get<ErrorBody>('/campaigns?limit=101')).status).toBe(422);

      expect((await api.delete(`/campaigns/${dup.body.id}`)).status).toBe(200);
      expect((await api.get(`/campaigns/${dup.body.id}`)).status).toBe(404);
    });

    it('refuses with 422 field by field: required fields, from off a verified domain, a subject with a newline, a bad filter, a missing or foreign segment', async () => {
      const api = await project();
      const other = await project();
      const foreign = await createSegment(other, { name: 'theirs', filters: where('subscribed', 'equals', true) });
      const cases: [Record<string, unknown>, string[]][] = [
        [{}, ['name', 'subject', 'body', 'from', 'audienceType']],
        [content(api, { from: 'news@unverified.example.test' }), ['from']],
        [content(api, { subject: 'a\nb' }), ['subject']],
        [content(api, { subject: 'x'.repeat(999) }), ['subject']],
        [content(api, { audienceType: 'SEGMENT' }), ['segmentId']],
        [content(api, { audienceType: 'SEGMENT', segmentId: foreign.id }), ['segmentId']],
        [content(api, { audienceType: 'FILTERED' }), ['audienceFilter']],
        [
          content(api, { audienceType: 'FILTERED', audienceFilter: where('data.age', 'gt', 'abc') }),
          ['audienceFilter.conditions[0].value'],
        ],
        [content(api, { audienceType: 'BROADCAST' }), ['audienceType']],
      ];
      for (const [body, fields] of cases) {
        const res = await api.post<ErrorBody>('/campaigns', body);
        expect([res.status, [...new Set(fieldsOf(res.body))].sort()]).toEqual([422, [...fields].sort()]);
      }
      expect((await api.get<{ total: number }>('/campaigns')).body.total).toBe(0);
    });

    it("another project's template or segment is refused at save exactly as an unknown id: a 422 naming the field, on POST and PUT", async () => {
      const api = await project();
      const other = await project();
      const tpl = (body: Record<string, unknown>) => ({ name: 'T', subject: 'S', body: 'B', ...body });
      const theirTemplate = (await other.post<{ id: string }>('/templates', tpl({ from: other.from }))).body.id;
      const theirSegment = (
        await createSegment(other, { name: 'theirs', filters: where('subscribed', 'equals', true) })
      ).id;
      const c = await createCampaign(api, content(api));
      // the field, a body naming another project's id, the same naming an unknown one
      const cases: [string, string, (id: string) => Record<string, unknown>][] = [
        ['templateId', theirTemplate, (id) => ({ templateId: id })],
        ['segmentId', theirSegment, (id) => ({ audienceType: 'SEGMENT', segmentId: id })],
        [
          'audienceFilter.conditions[0].field',
          theirSegment,
          (id) => ({ audienceType: 'FILTERED', audienceFilter: where(`segment.${id}`, 'isMember') }),
        ],
      ];
      for (const [field, theirs, body] of cases)
        for (const [method, path] of [
          ['POST', '/campaigns'],
          ['PUT', `/campaigns/${c.id}`],
        ] as const) {
          const foreign = await api.call<ErrorBody>(method, path, content(api, body(theirs)));
          const unknown = await api.call<ErrorBody>(method, path, content(api, body('seg_or_tpl_unknown')));
          expect([method, field, foreign.status]).toEqual([method, field, 422]);
          expect(fieldsOf(foreign.body)).toEqual([field]);
          expect(refusalOf(foreign.status, foreign.body, theirs)).toEqual(
            refusalOf(unknown.status, unknown.body, 'seg_or_tpl_unknown'),
          );
        }
      expect((await api.get<{ total: number }>('/campaigns')).body.total).toBe(1);
      expect((await api.get<{ templateId: string | null }>(`/campaigns/${c.id}`)).body.templateId).toBeNull();
      // the project's own template passes the same check
      const mine = (await api.post<{ id: string }>('/templates', tpl({ from: api.from }))).body.id;
      const put = await api.call<{ templateId: string }>(
        'PUT',
        `/campaigns/${c.id}`,
        content(api, { templateId: mine }),
      );
      expect([put.status, put.body.templateId]).toEqual([200, mine]);
    });

    it("another project's campaign is a 404 on every route", async () => {
      const api = await project();
      const other = await project();
      const c = await createCampaign(api, content(api));
      const routes: [string, string, unknown?][] = [
        ['GET', `/campaigns/${c.id}`],
        ['PUT', `/campaigns/${c.id}`, content(other)],
        ['DELETE', `/campaigns/${c.id}`],
        ['POST', `/campaigns/${c.id}/duplicate`, {}],
        ['POST', `/campaigns/${c.id}/send`, {}],
        ['POST', `/campaigns/${c.id}/cancel`, {}],
        ['POST', `/campaigns/${c.id}/test`, { email: 'x@example.com' }],
        ['GET', `/campaigns/${c.id}/stats`],
        ['GET', `/campaigns/${c.id}/recipients`],
        ['GET', `/campaigns/${c.id}/recipients.csv`],
      ];
      for (const [method, path, body] of routes)
        expect([method, path, (await other.call(method, path, body)).status]).toEqual([method, path, 404]);
      expect((await api.get<CampaignBody>(`/campaigns/${c.id}`)).body.status).toBe('DRAFT');
    });
  });

  describe('audiences and the ledger', () => {
    it('ALL, SEGMENT and FILTERED each reach exactly the right subscribed contacts, once, personalised, with one-click List-Unsubscribe', async () => {
      const api = await project();
      const mk = (n: string) => `${n}-${api.domain}@example.com`;
      await contacts(api, [
        { email: mk('ann'), data: { plan: 'pro', name: 'Ann' } },
        { email: mk('bob'), data: { plan: 'free', name: 'Bob' } },
        { email: mk('cy'), data: { plan: 'pro', name: 'Cy' }, subscribed: false },
      ]);
      const pro = await createSegment(api, { name: 'pro', filters: where('data.plan', 'equals', 'pro') });

      const expectations: [Record<string, unknown>, string[]][] = [
        [{ audienceType: 'ALL' }, [mk('ann'), mk('bob')]],
        [{ audienceType: 'SEGMENT', segmentId: pro.id }, [mk('ann')]],
        [{ audienceType: 'FILTERED', audienceFilter: where('data.plan', 'equals', 'free') }, [mk('bob')]],
      ];
      for (const [audience, expected] of expectations) {
        smtp.clear();
        const c = await createCampaign(api, content(api, { ...audience, name: String(audience.audienceType) }));
        const sent = await api.post<CampaignBody>(`/campaigns/${c.id}/send`);
        expect([sent.status, sent.body.status]).toEqual([200, 'SENDING']);
        await campaignIn(api, c.id, 'SENT');
        const got = smtp.messages.flatMap((m) => m.to).sort();
        expect([audience.audienceType, got]).toEqual([audience.audienceType, [...expected].sort()]);
        for (const address of expected) {
          const [m] = to(address);
          const name = address.startsWith('ann') ? 'Ann' : 'Bob';
          expect(m!.subject).toBe(`Hello ${name}`);
          expect(m!.html).toContain(`Hi ${name}`);
          expect(m!.headerLines.find((h) => h.key === 'list-unsubscribe-post')?.line).toBe(
            'List-Unsubscribe-Post: List-Unsubscribe=One-Click',
          );
        }
        const stats = await statsOf(api, c.id);
        expect(addsUp(stats)).toBe(true);
        expect(stats.sent).toBe(expected.length);
      }
    });

    it('the ledger adds up with unsubscribed and suppressed recipients in the audience; SENT only when every row is final; the recipients list and CSV show it', async () => {
      const api = await project();
      const bounced = `gone-${api.domain}@example.com`;
      smtp.reject({ recipient: bounced, code: 550, message: 'No such user' });
      const first = await api.post('/v1/send', {
        to: bounced,
        from: api.from,
        subject: 'x',
        body: 'x',
        subscribed: true,
      });
      expect(first.status).toBe(200);
      await eventually(async () => ((await sending.suppressed(api.projectId, bounced)) ? true : undefined), {
        timeoutMs: SETTLE_MS,
      });
      const goneId = (await api.allContacts()).find((x) => x.email === bounced)!.id;
      await eventually(async () => ((await api.contact(goneId)).subscribed === false ? true : undefined), {
        timeoutMs: SETTLE_MS,
      });
      // subscribed again: still on the suppression list
      expect((await api.patch(`/contacts/${goneId}`, { subscribed: true })).status).toBe(200);
      const ok = Array.from({ length: 12 }, (_, i) => `ok${i}-${api.domain}@example.com`);
      const out = `out-${api.domain}@example.com`;
      await contacts(api, [...ok.map((email) => ({ email })), { email: out, subscribed: false }]);

      const c = await createCampaign(api, content(api));
      await api.post(`/campaigns/${c.id}/send`);
      await campaignIn(api, c.id, 'SENT');
      const stats = await statsOf(api, c.id);
      expect(stats).toMatchObject({
        recipients: 14,
        sent: 12,
        skipped: 2,
        failed: 0,
        unsubscribed: 1,
        suppressed: 1,
        pending: 0,
        queued: 0,
      });
      expect(addsUp(stats)).toBe(true);
      const rows = await recipientsOf(api, c.id);
      expect(rows).toHaveLength(14);
      expect(rows.filter((r) => r.status === 'skipped').map((r) => [r.email, r.reason])).toEqual(
        expect.arrayContaining([
          [bounced, 'suppressed'],
          [out, 'unsubscribed'],
        ]),
      );
      expect((await recipientsOf(api, c.id, 'status=skipped&reason=suppressed')).map((r) => r.email)).toEqual([
        bounced,
      ]);
      expect(to(bounced).filter((m) => m.subject?.startsWith('Hello'))).toHaveLength(0);
      for (const a of ok) expect(to(a)).toHaveLength(1);

      const csv = await fetch(`${api.baseUrl}/campaigns/${c.id}/recipients.csv`, {
        headers: { authorization: `Bearer ${api.key}` },
      });
      expect(csv.status).toBe(200);
      expect(csv.headers.get('content-type')).toContain('text/csv');
      const lines = (await csv.text()).trim().split('\r\n');
      expect(lines[0]).toBe(
        'contactId,email,status,reason,error,emailId,sentAt,deliveredAt,openedAt,clickedAt,bouncedAt,complainedAt,unsubscribedAt',
      );
      expect(lines).toHaveLength(15);
    });

    it('a campaign cap reached mid-send stops the campaign: the rest of the audience ends skipped: billing_limit, and the ledger adds up', async () => {
      const api = await project();
      const audience = Array.from({ length: 25 }, (_, i) => `capped${i}-${api.domain}@example.com`);
      await contacts(
        api,
        audience.map((email) => ({ email })),
      );
      const limits = await fetch(`${herald.url}/users/@me/projects/${api.projectId}/billing-limits`, {
        method: 'PUT',
        headers: { cookie: api.cookie, 'content-type': 'application/json' },
        body: JSON.stringify({ campaign: 10 }),
      });
      expect(limits.status).toBe(200);

      const c = await createCampaign(api, content(api));
      await api.post(`/campaigns/${c.id}/send`);
      await campaignIn(api, c.id, 'SENT');
      const stats = await statsOf(api, c.id);
      // batches of 10: the first fits the cap, the second is refused whole
      expect(stats).toMatchObject({ recipients: 25, sent: 10, skipped: 15, billingLimit: 15, failed: 0 });
      expect(addsUp(stats)).toBe(true);
      expect(audience.filter((a) => to(a).length > 0)).toHaveLength(10);
      expect((await recipientsOf(api, c.id, 'status=skipped&reason=billing_limit')).length).toBe(15);
      expect((await api.get<CampaignBody>(`/campaigns/${c.id}`)).body).toMatchObject({
        status: 'SENT',
        stoppedReason: 'billing_limit',
      });
    });

    it('send on a SENDING or SENT campaign is a 409, as are PUT and DELETE of an active one; cancel of a DRAFT or SENT one is a 409', async () => {
      const api = await project();
      await contacts(api, [{ email: `a-${api.domain}@example.com` }]);
      const draft = await createCampaign(api, content(api));
      expect((await api.post<ErrorBody>(`/campaigns/${draft.id}/cancel`)).status).toBe(409);
      await api.post(`/campaigns/${draft.id}/send`);
      await campaignIn(api, draft.id, 'SENT');
      expect((await api.post<ErrorBody>(`/campaigns/${draft.id}/send`)).status).toBe(409);
      expect((await api.post<ErrorBody>(`/campaigns/${draft.id}/cancel`)).status).toBe(409);
      expect((await api.call('PUT', `/campaigns/${draft.id}`, content(api))).status).toBe(409);
      const dup = await api.post<CampaignBody>(`/campaigns/${draft.id}/duplicate`);
      expect(dup.body.status).toBe('DRAFT');
      expect((await api.delete(`/campaigns/${draft.id}`)).status).toBe(200);
    });
  });

  describe('scheduling and cancelling', () => {
    it('a scheduled campaign is not sent before its time and is sent after it; a past or unparseable time is a 422', async () => {
      const api = await project();
      const address = `sched-${api.domain}@example.com`;
      await contacts(api, [{ email: address }]);
      const c = await createCampaign(api, content(api));
      for (const bad of [new Date(Date.now() - 1000).toISOString(), 'next tuesday'])
        expect((await api.post<ErrorBody>(`/campaigns/${c.id}/send`, { scheduledFor: bad })).status).toBe(422);
      const at = new Date(Date.now() + 5000);
      const res = await api.post<CampaignBody>(`/campaigns/${c.id}/send`, { scheduledFor: at.toISOString() });
      expect(res.body).toMatchObject({ status: 'SCHEDULED', scheduledAt: at.toISOString() });
      expect((await api.delete<ErrorBody>(`/campaigns/${c.id}`)).status).toBe(409);
      const [m] = await smtp.waitFor({ where: (x) => x.to.includes(address) }, SETTLE_MS);
      expect(m!.receivedAt.getTime()).toBeGreaterThanOrEqual(at.getTime());
      await campaignIn(api, c.id, 'SENT');
    });

    it('rescheduling moves the time; cancelling a scheduled campaign sends nothing; its segment cannot be deleted until then', async () => {
      const api = await project();
      const address = `resched-${api.domain}@example.com`;
      const marker = `resched-marker-${api.domain}@example.com`;
      await contacts(api, [{ email: address, data: { vip: true } }, { email: marker }]);
      const vip = await createSegment(api, { name: 'vip', filters: where('data.vip', 'equals', true) });
      const c = await createCampaign(api, content(api, { audienceType: 'SEGMENT', segmentId: vip.id }));
      const first = new Date(Date.now() + 1500);
      await api.post(`/campaigns/${c.id}/send`, { scheduledFor: first.toISOString() });
      const later = new Date(Date.now() + 60_000).toISOString();
      expect((await api.post<CampaignBody>(`/campaigns/${c.id}/send`, { scheduledFor: later })).body.scheduledAt).toBe(
        later,
      );
      // the segment is in use while the campaign is SCHEDULED, once the reference reached segments through the bus
      await references.untilActive('segments', 'segment', vip.id, true);
      const inUse = await api.delete<ErrorBody>(`/segments/${vip.id}`);
      expect([inUse.status, inUse.body.error.code]).toEqual([409, 'SEGMENT_IN_USE']);
      const cancelled = await api.post<CampaignBody>(`/campaigns/${c.id}/cancel`);
      expect([cancelled.status, cancelled.body.status]).toEqual([200, 'CANCELLED']);
      await references.untilActive('segments', 'segment', vip.id, false);
      expect((await api.delete(`/segments/${vip.id}`)).status).toBe(200);
      // a later marker: a campaign scheduled after the first time is sent, so the job of the first
      // schedule (due earlier) has run by then — and did nothing
      const after = await createCampaign(
        api,
        content(api, { audienceType: 'FILTERED', audienceFilter: where('email', 'equals', marker) }),
      );
      const markerAt = new Date(Math.max(first.getTime(), Date.now()) + 500);
      expect((await api.post(`/campaigns/${after.id}/send`, { scheduledFor: markerAt.toISOString() })).status).toBe(
        200,
      );
      await campaignIn(api, after.id, 'SENT');
      expect(to(marker)).toHaveLength(1);
      expect(to(address)).toHaveLength(0);
      expect((await api.get<CampaignBody>(`/campaigns/${c.id}`)).body.status).toBe('CANCELLED');
    });

    it('cancelling mid-send stops the send: what was sent stays sent, the rest ends skipped: cancelled, and the ledger adds up', async () => {
      const api = await project();
      const list = Array.from({ length: 400 }, (_, i) => ({ email: `m${i}-${api.domain}@example.com` }));
      await contacts(api, list);
      const c = await createCampaign(api, content(api));
      await api.post(`/campaigns/${c.id}/send`);
      await smtp.waitFor({ where: (m) => m.to[0]!.endsWith(`-${api.domain}@example.com`), count: 30 }, 30_000);
      const res = await api.post<CampaignBody>(`/campaigns/${c.id}/cancel`);
      expect(res.body.status).toBe('CANCELLED');
      const final = await eventually(
        async () => {
          const s = await statsOf(api, c.id);
          return addsUp(s) ? s : undefined;
        },
        { timeoutMs: SETTLE_MS },
      );
      // what was handed over (at most CAMPAIGN_IN_FLIGHT) is delivered, then nothing
      expect(final.recipients).toBe(400);
      expect(final.cancelled).toBeGreaterThan(0);
      expect(final.sent).toBeLessThan(400);
      expect(final.sent + final.cancelled).toBe(400);
      // every row sent was delivered once, and nothing else went out
      const delivered = smtp.messages.filter((m) => m.to[0]!.endsWith(`-${api.domain}@example.com`));
      expect(delivered).toHaveLength(final.sent);
      expect(new Set(delivered.map((m) => m.to[0])).size).toBe(final.sent);
      expect((await api.get<CampaignBody>(`/campaigns/${c.id}`)).body.status).toBe('CANCELLED');
    });
  });

  describe('test send and references', () => {
    it('POST /campaigns/:id/test sends one email to that address only, marked as a test and rendered with its contact; status and stats do not change', async () => {
      const api = await project();
      const address = `tester-${api.domain}@example.com`;
      await contacts(api, [
        { email: address, data: { name: 'Tess' } },
        { email: `bystander-${api.domain}@example.com` },
      ]);
      const c = await createCampaign(api, content(api));
      const res = await api.post<{ success: boolean; status: string }>(`/campaigns/${c.id}/test`, { email: address });
      expect([res.status, res.body.status]).toEqual([200, 'queued']);
      const [m] = await smtp.waitFor({ where: (x) => x.to.includes(address) });
      expect(m!.subject).toBe('[Test] Hello Tess');
      expect(to(`bystander-${api.domain}@example.com`)).toHaveLength(0);
      expect((await api.get<CampaignBody>(`/campaigns/${c.id}`)).body.status).toBe('DRAFT');
      expect((await statsOf(api, c.id)).recipients).toBe(0);
      expect((await api.post<ErrorBody>(`/campaigns/${c.id}/test`, { email: 'nope' })).status).toBe(422);
    });

    it('template and field usage list the campaigns that reference them; a template is not deleted while a scheduled campaign uses it', async () => {
      const api = await project();
      await api.upsert(`field-${api.domain}@example.com`, { plan: 'pro' }); // the field exists
      const seg = await createSegment(api, { name: 'any', filters: where('subscribed', 'equals', true) });
      const created = await api.post<{ id: string }>('/templates', {
        name: 'T',
        subject: 'S',
        body: 'B',
        from: api.from,
      });
      expect(created.status).toBe(201);
      const tpl = created.body;
      const bySegment = await createCampaign(
        api,
        content(api, { name: 'by segment', audienceType: 'SEGMENT', segmentId: seg.id, templateId: tpl.id }),
      );
      const byFilter = await createCampaign(
        api,
        content(api, {
          name: 'by filter',
          audienceType: 'FILTERED',
          audienceFilter: where('data.plan', 'equals', 'pro'),
        }),
      );
      await eventually(
        async () => {
          const t = await api.get<{ campaigns: { id: string }[] }>(`/templates/${tpl.id}/usage`);
          return t.body.campaigns.map((x) => x.id).includes(bySegment.id) ? true : undefined;
        },
        { timeoutMs: SETTLE_MS },
      );
      const sched = await api.post(`/campaigns/${bySegment.id}/send`, {
        scheduledFor: new Date(Date.now() + 600_000).toISOString(),
      });
      expect(sched.status).toBe(200);
      await references.untilActive('sending', 'template', tpl.id, true);
      const inUse = await api.delete<ErrorBody>(`/templates/${tpl.id}`);
      expect([inUse.status, inUse.body.error.code]).toEqual([409, 'TEMPLATE_IN_USE']);
      await api.post(`/campaigns/${bySegment.id}/cancel`);
      await references.untilActive('sending', 'template', tpl.id, false);
      expect((await api.delete(`/templates/${tpl.id}`)).status).toBe(204);
      await eventually(
        async () => {
          const f = await api.get<{ campaigns: { id: string }[] }>('/contacts/fields/data.plan/usage');
          return f.body.campaigns?.map((x) => x.id).includes(byFilter.id) ? true : undefined;
        },
        { timeoutMs: SETTLE_MS },
      );
    });
  });

  describe('unsubscribes through a campaign', () => {
    const unsubscribeLink = (m: CapturedMessage) =>
      /<(http[^>]+)>/.exec(m.headerLines.find((h) => h.key === 'list-unsubscribe')!.line.replace(/\r?\n\s+/g, ''))![1]!;

    it("a recipient who unsubscribes through the campaign's List-Unsubscribe link is counted in its stats.unsubscribed and on its ledger row", async () => {
      const api = await project();
      const leaver = `leaver-${api.domain}@example.com`;
      const stayer = `stayer-${api.domain}@example.com`;
      await contacts(api, [{ email: leaver }, { email: stayer }]);
      const c = await createCampaign(api, content(api));
      await api.post(`/campaigns/${c.id}/send`);
      await campaignIn(api, c.id, 'SENT');
      expect(await statsOf(api, c.id)).toMatchObject({ recipients: 2, sent: 2, unsubscribed: 0 });

      const [m] = await smtp.waitFor({ where: (x) => x.to.includes(leaver) }, SETTLE_MS);
      const oneClick = await fetch(unsubscribeLink(m!), {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: 'List-Unsubscribe=One-Click',
      });
      expect(oneClick.status).toBe(200);
      const stats = await eventually(
        async () => {
          const s = await statsOf(api, c.id);
          return s.unsubscribed === 1 ? s : undefined;
        },
        { timeoutMs: SETTLE_MS, message: 'the unsubscribe was never counted in the campaign stats' },
      );
      expect(stats).toMatchObject({
        recipients: 2,
        sent: 2,
        skipped: 0,
        unsubscribed: 1,
        unsubscribedByLink: 1,
        skippedUnsubscribed: 0,
      });
      expect(stats.rates.unsubscribed).toBe(0.5);
      expect(addsUp(stats)).toBe(true);
      const rows = await recipientsOf(api, c.id);
      expect(rows.filter((r) => r.unsubscribedAt).map((r) => r.email)).toEqual([leaver]);
      // a second click changes nothing: the contact is already unsubscribed
      await fetch(unsubscribeLink(m!), {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: 'List-Unsubscribe=One-Click',
      });
      expect((await statsOf(api, c.id)).unsubscribed).toBe(1);
    });
  });

  it('a send resumed after the campaigns process was killed mid-send reaches sending from its first attempt: no attempt fails for want of a sending URL, and the ledger adds up', async () => {
    const api = await project();
    const list = Array.from({ length: 200 }, (_, i) => ({ email: `resume${i}-${api.domain}@example.com` }));
    await contacts(api, list);
    const c = await createCampaign(api, content(api));
    await api.post(`/campaigns/${c.id}/send`);
    await smtp.waitFor({ where: (m) => m.to[0]!.startsWith('resume'), count: 20 }, SETTLE_MS);
    const campaigns = herald.processOf('campaigns');
    campaigns.output = ''; // what the restarted process logs, alone
    await herald.restart('campaigns', 'SIGKILL');
    const done = await campaignIn(api, c.id, 'SENT', 120_000);
    const stats = await statsOf(api, c.id);
    expect([done.status, stats.recipients, stats.sent, stats.failed]).toEqual(['SENT', 200, 200, 0]);
    expect(addsUp(stats)).toBe(true);
    expect((await recipientsOf(api, c.id, 'status=failed')).length).toBe(0);
    // every address got one copy, through the restart
    const got = smtp.messages.filter((m) => m.to[0]!.startsWith('resume')).map((m) => m.to[0]);
    expect([got.length, new Set(got).size]).toEqual([200, 200]);
    // no internal call of the resumed process failed for want of a URL (before the fix, the first
    // attempt after boot failed in standalone with "SENDING_URL is not configured" and was retried)
    expect(campaigns.output).not.toMatch(/is not configured/);
    expect(campaigns.output).not.toMatch(/"msg":"internal call failed"/);
  }, 240_000);

  it('a scheduled campaign whose time passes while Herald is down is sent after the restart', async () => {
    const api = await project();
    const address = `restart-${api.domain}@example.com`;
    await contacts(api, [{ email: address }]);
    const c = await createCampaign(api, content(api));
    const at = new Date(Date.now() + 2000);
    await api.post(`/campaigns/${c.id}/send`, { scheduledFor: at.toISOString() });
    const campaigns = herald.processOf('campaigns');
    await campaigns.stop();
    // campaigns stays down until the scheduled time has passed (a condition on the clock, not a guess)
    await eventually(() => (Date.now() > at.getTime() + 500 ? true : undefined), { timeoutMs: 10_000, intervalMs: 20 });
    expect(to(address)).toHaveLength(0);
    await campaigns.start({ timeoutMs: 120_000 });
    const [m] = await smtp.waitFor({ where: (x) => x.to.includes(address) }, SETTLE_MS);
    expect(m!.receivedAt.getTime()).toBeGreaterThan(at.getTime());
    await campaignIn(api, c.id, 'SENT');
  }, 180_000);
});

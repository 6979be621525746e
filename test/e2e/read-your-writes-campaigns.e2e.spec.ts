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
import { createCampaign, recipientsOf } from './campaigns-helpers.js';
import { newProject, type ContactBody, type ErrorBody, type Reply, type TestProjectApi } from './contacts-helpers.js';
import { createSegment, where } from './segments-helpers.js';
import { verifyNow } from './sending-helpers.js';

/** Write-then-read pairs, each repeated this many times in a row with no wait between the two. */
const ROUNDS = 100;

type Api = TestProjectApi & { from: string; domainId: string };

/**
 * Read-your-writes (docs/consistency.md) where the decisions are taken on copies: a campaign's
 * audience (segments' copy of contacts, read by the campaign's job) in projects whose domain was
 * verified a moment before, a scheduled campaign in the upcoming list and under its segment
 * (analytics' and segments' copies of campaigns), a deleted sender domain (sending's copy of
 * domains). Each round writes and then sends or reads at once; the waits left are for the campaigns'
 * jobs to finish, as a user waits for a campaign to be SENT. Last, a copy held back: a 503 with
 * Retry-After, then the right answer. The domain pair reuses the audience pair's projects (a DKIM
 * key is made per domain). The pairs run side by side (`it.concurrent`, each on projects of its own);
 * the domain pair once the audience pair is over, and the held-back copy alone, last (its lock holds
 * back every project's segments).
 */
describe(`read-your-writes: campaigns, schedules and domains (${e2eMode()})`, () => {
  let dns: TestDnsServer;
  let smtp: SmtpSink;
  let herald: Topology;
  let owner: string;
  let seq = 0;
  /** One project per round of the audience pair (an ALL audience is the whole project), each with a verified domain. */
  const projects: Api[] = [];

  beforeAll(async () => {
    dns = await startDnsServer();
    smtp = await startSmtpSink();
    herald = await startTopology({
      env: { RATE_LIMIT_PER_MINUTE: '100000', DNS_SERVERS: dns.address, SMTP_URL: smtp.url },
    });
    owner = (await newProject(herald.url)).cookie;
    // a few at a time: each makes a DKIM key
    while (projects.length < ROUNDS) projects.push(...(await Promise.all(Array.from({ length: 5 }, project))));
  }, 600_000);

  afterAll(async () => {
    await herald?.stop();
    await smtp?.stop();
    await dns?.stop();
  }, 60_000);

  /** A project whose domain was verified a moment ago: nothing waits for sending's copy to hear of it. */
  async function project(): Promise<Api> {
    const api = await newProject(herald.url, owner);
    const domain = await verifyNow(api, dns, `rw${++seq}-${Date.now().toString(36)}.example.test`);
    return Object.assign(api, { from: `news@${domain.domain}`, domainId: domain.id });
  }

  async function created(api: Api, email: string, data: Record<string, unknown> = {}): Promise<ContactBody> {
    const res = await api.post<ContactBody>('/contacts', { email, data });
    expect(res.status).toBe(201);
    return res.body;
  }

  async function send(api: Api, body: Record<string, unknown>): Promise<string> {
    const campaign = await createCampaign(api, {
      name: 'Now',
      subject: `RW ${++seq}`,
      body: '<p>Hi</p>',
      from: api.from,
      ...body,
    });
    const sent = await api.post<{ status: string }>(`/campaigns/${campaign.id}/send`);
    expect([sent.status, sent.body.status]).toEqual([200, 'SENDING']);
    return campaign.id;
  }

  it.concurrent(
    'a campaign sent right after its contacts were written reaches every one of them, to all, a segment or a filter in turn; an unsubscribe just before is skipped',
    async () => {
      const audiences = ['ALL', 'SEGMENT', 'FILTERED'] as const;
      const rounds: {
        api: Api;
        audience: (typeof audiences)[number];
        campaign: string;
        expected: string[];
        u: string;
      }[] = [];
      for (let i = 1; i <= ROUNDS; i++) {
        const api = projects[i - 1]!;
        const audience = audiences[i % 3]!;
        const a = await created(api, `a${i}@rw.test`, { wave: 'now', n: i });
        const b = await created(api, `b${i}@rw.test`, { n: i });
        const u = await created(api, `u${i}@rw.test`, { wave: 'now', n: i });
        expect((await api.patch(`/contacts/${u.id}`, { subscribed: false })).status).toBe(200);
        const campaign =
          audience === 'ALL'
            ? await send(api, { audienceType: 'ALL' })
            : audience === 'SEGMENT'
              ? await send(api, {
                  audienceType: 'SEGMENT',
                  segmentId: (await createSegment(api, { name: 'Wave', filters: where('data.wave', 'equals', 'now') }))
                    .id,
                })
              : await send(api, { audienceType: 'FILTERED', audienceFilter: where('data.n', 'equals', i) });
        rounds.push({ api, audience, campaign, expected: audience === 'SEGMENT' ? [a.id] : [a.id, b.id], u: u.id });
      }
      for (const [i, { api, audience, campaign, expected, u }] of rounds.entries()) {
        await eventually(
          async () =>
            (await api.get<{ status: string }>(`/campaigns/${campaign}`)).body.status === 'SENT' ? true : undefined,
          { timeoutMs: 120_000, message: `campaign ${campaign} (${audience}, round ${i + 1}) never completed` },
        );
        const ledger = await recipientsOf(api, campaign);
        const sent = ledger.filter((r) => r.status === 'sent').map((r) => r.contactId);
        const skipped = ledger.filter((r) => r.status === 'skipped').map((r) => [r.contactId, r.reason]);
        // u is in every audience, and unsubscribed a moment before the send
        expect({ round: i + 1, audience, sent: sent.sort(), skipped }).toEqual({
          round: i + 1,
          audience,
          sent: [...expected].sort(),
          skipped: [[u, 'unsubscribed']],
        });
      }
      // every email reached the relay, once
      for (const [i, { audience }] of rounds.entries()) {
        const to = (who: string) => smtp.messages.filter((m) => m.to.includes(`${who}${i + 1}@rw.test`)).length;
        await eventually(() => to('a') === 1 && to('b') === (audience === 'SEGMENT' ? 0 : 1), {
          timeoutMs: 60_000,
          message: `round ${i + 1}'s emails never all reached the relay`,
        });
        expect(to('u')).toBe(0);
      }
    },
    900_000,
  );

  it.concurrent(
    'a campaign scheduled is at once upcoming, and its segment cannot be deleted (409) until it is cancelled',
    async () => {
      const api = await project();
      for (let i = 1; i <= ROUNDS; i++) {
        const segment = await createSegment(api, { name: `Later ${i}`, filters: where('data.later', 'equals', i) });
        const campaign = await createCampaign(api, {
          name: `Later ${i}`,
          subject: 'Later',
          body: '<p>Later</p>',
          from: api.from,
          audienceType: 'SEGMENT',
          segmentId: segment.id,
        });
        const at = new Date(Date.now() + 3_600_000).toISOString();
        expect((await api.post(`/campaigns/${campaign.id}/send`, { scheduledFor: at })).status).toBe(200);
        const upcoming = await api.get<{ data?: { id?: string; campaignId?: string }[] } & Record<string, unknown>>(
          '/activity/upcoming',
        );
        expect({ round: i, upcoming: JSON.stringify(upcoming.body).includes(campaign.id) }).toEqual({
          round: i,
          upcoming: true,
        });
        const refused: Reply<ErrorBody> = await api.delete(`/segments/${segment.id}`);
        expect({ round: i, status: refused.status }).toEqual({ round: i, status: 409 });
        expect((await api.post(`/campaigns/${campaign.id}/cancel`)).status).toBe(200);
        expect({ round: i, status: (await api.delete(`/segments/${segment.id}`)).status }).toEqual({
          round: i,
          status: 200,
        });
      }
    },
    300_000,
  );

  it("a project's domain deleted: /v1/send refuses it at once", async () => {
    // the projects of the audience pair (their campaigns are over), each with its verified domain
    for (const [i, api] of projects.entries()) {
      const message = { to: `r${i + 1}@rw.test`, from: api.from, subject: 'Hi', body: '<p>Hi</p>' };
      expect({ round: i + 1, status: (await api.post('/v1/send', message)).status }).toEqual({
        round: i + 1,
        status: 200,
      });
      expect((await api.delete(`/domains/${api.domainId}`)).status).toBe(200);
      const refused: Reply<ErrorBody> = await api.post('/v1/send', message);
      expect({ round: i + 1, status: refused.status, code: refused.body.error?.errors?.[0]?.code }).toEqual({
        round: i + 1,
        status: 422,
        code: 'domain_not_verified',
      });
    }
  }, 300_000);

  it.concurrent(
    'a campaign created is at once in the usage of the fields its audience filter names',
    async () => {
      const api = await project();
      // the usage of a field is answered for fields the project has (a contact holds each)
      await created(
        api,
        'fields@rw.test',
        Object.fromEntries(Array.from({ length: ROUNDS }, (_, i) => [`cf${i + 1}`, 'x'])),
      );
      for (let i = 1; i <= ROUNDS; i++) {
        const campaign = await createCampaign(api, {
          name: `Filtered ${i}`,
          subject: 'Hi',
          body: '<p>Hi</p>',
          from: api.from,
          audienceType: 'FILTERED',
          audienceFilter: where(`data.cf${i}`, 'equals', 'x'),
        });
        const usage = await api.get<{ campaigns: { id: string }[] }>(`/contacts/fields/data.cf${i}/usage`);
        expect({ round: i, campaigns: usage.body.campaigns }).toEqual({
          round: i,
          campaigns: [expect.objectContaining({ id: campaign.id })],
        });
      }
    },
    300_000,
  );

  it('while a copy is held back a read answers 503 CONSISTENCY_TIMEOUT with Retry-After, and the right answer once it catches up', async () => {
    const api = await project();
    const segment = await createSegment(api, { name: 'Held', filters: where('data.held', 'equals', true) });
    const pool = new pg.Pool({ connectionString: herald.db.url, max: 1 });
    const hold = await pool.connect();
    let contact: ContactBody;
    try {
      // segments' consumer cannot write its copy of contacts (reads go through): the copy is held back
      await hold.query('BEGIN');
      await hold.query('LOCK TABLE segments.segment_contacts IN SHARE MODE');
      contact = await created(api, 'held@rw.test', { held: true });
      const behind = await fetch(`${herald.url}/segments/${segment.id}/contacts`, {
        headers: { authorization: `Bearer ${api.key}` },
      });
      expect({
        status: behind.status,
        retryAfter: behind.headers.get('retry-after'),
        code: ((await behind.json()) as ErrorBody).error.code,
      }).toEqual({ status: 503, retryAfter: '1', code: 'CONSISTENCY_TIMEOUT' });
    } finally {
      await hold.query('COMMIT');
      hold.release();
      await pool.end();
    }
    // nothing was lost: the next read waits for the copy, which applies the write now
    const page = await api.get<{ data: { id: string }[]; total: number }>(`/segments/${segment.id}/contacts`);
    expect([page.status, page.body.total, page.body.data.map((c) => c.id)]).toEqual([200, 1, [contact.id]]);
  }, 120_000);
});

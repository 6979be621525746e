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
import { campaignIn, createCampaign, statsOf, type StatsBody } from './campaigns-helpers.js';
import { fieldsOf, newProject, type ErrorBody, type TestProjectApi } from './contacts-helpers.js';
import { createSegment, where } from './segments-helpers.js';
import { SendingDb, verifiedDomain } from './sending-helpers.js';

/** The campaign figures analytics answers (`GET /analytics/campaign-stats`). */
interface CampaignAnalytics {
  campaignId: string;
  name: string | null;
  state: string;
  recipients: number;
  sent: number;
  uniqueOpens: number;
  uniqueClicks: number;
  bounces: number;
  unsubscribes: number;
}

/** `GET /analytics/campaign-stats` without a campaign id: a page of the project's campaigns. */
interface CampaignListBody {
  campaigns: CampaignAnalytics[];
  page: number;
  pageSize: number;
  total: number;
  totalPages: number;
}

/**
 * One campaign seen by its two readers (issue 24, item 3): the campaigns service's stats, from its
 * delivery ledger, and analytics' campaign-stats, from the event stream, agree after a campaign
 * with a bounce, an unsubscribed contact left out, repeated opens and a click. Runs in the run's
 * mode (HERALD_E2E_MODE, libs/testing `startTopology`); exclusive: its DNS server and SMTP sink are
 * its own.
 */
describe(`campaign figures: analytics agrees with the campaigns ledger (${e2eMode()})`, () => {
  let dns: TestDnsServer;
  let smtp: SmtpSink;
  let sending: SendingDb;
  let herald: Topology;

  beforeAll(async () => {
    [dns, smtp] = await Promise.all([startDnsServer(), startSmtpSink()]);
    herald = await startTopology({
      exclusive: true,
      env: {
        RATE_LIMIT_PER_MINUTE: '100000',
        DNS_SERVERS: dns.address,
        SMTP_URL: smtp.url,
        DELIVERY_RETRY_BASE_MS: '200',
      },
    });
    sending = new SendingDb(herald.db.url);
  }, 240_000);

  afterAll(async () => {
    await sending?.end();
    await herald?.stop();
    await smtp?.stop();
    await dns?.stop();
  }, 60_000);

  it('recipients, sent, bounces, unique opens and clicks are the same numbers in both', async () => {
    const api = await newProject(herald.url);
    const domain = `ca-${Date.now().toString(36)}.example.test`;
    await verifiedDomain(api, dns, sending, domain);
    const readers = ['ann@agree.test', 'bob@agree.test', 'cat@agree.test'];
    for (const email of readers) await api.upsert(email, {});
    await api.upsert('gone@agree.test', {});
    await api.upsert('left@agree.test', {}, { subscribed: false });
    // wait until segments' read model (the audience's source) has all five
    const everyone = await createSegment(api, { name: 'everyone', filters: where('email', 'contains', '@') });
    await eventually(
      async () => (await api.get<{ total: number }>(`/segments/${everyone.id}/contacts`)).body.total === 5,
      { timeoutMs: 30_000 },
    );
    expect((await api.delete(`/segments/${everyone.id}`)).status).toBe(200);

    smtp.reject({ recipient: 'gone@agree.test', code: 550, message: 'No such user' });
    const campaign = await createCampaign(api, {
      name: 'Agreement',
      subject: 'Hello',
      body: '<p>Hi <a href="https://example.org/offer">offer</a></p>',
      from: `news@${domain}`,
      audienceType: 'ALL',
    });
    expect((await api.post(`/campaigns/${campaign.id}/send`, {})).status).toBeLessThan(300);
    await campaignIn(api, campaign.id, 'SENT', 60_000);

    const html = async (address: string) => (await smtp.waitFor((m) => m.to.includes(address), 30_000))[0]!.html!;
    const pixel = (h: string) => /src="(http[^"]+\/t\/open\/[^"]+)"/.exec(h)![1]!;
    const link = (h: string) => /href="(http[^"]+\/t\/click\/[^"]+)"/.exec(h)![1]!;
    const ann = await html('ann@agree.test');
    const bob = await html('bob@agree.test');
    await fetch(pixel(ann));
    await fetch(pixel(ann)); // a second open of one recipient: still one unique open
    await fetch(pixel(bob));
    await fetch(link(bob), { redirect: 'manual' });

    const ledger = await eventually(
      async () => {
        const s = await statsOf(api, campaign.id);
        return s.opened === 2 && s.clicked === 1 && s.bounced + s.failed === 1 ? s : undefined;
      },
      { timeoutMs: 30_000, message: 'the campaign stats never showed the opens, the click and the bounce' },
    );
    const analytics = await eventually(
      async () => {
        const res = await api.get<CampaignAnalytics>(`/analytics/campaign-stats?campaignId=${campaign.id}`);
        const a = res.status === 200 ? res.body : undefined;
        // sent and recipients come from email.sent and campaign.sending, topics of their own: until they
        // agree with the ledger (a disagreement that lasts fails here)
        const agrees = a && a.sent === ledger.sent && a.recipients === ledger.recipients;
        return agrees && a.uniqueOpens === 2 && a.uniqueClicks === 1 && a.bounces === 1 ? a : undefined;
      },
      { timeoutMs: 30_000, message: 'analytics never showed the opens, the click and the bounce' },
    );
    const fromLedger = (s: StatsBody) => ({
      recipients: s.recipients,
      sent: s.sent,
      bounces: s.bounced,
      uniqueOpens: s.opened,
      uniqueClicks: s.clicked,
    });
    expect(fromLedger(ledger)).toEqual({
      recipients: analytics.recipients,
      sent: analytics.sent,
      bounces: analytics.bounces,
      uniqueOpens: analytics.uniqueOpens,
      uniqueClicks: analytics.uniqueClicks,
    });
    expect(ledger).toMatchObject({ recipients: 5, unsubscribed: 1 });
  }, 180_000);

  describe('without campaignId: every campaign of the project, newest first', () => {
    let seq = 0;
    /** A project with a verified sender domain, and `n` DRAFT campaigns created one after the other (oldest first). */
    const projectWith = async (n: number, label: string): Promise<{ api: TestProjectApi; ids: string[] }> => {
      const api = await newProject(herald.url);
      const domain = `cl${++seq}-${Date.now().toString(36)}.example.test`;
      await verifiedDomain(api, dns, sending, domain);
      const ids: string[] = [];
      for (let i = 1; i <= n; i++) {
        const c = await createCampaign(api, {
          name: `${label} ${i}`,
          subject: 'Hello',
          body: '<p>Hi</p>',
          from: `news@${domain}`,
          audienceType: 'ALL',
        });
        ids.push(c.id);
      }
      return { api, ids };
    };
    const list = async (api: TestProjectApi, query = '') => {
      const res = await api.get<CampaignListBody>(`/analytics/campaign-stats${query}`);
      expect(res.status).toBe(200);
      return res.body;
    };

    it('lists every campaign of the project newest first, each the view the campaignId form answers, one created a moment before included', async () => {
      const { api, ids } = await projectWith(3, 'Launch');
      // read at once: no wait (read-your-writes: the route observes campaigns' writes)
      const page = await list(api);
      expect(page).toMatchObject({ page: 1, pageSize: 20, total: 3, totalPages: 1 });
      expect(page.campaigns.map((c) => [c.campaignId, c.name, c.state])).toEqual([
        [ids[2], 'Launch 3', 'draft'],
        [ids[1], 'Launch 2', 'draft'],
        [ids[0], 'Launch 1', 'draft'],
      ]);
      for (const c of page.campaigns) {
        const one = await api.get<CampaignAnalytics>(`/analytics/campaign-stats?campaignId=${c.campaignId}`);
        expect([one.status, one.body]).toEqual([200, c]);
      }
    });

    it('pages: pageSize campaigns a page, page from 1, with the total and the number of pages; pageSize over 100 is a 422', async () => {
      const { api, ids } = await projectWith(5, 'Paged');
      const newestFirst = [...ids].reverse();
      const pages = [
        await list(api, '?pageSize=2'),
        await list(api, '?page=2&pageSize=2'),
        await list(api, '?page=3&pageSize=2'),
      ];
      expect(pages.map((p) => p.campaigns.map((c) => c.campaignId))).toEqual([
        newestFirst.slice(0, 2),
        newestFirst.slice(2, 4),
        newestFirst.slice(4),
      ]);
      expect(pages.map((p) => [p.page, p.pageSize, p.total, p.totalPages])).toEqual([
        [1, 2, 5, 3],
        [2, 2, 5, 3],
        [3, 2, 5, 3],
      ]);
      expect((await list(api, '?page=4&pageSize=2')).campaigns).toEqual([]);
      const tooMany = await api.get<ErrorBody>('/analytics/campaign-stats?pageSize=101');
      expect([tooMany.status, fieldsOf(tooMany.body)]).toEqual([422, ['pageSize']]);
    });

    it('never lists another project’s campaigns, nor answers one by its id', async () => {
      const mine = await projectWith(1, 'Mine');
      const theirs = await projectWith(2, 'Theirs');
      expect((await list(mine.api)).campaigns.map((c) => c.campaignId)).toEqual(mine.ids);
      expect((await list(theirs.api)).campaigns.map((c) => c.campaignId)).toEqual([...theirs.ids].reverse());
      const foreign = await mine.api.get<ErrorBody>(`/analytics/campaign-stats?campaignId=${theirs.ids[0]}`);
      expect([foreign.status, foreign.body.error.code]).toEqual([404, 'CAMPAIGN_NOT_FOUND']);
    });

    it('a campaign deleted a moment before is listed no more, nor answered by its id', async () => {
      const { api, ids } = await projectWith(2, 'Deleted');
      expect((await api.delete(`/campaigns/${ids[1]}`)).status).toBeLessThan(300);
      // read at once: no wait
      const page = await list(api);
      expect([page.total, page.campaigns.map((c) => c.campaignId)]).toEqual([1, [ids[0]]]);
      const gone = await api.get<ErrorBody>(`/analytics/campaign-stats?campaignId=${ids[1]}`);
      expect([gone.status, gone.body.error.code]).toEqual([404, 'CAMPAIGN_NOT_FOUND']);
    });
  });
});

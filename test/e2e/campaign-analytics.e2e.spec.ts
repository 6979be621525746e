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
import { newProject } from './contacts-helpers.js';
import { createSegment, where } from './segments-helpers.js';
import { SendingDb, verifiedDomain } from './sending-helpers.js';

/** The campaign figures analytics answers (`GET /analytics/campaign-stats`). */
interface CampaignAnalytics {
  recipients: number;
  sent: number;
  uniqueOpens: number;
  uniqueClicks: number;
  bounces: number;
  unsubscribes: number;
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
});

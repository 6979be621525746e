import { Topics } from '@herald/contracts';
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
import { createCampaign, recipientsOf, statsOf, type CampaignBody } from './campaigns-helpers.js';
import { newProject, Outbox, type ContactBody, type ErrorBody, type TestProjectApi } from './contacts-helpers.js';
import { SendingDb, verifiedDomain } from './sending-helpers.js';

type Api = TestProjectApi & { domain: string; from: string };

interface TestSendBody {
  success: boolean;
  email: string;
  status: string;
  emailId: string;
}

/**
 * A campaign's test send (`POST /campaigns/:id/test`, issue 37 item 7, docs/campaigns.md "Test
 * sends") reaches the address it names whatever its contact's state: no contact, an unsubscribed
 * one; it is marked as a test, counts nowhere in the campaign, and creates or changes no contact.
 * A suppressed address is refused. Mail is captured by the loopback SMTP sink; runs in the run's
 * mode (HERALD_E2E_MODE, libs/testing `startTopology`), exclusive: its DNS server and sink are its own.
 */
describe(`campaign test sends (${e2eMode()})`, () => {
  const SETTLE_MS = 30_000;
  let dns: TestDnsServer;
  let smtp: SmtpSink;
  let sending: SendingDb;
  let outbox: Outbox;
  let herald: Topology;
  let seq = 0;

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
    outbox = new Outbox(herald.db.url);
  }, 240_000);

  afterAll(async () => {
    await sending?.end();
    await outbox?.end();
    await herald?.stop();
    await smtp?.stop();
    await dns?.stop();
  }, 60_000);

  const project = async (): Promise<Api> => {
    const api = await newProject(herald.url);
    const domain = `ts${++seq}-${Date.now().toString(36)}.example.test`;
    await verifiedDomain(api, dns, sending, domain);
    return Object.assign(api, { domain, from: `news@${domain}` });
  };
  const campaign = (api: Api) =>
    createCampaign(api, {
      name: 'Spring',
      subject: 'Hello {{name ?? "friend"}}',
      body: '<p>Hi {{name ?? "friend"}} <a href="{{unsubscribeUrl}}">unsubscribe</a></p>',
      from: api.from,
      audienceType: 'ALL',
    });
  const testSend = (api: Api, id: string, email: string) =>
    api.post<TestSendBody & ErrorBody>(`/campaigns/${id}/test`, { email });
  const arrival = async (address: string): Promise<CapturedMessage> =>
    (await smtp.waitFor({ where: (m) => m.to.includes(address) }, SETTLE_MS))[0]!;
  const search = async (api: Api, address: string): Promise<ContactBody[]> =>
    (await api.get<{ data: ContactBody[] }>(`/contacts?search=${encodeURIComponent(address)}`)).body.data;
  /** The contacts service's events about a contact. */
  const contactTopics = [
    Topics.ContactCreated,
    Topics.ContactUpdated,
    Topics.ContactSubscribed,
    Topics.ContactUnsubscribed,
    Topics.ContactDeleted,
  ];
  const unsubscribeLink = (m: CapturedMessage) =>
    /<(http[^>]+)>/.exec(m.headerLines.find((h) => h.key === 'list-unsubscribe')!.line.replace(/\r?\n\s+/g, ''))![1]!;

  it('a test to an address with no contact arrives at the SMTP sink with the address only, marked as a test, creates no contact, and its unsubscribe link shows a page that changes nothing', async () => {
    const api = await project();
    const c = await campaign(api);
    const address = `designer-${api.domain}@agency.test`;

    const res = await testSend(api, c.id, address);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, email: address, status: 'queued', emailId: expect.any(String) });
    expect(await search(api, address)).toEqual([]);

    const m = await arrival(address);
    expect(m.subject).toBe('[Test] Hello friend');
    expect(m.html).toContain('Hi friend');
    const email = await api.get<{ test: boolean; origin: string; to: { email: string } }>(
      `/emails/${res.body.emailId}`,
    );
    expect(email.body).toMatchObject({ test: true, origin: 'campaign', to: { email: address } });

    const page = await fetch(unsubscribeLink(m));
    expect([page.status, await page.text()]).toEqual([200, expect.stringContaining(address)]);
    const oneClick = await fetch(unsubscribeLink(m), {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'List-Unsubscribe=One-Click',
    });
    expect([oneClick.status, await oneClick.text()]).toEqual([200, expect.stringContaining('nothing was changed')]);
    expect(await search(api, address)).toEqual([]);
  });

  it("a test to an unsubscribed contact arrives rendered with its data; the contact stays unsubscribed and unchanged, and the campaign's status, stats and ledger do not change", async () => {
    const api = await project();
    const c = await campaign(api);
    const address = `left-${api.domain}@example.com`;
    const before = await api.upsert(address, { name: 'Una' }, { subscribed: false });
    const eventsBefore = await outbox.events(contactTopics, [before.id]);

    const res = await testSend(api, c.id, address);
    expect([res.status, res.body.status]).toEqual([200, 'queued']);
    const m = await arrival(address);
    expect(m.subject).toBe('[Test] Hello Una');
    expect(m.html).toContain('Hi Una');

    expect(await api.contact(before.id)).toMatchObject({ subscribed: false, updatedAt: before.updatedAt });
    expect(await outbox.events(contactTopics, [before.id])).toEqual(eventsBefore);
    expect((await api.get<CampaignBody>(`/campaigns/${c.id}`)).body.status).toBe('DRAFT');
    expect(await statsOf(api, c.id)).toMatchObject({ recipients: 0, sent: 0, skipped: 0, queued: 0 });
    expect(await recipientsOf(api, c.id)).toEqual([]);
  });

  it('a test to a suppressed address (it hard-bounced) is refused with a 422 ADDRESS_SUPPRESSED on email', async () => {
    const api = await project();
    const c = await campaign(api);
    const bounced = `gone-${api.domain}@example.com`;
    smtp.reject({ recipient: bounced, code: 550, message: 'No such user' });
    expect((await api.post('/v1/send', { to: bounced, from: api.from, subject: 'x', body: 'x' })).status).toBe(200);
    await eventually(async () => ((await sending.suppressed(api.projectId, bounced)) ? true : undefined), {
      timeoutMs: SETTLE_MS,
      message: 'the bounced address was never suppressed',
    });

    const res = await testSend(api, c.id, bounced);
    expect(res.status).toBe(422);
    expect(res.body.error.errors).toEqual([expect.objectContaining({ field: 'email', code: 'ADDRESS_SUPPRESSED' })]);
  });
});

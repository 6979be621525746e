import { collect, Herald, HeraldError } from '@herald/sdk';
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
import { newProject, type TestProjectApi } from './contacts-helpers.js';
import { projectWithSender } from './sending-helpers.js';

/**
 * The TypeScript SDK (libs/sdk, ADR 0022) as an integrator uses it, against a real Herald: a send
 * reaches the SMTP sink, a batch answers per item, a refusal is a HeraldError with Herald's code,
 * request id and fields, track works with the public key, contacts are created, read, updated,
 * listed page after page and deleted, a campaign is sent, and a workflow runs on a tracked event.
 */
describe(`@herald/sdk against Herald (${e2eMode()})`, () => {
  let dns: TestDnsServer;
  let smtp: SmtpSink;
  let herald: Topology;
  let owner: string;
  let seq = 0;
  const address = (name: string) => `sdk-${name}-${++seq}@example.com`;

  /** A project with a verified sender domain, and the SDK on its secret key. */
  const project = async (): Promise<{ api: TestProjectApi & { from: string }; sdk: Herald }> => {
    const api = await projectWithSender(herald.url, dns, owner, 'sdk');
    return { api, sdk: new Herald({ apiKey: api.key, baseUrl: herald.url }) };
  };

  beforeAll(async () => {
    [dns, smtp] = await Promise.all([startDnsServer(), startSmtpSink()]);
    herald = await startTopology({
      env: { RATE_LIMIT_PER_MINUTE: '100000', DNS_SERVERS: dns.address, SMTP_URL: smtp.url },
    });
    owner = (await newProject(herald.url)).cookie;
  }, 480_000); // eight processes migrated and started on a loaded machine: a deadline, not a target

  afterAll(async () => {
    await herald?.stop();
    await Promise.all([smtp?.stop(), dns?.stop()]);
  }, 60_000);

  it('emails.send delivers the mail, and a repeat under the same Idempotency-Key replays the first answer', async () => {
    const { api, sdk } = await project();
    const to = address('send');
    const body = { to, subject: 'Welcome from the SDK', body: '<p>Hello</p>', from: api.from };
    const first = await sdk.emails.send(body, { idempotencyKey: `sdk-send-${seq}` });
    expect(first.data.emails).toEqual([expect.objectContaining({ contact: { id: expect.any(String), email: to } })]);
    const [message] = await smtp.waitFor((m) => m.to.includes(to));
    expect(message!.subject).toBe('Welcome from the SDK');
    const again = await sdk.emails.send(body, { idempotencyKey: `sdk-send-${seq}` });
    expect(again.data.emails).toEqual(first.data.emails);
  });

  it('emails.sendBatch in permissive mode sends the valid items and answers the invalid ones with their errors', async () => {
    const { api, sdk } = await project();
    const to = address('batch');
    const answer = await sdk.emails.sendBatch(
      [
        { to, subject: 'Batch item', body: '<p>one</p>', from: api.from },
        { to: 'not-an-address', subject: 'Bad item', body: '<p>two</p>', from: api.from },
      ],
      { validation: 'permissive' },
    );
    expect(answer.data.items).toEqual([
      expect.objectContaining({
        index: 0,
        emails: [expect.objectContaining({ contact: expect.objectContaining({ email: to }) })],
      }),
      expect.objectContaining({
        index: 1,
        errors: expect.arrayContaining([expect.objectContaining({ field: expect.stringMatching(/^items\[1\]\.to/) })]),
      }),
    ]);
    await smtp.waitFor((m) => m.to.includes(to));
  });

  it('a refused request throws HeraldError with the status, code, request id and field errors Herald answered', async () => {
    const { api, sdk } = await project();
    const error = await sdk.emails
      .send({ to: 'not-an-address', subject: 'x', body: 'x', from: api.from })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HeraldError);
    const refusal = error as HeraldError;
    expect([refusal.status, refusal.code]).toEqual([422, 'VALIDATION_ERROR']);
    expect(refusal.requestId).toMatch(/^[0-9a-f-]{36}$/);
    expect(refusal.errors.map((e) => e.field)).toContainEqual(expect.stringMatching(/^to/));
    const missing = await sdk.contacts.get('cnt_doesnotexist').catch((e: unknown) => e);
    expect(missing).toMatchObject({ name: 'HeraldError', status: 404, code: 'CONTACT_NOT_FOUND' });
  });

  it('events.track records the event with the public key, creating the contact', async () => {
    const { api, sdk } = await project();
    const email = address('track');
    const browser = new Herald({ apiKey: api.publicKey, baseUrl: herald.url });
    const tracked = await browser.events.track({ email, event: 'signed-up', data: { plan: 'pro' } });
    expect(tracked.data).toMatchObject({ event: expect.stringMatching(/^evt_/), contact: expect.any(String) });
    const contact = await sdk.contacts.get(tracked.data.contact);
    expect(contact).toMatchObject({ email, data: expect.objectContaining({ plan: 'pro' }) });
  });

  it('contacts: create, get, update, list every page with listAll, delete', async () => {
    const { sdk } = await project();
    const emails = [address('c'), address('c'), address('c')];
    const created = [];
    for (const email of emails)
      created.push(await sdk.contacts.create({ email, subscribed: true, data: { tier: 'bronze' } }));
    expect(created.map((c) => c._meta.isNew)).toEqual([true, true, true]);
    const id = created[0]!.id;
    expect(await sdk.contacts.get(id)).toMatchObject({ email: emails[0], subscribed: true });
    expect(await sdk.contacts.update(id, { data: { tier: 'gold' } })).toMatchObject({ data: { tier: 'gold' } });
    const firstPage = await sdk.contacts.list({ limit: 2 });
    expect([firstPage.data.length, firstPage.hasMore, firstPage.total]).toEqual([2, true, 3]);
    const all = await collect(sdk.contacts.listAll({ limit: 2 }));
    expect(all.map((c) => c.email).sort()).toEqual([...emails].sort());
    await sdk.contacts.delete(id);
    await expect(sdk.contacts.get(id)).rejects.toMatchObject({ status: 404, code: 'CONTACT_NOT_FOUND' });
  });

  it('campaigns: create, send to every subscribed contact, get until SENT, and list', async () => {
    const { api, sdk } = await project();
    const to = address('campaign');
    await sdk.contacts.create({ email: to, subscribed: true });
    // read-your-writes: segments' read model answers with the contact just written, at once
    const probe = await sdk.request('post', '/segments', {
      body: {
        name: 'sdk probe',
        filters: { operator: 'AND', conditions: [{ field: 'email', operator: 'contains', value: '@' }] },
      },
    });
    const members = await sdk.request('get', '/segments/{id}/contacts', {
      path: { id: (probe as { id: string }).id },
      query: { pageSize: 1 },
    });
    expect(members.total).toBe(1);
    const created = await sdk.campaigns.create({
      name: 'SDK campaign',
      subject: 'News from the SDK',
      body: '<p>News</p>',
      from: api.from,
      audienceType: 'ALL',
    });
    const id = created.data.id;
    expect((await sdk.campaigns.send(id)).status).toBe('SENDING');
    await eventually(async () => (await sdk.campaigns.get(id)).status === 'SENT', {
      timeoutMs: 60_000,
      message: 'the campaign never reached SENT',
    });
    const [message] = await smtp.waitFor((m) => m.to.includes(to));
    expect(message!.subject).toBe('News from the SDK');
    const listed = await collect(sdk.campaigns.listAll({ limit: 1 }));
    expect(listed.map((c) => c.id)).toContain(id);
  });

  it('workflows: create, add a step through request(), enable, and a tracked event runs it', async () => {
    const { sdk } = await project();
    const email = address('workflow');
    await sdk.contacts.create({ email, data: { tier: 'bronze' } });
    const workflow = await sdk.workflows.create({ name: 'SDK workflow', eventName: 'sdk-upgraded' });
    await sdk.request('post', '/workflows/{id}/steps', {
      path: { id: workflow.id },
      body: { type: 'UPDATE_CONTACT', name: 'promote', config: { data: { tier: 'gold' } } },
    });
    await sdk.workflows.update(workflow.id, { enabled: true });
    expect(await sdk.workflows.get(workflow.id)).toMatchObject({
      enabled: true,
      steps: [expect.objectContaining({ type: 'UPDATE_CONTACT' })],
    });
    await sdk.events.track({ email, event: 'sdk-upgraded' });
    await eventually(
      async () => {
        const runs = await sdk.request('get', '/workflows/{id}/executions', { path: { id: workflow.id } });
        return runs.data.some((r) => r.status === 'COMPLETED');
      },
      { timeoutMs: 30_000, message: 'the workflow never completed a run' },
    );
    // the step's write is the contacts service's own: read at once once the run has completed
    const [contact] = (await sdk.contacts.list({ search: email })).data;
    expect(contact?.data.tier).toBe('gold');
    expect(contact!.email).toBe(email);
  });
});

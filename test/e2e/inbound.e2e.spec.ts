import nodemailer, { type SendMailOptions } from 'nodemailer';
import { Webhook } from 'standardwebhooks';
import {
  e2eMode,
  eventually as eventuallyWithin,
  freePort,
  SHARED_TOPOLOGY_ENV,
  startDnsServer,
  startSmtpSink,
  startTopology,
  type SmtpSink,
  type TestDnsServer,
  type Topology,
} from '@herald/testing';
import { newProject, type ErrorBody, type TestProjectApi, type TrackedEventBody } from './contacts-helpers.js';
import { SendingDb, verifiedDomain } from './sending-helpers.js';
import { WebhookReceiver } from './webhooks-helpers.js';
import { buildWorkflow, executions } from './workflows-helpers.js';

/** Eventual effects get 60 s: a loaded machine, and Kafka between the services in distributed mode. */
const eventually: typeof eventuallyWithin = (probe, options = {}) =>
  eventuallyWithin(probe, { timeoutMs: 60_000, ...options });

interface InboundSummary {
  id: string;
  contactId: string | null;
  from: { email: string | null; name: string | null };
  to: string[];
  subject: string | null;
  inReplyToEmailId: string | null;
  attachmentCount: number;
}
interface InboundMessage extends Omit<InboundSummary, 'attachmentCount'> {
  text: string | null;
  html: string | null;
  headers: { name: string; value: string }[];
  attachments: { filename: string | null; contentType: string; size: number; stored: boolean; content?: string }[];
}
interface ActivityItem {
  type: string;
  contact: { id: string | null; email: string | null } | null;
  data: Record<string, unknown>;
}

/**
 * Inbound mail (issue 42, item 4; docs/inbound.md) through the gateway, in the run's mode
 * (HERALD_E2E_MODE): a message sent with nodemailer to Herald's loopback SMTP listener
 * (INBOUND_SMTP_PORT, in the sending service's process) is stored for the project whose verified
 * domain it is addressed to, readable at once at GET /inbound, linked to the sender's contact and to
 * the email it answers, and reaches the activity feed, the contact's timeline and a workflow
 * triggered on `email.received` (which sends an email into the SMTP sink) and a webhook endpoint
 * subscribed to it (a loopback receiver, SHARED_TOPOLOGY_ENV's allowances). Unknown recipients are
 * refused at RCPT TO, messages over the size limit at the end of DATA.
 */
describe(`inbound mail (${e2eMode()})`, () => {
  let herald: Topology;
  let smtp: SmtpSink;
  let dns: TestDnsServer;
  let sending: SendingDb;
  let inboundPort: number;
  let receiver: WebhookReceiver;
  let seq = 0;

  const project = async (): Promise<TestProjectApi & { from: string; domain: string }> => {
    const api = await newProject(herald.url);
    const domain = `in${++seq}-${Date.now().toString(36)}.example.test`;
    await verifiedDomain(api, dns, sending, domain);
    return Object.assign(api, { from: `hello@${domain}`, domain });
  };
  /** A mail server delivering to Herald's listener (no TLS offered without a certificate). */
  const deliver = (message: SendMailOptions) =>
    nodemailer
      .createTransport({ host: '127.0.0.1', port: inboundPort, secure: false, ignoreTLS: true })
      .sendMail(message);
  const inbound = async (api: TestProjectApi, query = '') => {
    const res = await api.get<{ data: InboundSummary[] }>(`/inbound${query}`);
    expect(res.status).toBe(200);
    return res.body.data;
  };

  beforeAll(async () => {
    [dns, smtp, inboundPort, receiver] = await Promise.all([
      startDnsServer(),
      startSmtpSink(),
      freePort(),
      new WebhookReceiver().start(),
    ]);
    herald = await startTopology({
      env: {
        // RATE_LIMIT_PER_MINUTE, and webhook endpoints on the loopback receiver
        ...SHARED_TOPOLOGY_ENV,
        DNS_SERVERS: dns.address,
        SMTP_URL: smtp.url,
        INBOUND_SMTP_PORT: String(inboundPort),
        INBOUND_SMTP_HOST: '127.0.0.1',
        INBOUND_MAX_MESSAGE_BYTES: String(256 * 1024),
      },
    });
    sending = new SendingDb(herald.db.url);
  }, 480_000); // eight processes migrated and started on a loaded machine: a deadline, not a target

  afterAll(async () => {
    await sending?.end();
    await herald?.stop();
    await Promise.all([smtp?.stop(), dns?.stop(), receiver?.stop()]);
  }, 60_000);

  it("stores a contact's reply for the project, linked to the contact and the email it answers, in the feed and the timeline, starts the workflow triggered on email.received and reaches a webhook subscription", async () => {
    const api = await project();
    const ada = await api.upsert('ada@example.com', { plan: 'pro' });
    const hook = `/ok/inbound-${api.projectId}`;
    const endpoint = await api.post<{ id: string; secret: string }>('/webhooks/endpoints', {
      url: receiver.url(hook),
      eventTypes: ['email.received'],
    });
    expect(endpoint.status).toBe(201);
    const template = await api.post<{ id: string }>('/templates', {
      name: 'Thanks',
      subject: 'Thanks for writing',
      body: '<p>We read every message.</p>',
      from: api.from,
      type: 'transactional',
    });
    expect(template.status).toBe(201);
    const workflow = await buildWorkflow(api, {
      eventName: 'email.received',
      steps: [['SEND_EMAIL', { templateId: template.body.id }]],
    });

    // an email of the project's, then the contact's answer to it
    const sent = await api.post('/v1/send', { to: 'ada@example.com', from: api.from, subject: 'Welcome', body: 'Hi' });
    expect(sent.status).toBe(200);
    const emailId: string = sent.body.data.emails[0].email;
    const [original] = await smtp.waitFor((m) => m.to.includes('ada@example.com') && m.subject === 'Welcome');
    const info = await deliver({
      from: 'Ada Lovelace <Ada@Example.com>',
      to: `support@${api.domain}`,
      subject: 'Re: Welcome',
      text: 'Thanks, one question.',
      html: '<p>Thanks, <b>one question</b>.</p>',
      inReplyTo: original!.messageId,
      references: original!.messageId,
      attachments: [{ filename: 'question.txt', content: 'What is Herald?' }],
    });
    expect(info.accepted).toEqual([`support@${api.domain}`]);

    // read at once: stored before the 250
    const [summary] = await inbound(api);
    expect(summary).toMatchObject({
      contactId: ada.id,
      from: { email: 'ada@example.com', name: 'Ada Lovelace' },
      to: [`support@${api.domain}`],
      subject: 'Re: Welcome',
      inReplyToEmailId: emailId,
      attachmentCount: 1,
    });
    const message = await api.get<InboundMessage>(`/inbound/${summary!.id}`);
    expect(message.status).toBe(200);
    expect(message.body.text?.trim()).toBe('Thanks, one question.');
    expect(message.body.html).toContain('<b>one question</b>');
    expect(message.body.headers).toEqual(expect.arrayContaining([{ name: 'subject', value: 'Re: Welcome' }]));
    expect(message.body.attachments).toEqual([
      expect.objectContaining({ filename: 'question.txt', contentType: 'text/plain', size: 15, stored: true }),
    ]);
    expect(Buffer.from(message.body.attachments[0]!.content!, 'base64').toString()).toBe('What is Herald?');
    expect((await inbound(api, `?contactId=${ada.id}`)).map((m) => m.id)).toEqual([summary!.id]);

    // the activity feed
    const item = await eventually(async () => {
      const feed = await api.get<{ data: ActivityItem[] }>('/activity?type=email.received');
      return feed.body.data?.[0];
    });
    expect(item).toMatchObject({
      type: 'email.received',
      contact: { id: ada.id, email: 'ada@example.com' },
      data: { inboundId: summary!.id, subject: 'Re: Welcome', inReplyToEmailId: emailId },
    });

    // the contact's timeline
    const entry = await eventually(async () => {
      const timeline = await api.get<{ data: TrackedEventBody[] }>(`/events/contact/${ada.id}?limit=100`);
      return timeline.body.data?.find((e) => e.name === 'email.received');
    });
    expect(entry).toMatchObject({ system: true, data: { inboundId: summary!.id, inReplyToEmailId: emailId } });

    // the workflow triggered on email.received sends its email to the sender
    const [thanks] = await smtp.waitFor(
      (m) => m.to.includes('ada@example.com') && m.subject === 'Thanks for writing',
      60_000,
    );
    expect(thanks).toBeDefined();
    const [execution] = await eventually(async () => {
      const list = await executions(api, workflow.id);
      return list.length > 0 ? list : undefined;
    });
    expect(execution).toMatchObject({
      contactId: ada.id,
      trigger: 'email.received',
      event: expect.objectContaining({ inboundId: summary!.id, subject: 'Re: Welcome' }),
    });

    // the webhook subscription: a signed delivery that an off-the-shelf Standard Webhooks library verifies
    const delivery = await eventually(async () => receiver.at(hook)[0]);
    expect(
      new Webhook(endpoint.body.secret).verify(delivery.body, delivery.headers as Record<string, string>),
    ).toMatchObject({
      type: 'email.received',
      projectId: api.projectId,
      data: { inboundId: summary!.id, contactId: ada.id, email: 'ada@example.com', inReplyToEmailId: emailId },
    });
  }, 180_000); // four services' consumers in turn over Kafka on a loaded machine: a deadline, not a target

  it('stores a message from a sender who is no contact without creating one, and shows it in the feed by its address', async () => {
    const api = await project();
    await deliver({
      from: 'stranger@example.org',
      to: `sales@${api.domain}`,
      subject: 'Hello?',
      text: 'Anyone there?',
    });
    const [summary] = await inbound(api);
    expect(summary).toMatchObject({ contactId: null, from: { email: 'stranger@example.org' }, subject: 'Hello?' });
    expect((await api.get<{ data: unknown[] }>('/contacts?limit=10')).body.data).toEqual([]);
    const item = await eventually(async () => {
      const feed = await api.get<{ data: ActivityItem[] }>('/activity?type=email.received');
      return feed.body.data?.[0];
    });
    expect(item).toMatchObject({
      contact: { id: null, email: 'stranger@example.org' },
      data: { inboundId: summary!.id },
    });
  });

  it('refuses at RCPT TO an address of a domain no project verified, and answers 404 for another project’s message', async () => {
    const [mine, other] = await Promise.all([project(), project()]);
    await expect(
      deliver({ from: 'a@example.com', to: 'someone@unknown-domain.example.test', text: 'x' }),
    ).rejects.toMatchObject({ responseCode: 550 });
    await deliver({ from: 'a@example.com', to: `info@${mine.domain}`, subject: 'Mine', text: 'x' });
    const [message] = await inbound(mine);
    expect(await inbound(other)).toEqual([]);
    const foreign = await other.get<ErrorBody>(`/inbound/${message!.id}`);
    expect(foreign.status).toBe(404);
    expect(foreign.body.error.code).toBe('INBOUND_MESSAGE_NOT_FOUND');
  });

  it('refuses a message over INBOUND_MAX_MESSAGE_BYTES with 552 and stores nothing', async () => {
    const api = await project();
    await expect(
      deliver({ from: 'a@example.com', to: `big@${api.domain}`, subject: 'Big', text: 'x'.repeat(300 * 1024) }),
    ).rejects.toMatchObject({ responseCode: 552 });
    expect(await inbound(api)).toEqual([]);
  });
});

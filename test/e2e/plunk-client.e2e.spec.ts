// The official Plunk client, exactly as a Plunk user installs it (CommonJS, its own fetch calls).
import plunkModule from '@plunk/node';
import { TokenError } from '@plunk/node/dist/errors/TokenError.js';
import {
  e2eMode,
  startDnsServer,
  startSmtpSink,
  startTopology,
  type SmtpSink,
  type TestDnsServer,
  type Topology,
} from '@herald/testing';
import { newProject, type TestProjectApi } from './contacts-helpers.js';
import { projectWithSender } from './sending-helpers.js';

/** The client's class: CommonJS `exports.default`, which an ES module reads as `default.default`. */
const Plunk = plunkModule.default;
type Plunk = InstanceType<typeof Plunk>;

/** What Herald answers the client's send (the client hands back the parsed body as it is). */
interface SendAnswer {
  success: true;
  data: { emails: { contact: { id: string; email: string }; email: string }[]; timestamp: string };
}
interface TrackAnswer {
  success: true;
  data: { contact: string; event: string; timestamp: string };
}

/**
 * A Plunk user moving to Herald changes one line: `new Plunk(key, { baseUrl: '<herald>/v1/' })`.
 * The official client (@plunk/node 3.0.3) then sends (html and markdown bodies, a sender name, a
 * subscription), tracks with the secret and the public key (with a value used once, not kept),
 * and reads Herald's refusals as its own errors: a wrong key as its TokenError, a refused send as
 * an Error carrying Herald's message. docs/plunk-compatibility.md lists what else of Plunk's API
 * Herald accepts.
 */
describe(`the official Plunk client against Herald (${e2eMode()})`, () => {
  let dns: TestDnsServer;
  let smtp: SmtpSink;
  let herald: Topology;
  let owner: string;
  let seq = 0;

  /** A project with a verified sender domain, and the client on its secret key. */
  const project = async (): Promise<{ api: TestProjectApi; plunk: Plunk; from: string }> => {
    const api = await projectWithSender(herald.url, dns, owner, 'plunk');
    return { api, plunk: new Plunk(api.key, { baseUrl: `${herald.url}/v1/` }), from: api.from };
  };
  const address = (name: string) => `${name}-${++seq}@example.com`;

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

  it('emails.send delivers an HTML body from the sender name it is given', async () => {
    const { plunk, from } = await project();
    const to = address('html');
    const answer = (await plunk.emails.send({
      to,
      subject: 'Welcome aboard',
      body: '<p>Hello <b>there</b></p>',
      from,
      name: 'Acme Team',
    })) as unknown as SendAnswer;
    expect(answer.success).toBe(true);
    expect(answer.data.emails).toEqual([
      expect.objectContaining({ contact: { id: expect.any(String), email: to }, email: expect.any(String) }),
    ]);
    const [message] = await smtp.waitFor((m) => m.to.includes(to));
    expect(message!.subject).toBe('Welcome aboard');
    const fromHeader = message!.headerLines.find((h) => h.key === 'from')?.line;
    expect(fromHeader).toContain('Acme Team');
    expect(fromHeader).toContain(from);
    expect(message!.html).toContain('<p>Hello <b>there</b></p>');
  });

  it('emails.send with type markdown delivers the markdown rendered as HTML, not its source', async () => {
    const { plunk, from } = await project();
    const to = address('markdown');
    await plunk.emails.send({
      to,
      subject: 'Markdown',
      body: '# Welcome\n\nThis is **bold** and a [link](https://example.com/docs).',
      type: 'markdown',
      from,
    });
    const [message] = await smtp.waitFor((m) => m.to.includes(to));
    expect(message!.html).toMatch(/<h1[^>]*>Welcome<\/h1>/);
    expect(message!.html).toContain('<strong>bold</strong>');
    expect(message!.html).not.toContain('# Welcome');
    expect(message!.html).not.toContain('**bold**');
    expect(message!.text).not.toContain('**');
  });

  it('emails.send with subscribed true leaves a subscribed contact, readable at once', async () => {
    const { api, plunk, from } = await project();
    const to = address('subscribed');
    const answer = (await plunk.emails.send({
      to,
      subject: 'Hi',
      body: '<p>Hi</p>',
      from,
      subscribed: true,
    })) as unknown as SendAnswer;
    const contact = await api.contact(answer.data.emails[0]!.contact.id);
    expect(contact).toMatchObject({ email: to, subscribed: true });
  });

  it('events.track works with the secret key and with the public key, and keeps only persistent values', async () => {
    const { api } = await project();
    for (const key of [api.key, api.publicKey]) {
      const plunk = new Plunk(key, { baseUrl: `${herald.url}/v1/` });
      const email = address(key.startsWith('pk_') ? 'public' : 'secret');
      const answer = (await plunk.events.track({
        event: 'signed-up',
        email,
        subscribed: false,
        data: { plan: 'pro', coupon: { persistent: false, value: 'SAVE10' } },
      })) as unknown as TrackAnswer;
      expect(answer).toEqual({
        success: true,
        data: { contact: expect.any(String), event: expect.any(String), timestamp: expect.any(String) },
      });
      const contact = await api.contact(answer.data.contact);
      expect(contact).toMatchObject({ email, subscribed: false, data: { plan: 'pro' } });
      expect(contact.data).not.toHaveProperty('coupon');
    }
  });

  it('a wrong key is the client’s TokenError, carrying Herald’s message', async () => {
    const plunk = new Plunk('sk_not_a_real_key', { baseUrl: `${herald.url}/v1/` });
    const refused = await plunk.events.track({ event: 'x', email: address('nokey') }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(TokenError);
    expect((refused as Error).message).not.toBe('Invalid API Credentials Provided');
    expect((refused as Error).message).toMatch(/key/i);
  });

  it('a refused send is an Error carrying Herald’s message, not "Unknown API Error"', async () => {
    const { plunk } = await project();
    const refused = await plunk.emails
      .send({ to: address('refused'), subject: 'Hi', body: '<p>Hi</p>', from: 'news@never-added.example.test' })
      .catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(Error);
    expect((refused as Error).message).not.toBe('Unknown API Error');
    expect((refused as Error).message).toContain('never-added.example.test');
  });

  it('a template written with Plunk’s capitalised type (MARKETING, TRANSACTIONAL) is Herald’s type, listed by either spelling', async () => {
    const { api, from } = await project();
    const created = await api.post('/templates', {
      name: 'News',
      subject: 'Hi',
      body: '<p>Hi</p>',
      from,
      type: 'MARKETING',
    });
    expect([created.status, created.body.type]).toEqual([201, 'marketing']);
    const listed = await api.get<{ data: { id: string }[] }>('/templates?type=MARKETING');
    expect(listed.body.data.map((t) => t.id)).toEqual([created.body.id]);
    const wrong = await api.post('/templates', {
      name: 'X',
      subject: 'Hi',
      body: '<p>Hi</p>',
      from,
      type: 'NEWSLETTER',
    });
    expect([wrong.status, wrong.body.error.errors[0].field]).toEqual([422, 'type']);
  });
});

// The official Plunk client, exactly as a Plunk user installs it (CommonJS: its class is `default.default`).
import plunkModule from '@plunk/node';
import {
  startDnsServer,
  startSmtpSink,
  startTopology,
  type SmtpSink,
  type TestDnsServer,
  type Topology,
} from '@herald/testing';
import { fieldsOf, newProject, type ErrorBody } from './contacts-helpers.js';
import { projectWithSender } from './sending-helpers.js';

const Plunk = plunkModule.default;

interface SendAnswer {
  success: true;
  data: { emails: { contact: { id: string; email: string }; email: string }[] };
}

interface TemplateBody {
  id: string;
  type: 'marketing' | 'transactional';
  format: 'html' | 'markdown';
}

/** What a reader of the text part must not meet: Markdown syntax left unconverted. */
const MARKDOWN_SYNTAX = /^#|\*\*|\]\(|__/m;

/**
 * Markdown bodies (docs/sending.md, "Markdown bodies"): a `/v1/send` with `type: 'markdown'` (the
 * official Plunk client's option) and a template whose `format` is markdown arrive at the SMTP sink
 * as HTML, through the same rendering as an HTML body: Liquid, escaped contact data, click
 * tracking, subscription links, a plain-text part. Standalone only: the rendering and the checks on
 * save are the sending service's own, the same in either mode; the way of a send through the gateway
 * and Kafka to the relay is proven in both modes by sending.e2e (test/architecture/e2e-both-modes.spec.ts).
 */
describe('Markdown bodies through the public API (standalone)', () => {
  let dns: TestDnsServer;
  let smtp: SmtpSink;
  let herald: Topology;
  let owner: string;
  let seq = 0;

  const project = () => projectWithSender(herald.url, dns, owner, 'md');
  const address = (name: string) => `${name}-${++seq}@example.com`;
  const delivered = async (to: string) => (await smtp.waitFor((m) => m.to.includes(to)))[0]!;

  beforeAll(async () => {
    [dns, smtp] = await Promise.all([startDnsServer(), startSmtpSink()]);
    herald = await startTopology({
      mode: 'standalone',
      env: { RATE_LIMIT_PER_MINUTE: '100000', DNS_SERVERS: dns.address, SMTP_URL: smtp.url },
    });
    owner = (await newProject(herald.url)).cookie;
  }, 480_000); // migrated and started on a loaded machine: a deadline, not a target

  afterAll(async () => {
    await herald?.stop();
    await Promise.all([smtp?.stop(), dns?.stop()]);
  }, 60_000);

  it('a /v1/send of type markdown arrives as HTML with tracked links, Liquid link targets and a text part without Markdown syntax', async () => {
    const api = await project();
    const to = address('markdown');
    const plunk = new Plunk(api.key, { baseUrl: `${herald.url}/v1/` });
    const answer = (await plunk.emails.send({
      to,
      from: api.from,
      subject: 'Welcome',
      type: 'markdown',
      body: [
        '# Welcome {{ email }}',
        '',
        'This is **bold** and a [guide](https://example.org/docs?a=1&b=2).',
        '',
        '- one',
        '- two',
        '',
        '[Unsubscribe]({{ unsubscribeUrl }})',
      ].join('\n'),
    })) as unknown as SendAnswer;
    expect(answer.data.emails).toHaveLength(1);

    const message = await delivered(to);
    expect(message.html).toContain(`<h1>Welcome ${to}</h1>`);
    expect(message.html).toContain('<strong>bold</strong>');
    expect(message.html).toContain('<ul>\n<li>one</li>');
    // the guide's link is a click redirect that leads where the Markdown said; the unsubscribe link is Herald's own
    const click = /<a href="(http[^"]+\/t\/click\/[^"]+)">guide<\/a>/.exec(message.html!)?.[1];
    expect(click).toBeDefined();
    const redirect = await fetch(click!.replace(/&amp;/g, '&'), { redirect: 'manual' });
    expect(redirect.headers.get('location')).toBe('https://example.org/docs?a=1&b=2');
    expect(message.html).toMatch(/<a href="http[^"]+\/unsubscribe\/[^"]+">Unsubscribe<\/a>/);
    expect(message.html).not.toContain('{{');
    expect(message.text).toContain('This is bold and a guide');
    expect(message.text).toContain(`WELCOME ${to.toUpperCase()}`);
    expect(message.text).not.toMatch(MARKDOWN_SYNTAX);
  });

  it('a Markdown template used by /v1/send renders as HTML, contact data inserted as text; a body given instead is HTML unless its type says otherwise', async () => {
    const api = await project();
    const created = await api.post<TemplateBody>('/templates', {
      name: 'Plan',
      subject: 'Your plan',
      format: 'markdown',
      from: api.from,
      body: [
        'Hello {{ first_name | default: "there" }},',
        '',
        '{% if plan == "pro" %}',
        '## Pro features',
        '',
        '- **Priority** support',
        '{% endif %}',
      ].join('\n'),
    });
    expect(created.status).toBe(201);
    expect(created.body.format).toBe('markdown');
    expect((await api.get<TemplateBody>(`/templates/${created.body.id}`)).body.format).toBe('markdown');

    const to = address('template');
    const sent = await api.post('/v1/send', {
      to,
      template: created.body.id,
      data: { first_name: '**Ada** <b>x</b> [a](https://evil.example)', plan: 'pro' },
    });
    expect(sent.status).toBe(200);
    const message = await delivered(to);
    expect(message.html).toContain(
      '<p>Hello **Ada** &lt;b&gt;x&lt;/b&gt; [a](https://evil.example),</p>\n\n<h2>Pro features</h2>\n<ul>\n<li><strong>Priority</strong> support</li>\n</ul>',
    );
    expect(message.text).not.toMatch(/^##/m);

    // the request's body replaces the template's body and its format with it
    const plain = address('override');
    await api.post('/v1/send', { to: plain, template: created.body.id, body: '<p># kept as written</p>' });
    expect((await delivered(plain)).html).toContain('<p># kept as written</p>');
  });

  it('refuses a /v1/send whose type is neither html nor markdown, and a template format that is neither, with 422 naming the field', async () => {
    const api = await project();
    const send = await api.post<ErrorBody>('/v1/send', {
      to: address('xml'),
      from: api.from,
      subject: 'Hi',
      body: '<x/>',
      type: 'xml',
    });
    expect(send.status).toBe(422);
    expect(fieldsOf(send.body)).toEqual(['type']);
    const template = await api.post<ErrorBody>('/templates', {
      name: 'X',
      subject: 'Hi',
      body: 'Hi',
      format: 'xml',
    });
    expect(template.status).toBe(422);
    expect(fieldsOf(template.body)).toEqual(['format']);
  });

  it('holds a Markdown body to 128 KiB on save, also when a larger HTML template is switched to Markdown', async () => {
    const api = await project();
    const body = `<p>${'word '.repeat(30_000)}</p>`; // 150 KB: a fine HTML body
    const tooLarge = await api.post<ErrorBody>('/templates', { name: 'Big', subject: 'Hi', body, format: 'markdown' });
    expect(tooLarge.status).toBe(422);
    expect(tooLarge.body.error.errors).toEqual([expect.objectContaining({ field: 'body', code: 'invalid_template' })]);
    const html = await api.post<TemplateBody>('/templates', { name: 'Big', subject: 'Hi', body });
    expect(html.status).toBe(201);
    const switched = await api.patch<ErrorBody>(`/templates/${html.body.id}`, { format: 'markdown' });
    expect(switched.status).toBe(422);
    expect(fieldsOf(switched.body)).toEqual(['body']);
    expect((await api.get<TemplateBody>(`/templates/${html.body.id}`)).body.format).toBe('html');
  });
});

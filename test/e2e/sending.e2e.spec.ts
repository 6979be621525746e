import { createHmac } from 'node:crypto';
import { createResolver } from '@herald/core';
import {
  bearer,
  e2eMode,
  eventually,
  startDnsServer,
  startSmtpSink,
  startTopology,
  type SmtpSink,
  type TestDnsServer,
  type Topology,
} from '@herald/testing';
// mailauth ships CommonJS; its DKIM verifier is what receiving mail servers run
import { dkimVerify } from 'mailauth/lib/dkim/verify.js';
import { newProject, type ErrorBody, type TestProjectApi } from './contacts-helpers.js';
import {
  holdSenderDomainCopy,
  publish,
  SendingDb,
  verifiedDomain,
  verifyNow,
  type DomainBody,
} from './sending-helpers.js';

const WEBHOOK_SECRET = 'whsec_e2e_0123456789abcdef';

/** A request of the generic relay-notification format, signed as docs/webhooks.md describes. */
function signedWebhook(body: unknown): { headers: Record<string, string>; body: string } {
  const raw = JSON.stringify(body);
  const t = Math.floor(Date.now() / 1000);
  const v1 = createHmac('sha256', WEBHOOK_SECRET).update(`${t}.${raw}`).digest('hex');
  return { headers: { 'content-type': 'application/json', 'x-herald-signature': `t=${t},v1=${v1}` }, body: raw };
}

interface SendBody {
  success: true;
  data: {
    emails: {
      contact: { id: string; email: string };
      email: string;
      status: 'queued' | 'skipped';
      reason?: 'unsubscribed' | 'suppressed';
    }[];
    timestamp: string;
  };
}

interface EmailBody {
  id: string;
  status: string;
  reason?: string;
  contactId: string;
  to: { email: string; name: string | null };
  from: { email: string; name: string | null };
  subject: string;
  error: string | null;
  createdAt: string;
  sentAt: string | null;
  deliveredAt: string | null;
  openedAt: string | null;
  clickedAt: string | null;
  bouncedAt: string | null;
  events: { type: string; occurredAt: string; reason?: string; url?: string }[];
}

/**
 * Sending for real through the public API: sender domains verified over a loopback DNS server,
 * /v1/send rendered and DKIM-signed into a loopback SMTP sink, links, bounces (spec: POST /v1/send,
 * Templates, Domains, Domain states, Contact subscription, Limits). Runs in the run's mode
 * (HERALD_E2E_MODE: standalone, or each service its own process over Kafka behind the gateway;
 * libs/testing `startTopology`).
 */
describe(`sending through the public API (${e2eMode()})`, () => {
  let dns: TestDnsServer;
  let smtp: SmtpSink;
  let herald: Topology;
  let sending: SendingDb;
  let owner: string;
  let seq = 0;
  /** A project with its own verified domain `<n>.example.test`. */
  const project = async (): Promise<TestProjectApi & { domain: string; from: string }> => {
    const api = await newProject(herald.url, owner);
    const domain = `p${++seq}-${Date.now().toString(36)}.example.test`;
    await verifiedDomain(api, dns, sending, domain);
    return Object.assign(api, { domain, from: `hello@${domain}` });
  };
  const messagesTo = (address: string) => smtp.messages.filter((m) => m.to.includes(address));

  beforeAll(async () => {
    [dns, smtp] = await Promise.all([startDnsServer(), startSmtpSink()]);
    herald = await startTopology({
      env: {
        RATE_LIMIT_PER_MINUTE: '100000',
        DNS_SERVERS: dns.address,
        SMTP_URL: smtp.url,
        DELIVERY_RETRY_BASE_MS: '200',
        WEBHOOK_SIGNING_SECRET: WEBHOOK_SECRET,
        // 20 MiB of attachments (default 10): what it takes for a rendered message to pass the 40 MB limit
        MAX_ATTACHMENT_BYTES: String(20 * 1024 * 1024),
      },
    });
    sending = new SendingDb(herald.db.url);
    owner = (await newProject(herald.url)).cookie;
  }, 480_000); // eight processes migrated and started on a loaded machine: a deadline, not a target

  afterAll(async () => {
    await sending?.end();
    await herald?.stop();
    await Promise.all([smtp?.stop(), dns?.stop()]);
  }, 60_000);

  it('refuses a send from a domain that is not verified, naming the domain (pending or unknown)', async () => {
    const api = await newProject(herald.url, owner);
    const pending = await api.post<DomainBody>('/domains', { domain: 'pending.example.test' });
    expect(pending.status).toBe(201);
    for (const from of ['news@pending.example.test', 'news@never-added.example.test']) {
      const res = await api.post<ErrorBody>('/v1/send', {
        to: 'a@example.com',
        from,
        subject: 'Hi',
        body: '<p>Hi</p>',
      });
      expect(res.status).toBe(422);
      expect(res.body.error.errors?.[0]).toMatchObject({ field: 'from', code: 'domain_not_verified' });
      expect(res.body.error.message).toContain(from.split('@')[1]);
    }
    expect(await sending.emailsOf(api.projectId)).toEqual([]);
  });

  it('refuses a domain until its records are published, then accepts mail from it', async () => {
    const api = await newProject(herald.url, owner);
    const created = (await api.post<DomainBody>('/domains', { domain: 'later.example.test' })).body;
    expect((await api.get<DomainBody>(`/domains/${created.id}/verify`)).body.status).toBe('pending');
    expect(
      (await api.post('/v1/send', { to: 'a@example.com', from: 'x@later.example.test', subject: 'Hi', body: 'Hi' }))
        .status,
    ).toBe(422);
    publish(dns, created);
    expect((await api.get<DomainBody>(`/domains/${created.id}/verify`)).body.status).toBe('verified');
    expect(
      (await api.post('/v1/send', { to: 'a@example.com', from: 'x@later.example.test', subject: 'Hi', body: 'Hi' }))
        .status,
    ).toBe(200);
  });

  it("accepts mail and templates from a domain in the very next request after its verification, before sending's copy has heard of it, and signs that mail", async () => {
    const api = await newProject(herald.url, owner);
    const name = `ryw-${Date.now().toString(36)}.example.test`;
    const to = 'ryw@example.com';
    const hold = await holdSenderDomainCopy(herald.db.url);
    let domainId = '';
    try {
      domainId = (await verifyNow(api, dns, name)).id;
      const sent = await api.post<SendBody>('/v1/send', { to, from: `hi@${name}`, subject: 'Right away', body: 'Hi' });
      expect(sent.status).toBe(200);
      const template = await api.post('/templates', { name: 'Now', subject: 'Hi', body: 'Hi', from: `news@${name}` });
      expect(template.status).toBe(201);
      expect((await api.patch(`/templates/${template.body.id}`, { from: `other@${name}` })).status).toBe(200);
      const [message] = await smtp.waitFor((m) => m.to.includes(to));
      const resolver = createResolver({ servers: dns.address });
      const dkim = await dkimVerify(message!.raw, {
        resolver: (n: string, type: string) => resolver.resolve(n, type as 'TXT'),
      });
      expect(dkim.results.map((r: { status: { result: string } }) => r.status.result)).toEqual(['pass']);
      // all of it happened while sending's copy could not know the domain
      expect(await hold.copyOf(domainId)).toBeUndefined();
    } finally {
      await hold.release();
    }
    // the held-back event was on its way: the copy catches up once released
    await eventually(async () => ((await sending.senderDomain(domainId))?.verified ? true : undefined));
  });

  it('renders ?? defaults, dotted paths, escaped values and non-persistent data into the delivered message', async () => {
    const api = await project();
    const template = await api.post('/templates', {
      name: 'Welcome',
      subject: 'Hello {{firstName ?? "friend"}}, {{profile.tier}}',
      body: '<p>Hi {{firstName ?? "there"}}</p><p>Tier: {{profile.tier}}</p><p>Note: {{note}}</p><p>Coupon: {{coupon}}</p><p>Visits: {{visits ?? 7}}</p><p>Id: {{svc_id}} {{svc_email}}</p>',
      from: api.from,
      fromName: 'Acme',
    });
    expect(template.status).toBe(201);
    const to = 'render@example.com';
    const res = await api.post<SendBody>('/v1/send', {
      to,
      template: template.body.id,
      data: {
        profile: { tier: 'gold' },
        note: '<script>alert(1)</script>',
        coupon: { value: 'SAVE10', persistent: false },
        visits: 0,
      },
    });
    expect(res.status).toBe(200);
    const contactId = res.body.data.emails[0]!.contact.id;
    const [message] = await smtp.waitFor((m) => m.to.includes(to));
    expect(message!.subject).toBe('Hello friend, gold');
    expect(message!.html).toContain('<p>Hi there</p>');
    expect(message!.html).toContain('<p>Tier: gold</p>');
    expect(message!.html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(message!.html).not.toContain('<script>');
    expect(message!.html).toContain('<p>Coupon: SAVE10</p>');
    expect(message!.html).toContain('<p>Visits: 0</p>');
    expect(message!.html).toContain(`<p>Id: ${contactId} ${to}</p>`);
    expect(message!.text).toContain('Hi there');
    const contact = await api.contact(contactId);
    expect(contact.data).toEqual({ profile: { tier: 'gold' }, note: '<script>alert(1)</script>', visits: 0 });
    expect(contact.subscribed).toBe(false); // a new contact of /v1/send defaults to unsubscribed
  });

  it('signs every message with DKIM so that the signature verifies against the key published in DNS', async () => {
    const api = await project();
    const to = 'dkim@example.com';
    expect(
      (
        await api.post('/v1/send', {
          to,
          from: { name: 'Acme', email: api.from },
          subject: 'Signed',
          body: '<p>Signed body</p>',
        })
      ).status,
    ).toBe(200);
    const [message] = await smtp.waitFor((m) => m.to.includes(to));
    const resolver = createResolver({ servers: dns.address });
    const result = await dkimVerify(message!.raw, {
      resolver: (name: string, type: string) => resolver.resolve(name, type as 'TXT'),
    });
    expect(result.results).toHaveLength(1);
    expect(result.results[0].status.result).toBe('pass');
    expect(result.results[0].signingDomain).toBe(api.domain);
  });

  it('gives each of an array of three recipients its own contact and its own rendered message', async () => {
    const api = await project();
    const to = ['one@example.com', { name: 'Two', email: 'two@example.com' }, 'three@example.com'];
    const res = await api.post<SendBody>('/v1/send', {
      to,
      from: api.from,
      subject: 'For {{svc_email}}',
      body: '<p>{{svc_email}}</p>',
    });
    expect(res.status).toBe(200);
    expect(res.body.data.emails.map((e) => e.contact.email)).toEqual([
      'one@example.com',
      'two@example.com',
      'three@example.com',
    ]);
    expect(new Set(res.body.data.emails.map((e) => e.contact.id)).size).toBe(3);
    for (const address of ['one@example.com', 'two@example.com', 'three@example.com']) {
      const [message] = await smtp.waitFor((m) => m.to.includes(address) && m.subject === `For ${address}`);
      expect(message!.to).toEqual([address]);
    }
    expect((await api.allContacts()).map((c) => c.email).sort()).toEqual([
      'one@example.com',
      'three@example.com',
      'two@example.com',
    ]);
  });

  it('answers 422 for a header with CR or LF and sends nothing', async () => {
    const api = await project();
    for (const headers of [
      { 'X-Campaign': 'a\r\nBcc: victim@example.com' },
      { 'X-Bad\nName': 'v' },
      { 'X-Long': 'x'.repeat(999) },
    ]) {
      const res = await api.post<ErrorBody>('/v1/send', {
        to: 'hdr@example.com',
        from: api.from,
        subject: 'Hi',
        body: 'Hi',
        headers,
      });
      expect(res.status).toBe(422);
      expect(res.body.error.errors?.[0]?.field).toMatch(/^headers\./);
    }
    expect(
      (
        await api.post<ErrorBody>('/v1/send', {
          to: 'hdr@example.com',
          from: api.from,
          subject: 'Line\nbreak',
          body: 'Hi',
        })
      ).status,
    ).toBe(422);
    expect(await sending.emailsOf(api.projectId)).toEqual([]);
    expect(await api.allContacts()).toEqual([]);
    expect(messagesTo('hdr@example.com')).toEqual([]);
  });

  it('passes valid custom headers and attachments through to the message', async () => {
    const api = await project();
    const to = 'attach@example.com';
    const res = await api.post('/v1/send', {
      to,
      from: api.from,
      subject: 'With file',
      body: '<p>See attached</p>',
      reply: 'support@example.com',
      headers: { 'X-Campaign': 'spring' },
      attachments: [
        { filename: 'hello.txt', content: Buffer.from('hello file').toString('base64'), contentType: 'text/plain' },
      ],
    });
    expect(res.status).toBe(200);
    const [message] = await smtp.waitFor((m) => m.to.includes(to));
    expect(message!.headers.get('x-campaign')).toBe('spring');
    expect(JSON.stringify(message!.headers.get('reply-to'))).toContain('support@example.com');
    expect(message!.attachments.map((a) => [a.filename, a.content.toString()])).toEqual([['hello.txt', 'hello file']]);
  });

  it('unsubscribes with RFC 8058 one-click, and then skips marketing mail but still sends transactional mail', async () => {
    const api = await project();
    const to = 'oneclick@example.com';
    const marketing = (
      await api.post('/templates', {
        name: 'News',
        subject: 'News',
        body: '<p>News <a href="{{unsubscribeUrl}}">unsubscribe</a></p>',
        from: api.from,
        type: 'marketing',
      })
    ).body;
    const first = await api.post<SendBody>('/v1/send', { to, template: marketing.id, subscribed: true });
    expect(first.status).toBe(200);
    const [message] = await smtp.waitFor((m) => m.to.includes(to));
    expect(message!.headerLines.find((h) => h.key === 'list-unsubscribe-post')?.line).toBe(
      'List-Unsubscribe-Post: List-Unsubscribe=One-Click',
    );
    const link = /<(http[^>]+)>/.exec(
      message!.headerLines.find((h) => h.key === 'list-unsubscribe')!.line.replace(/\r?\n\s+/g, ''),
    )![1]!;
    expect(message!.html).toContain(link.replace(/&/g, '&amp;'));

    const oneClick = await fetch(link, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'List-Unsubscribe=One-Click',
    });
    expect(oneClick.status).toBe(200);
    const contactId = first.body.data.emails[0]!.contact.id;
    expect((await api.contact(contactId)).subscribed).toBe(false);

    const second = await api.post<SendBody>('/v1/send', { to, template: marketing.id });
    expect(second.status).toBe(200);
    expect(await sending.email(second.body.data.emails[0]!.email)).toMatchObject({ status: 'skipped' });
    const transactional = await api.post<SendBody>('/v1/send', {
      to,
      from: api.from,
      subject: 'Your receipt',
      body: '<p>Receipt</p>',
    });
    await smtp.waitFor((m) => m.to.includes(to) && m.subject === 'Your receipt');
    expect(messagesTo(to).map((m) => m.subject)).toEqual(['News', 'Your receipt']);
    await eventually(async () =>
      (await sending.email(transactional.body.data.emails[0]!.email))?.status === 'sent' ? true : undefined,
    );
  });

  it('serves the manage page with the current state and flips the subscription from its form, and the subscribe link re-subscribes', async () => {
    const api = await project();
    const res = await api.post<SendBody>('/v1/send', {
      to: 'prefs@example.com',
      from: api.from,
      subject: 'Prefs',
      body: '<a href="{{manageUrl}}">m</a> <a href="{{subscribeUrl}}">s</a>',
      subscribed: true,
    });
    const contactId = res.body.data.emails[0]!.contact.id;
    const [message] = await smtp.waitFor((m) => m.to.includes('prefs@example.com'));
    const manage = /href="(http[^"]+\/manage\/[^"]+)"/.exec(message!.html!)![1]!;
    const subscribe = /href="(http[^"]+\/subscribe\/[^"]+)"/.exec(message!.html!)![1]!;
    const page = await fetch(manage);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('is subscribed to');
    const form = await fetch(manage, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'action=unsubscribe',
    });
    expect(form.status).toBe(200);
    expect((await api.contact(contactId)).subscribed).toBe(false);
    expect(await (await fetch(manage)).text()).toContain('is unsubscribed from');
    expect((await fetch(subscribe, { method: 'POST' })).status).toBe(200);
    expect((await api.contact(contactId)).subscribed).toBe(true);
  });

  it('refuses a forged or altered unsubscribe link', async () => {
    const api = await project();
    const res = await api.post<SendBody>('/v1/send', {
      to: 'forge@example.com',
      from: api.from,
      subject: 'Hi',
      body: '<a href="{{unsubscribeUrl}}">u</a>',
    });
    const [message] = await smtp.waitFor((m) => m.to.includes('forge@example.com'));
    const link = /href="(http[^"]+\/unsubscribe\/[^"]+)"/.exec(message!.html!)![1]!;
    const forged = link.slice(0, -3) + (link.endsWith('AAA') ? 'BBB' : 'AAA');
    expect((await fetch(forged, { method: 'POST' })).status).toBe(404);
    expect((await fetch(`${herald.url}/unsubscribe/${res.body.data.emails[0]!.contact.id}`)).status).toBe(404);
  });

  it('records the first open and click, and the click redirect only goes where the signed link says', async () => {
    const api = await project();
    const res = await api.post<SendBody>('/v1/send', {
      to: 'track@example.com',
      from: api.from,
      subject: 'Hi',
      body: '<p><a href="https://example.org/page?a=1&amp;b=2">go</a></p>',
    });
    const [message] = await smtp.waitFor((m) => m.to.includes('track@example.com'));
    const click = /href="(http[^"]+\/t\/click\/[^"]+)"/.exec(message!.html!)![1]!;
    const pixel = /src="(http[^"]+\/t\/open\/[^"]+)"/.exec(message!.html!)![1]!;
    const redirect = await fetch(click, { redirect: 'manual' });
    expect(redirect.status).toBe(302);
    expect(redirect.headers.get('location')).toBe('https://example.org/page?a=1&b=2');
    await fetch(click, { redirect: 'manual' });
    expect((await fetch(pixel)).headers.get('content-type')).toBe('image/gif');
    await fetch(pixel);
    const tampered = click.replace(
      /\/t\/click\/([^.]+)\./,
      () =>
        `/t/click/${Buffer.from(JSON.stringify({ k: 'click', e: res.body.data.emails[0]!.email, u: 'https://evil.example' })).toString('base64url')}.`,
    );
    expect((await fetch(tampered, { redirect: 'manual' })).status).toBe(404);
    await eventually(async () => {
      const types = await sending.outboxTypes(api.projectId);
      return types.filter((t) => t === 'email.opened').length === 1 &&
        types.filter((t) => t === 'email.clicked').length === 1
        ? true
        : undefined;
    });
  });

  it('marks a permanently rejected email bounced, suppresses the address and unsubscribes the contact', async () => {
    const api = await project();
    const to = 'rejected@example.com';
    smtp.reject({ recipient: to, code: 550, message: 'No such user' });
    const res = await api.post<SendBody>('/v1/send', {
      to,
      from: api.from,
      subject: 'Hi',
      body: 'Hi',
      subscribed: true,
    });
    const emailId = res.body.data.emails[0]!.email;
    await eventually(async () => ((await sending.email(emailId))?.status === 'bounced' ? true : undefined));
    expect((await sending.email(emailId))!.error).toContain('No such user');
    expect(await sending.suppressed(api.projectId, to)).toBe(true);
    await eventually(async () =>
      (await api.contact(res.body.data.emails[0]!.contact.id)).subscribed === false ? true : undefined,
    );
    const again = await api.post<SendBody>('/v1/send', { to, from: api.from, subject: 'Again', body: 'Again' });
    expect(await sending.email(again.body.data.emails[0]!.email)).toMatchObject({ status: 'suppressed' });
    expect(messagesTo(to)).toEqual([]);
  });

  it('retries a temporary SMTP failure and then delivers', async () => {
    const api = await project();
    const to = 'later@example.com';
    smtp.reject({ recipient: to, code: 451, message: 'Try later', times: 1 });
    const res = await api.post<SendBody>('/v1/send', { to, from: api.from, subject: 'Eventually', body: 'Hi' });
    await smtp.waitFor((m) => m.to.includes(to));
    await eventually(async () =>
      (await sending.email(res.body.data.emails[0]!.email))?.status === 'sent' ? true : undefined,
    );
    expect((await sending.email(res.body.data.emails[0]!.email))!.attempts).toBe(2);
  });

  it('answers a retried request with the same Idempotency-Key with the original result and sends nothing new; another body with the key is 409', async () => {
    const api = await project();
    const body = { to: 'idem@example.com', from: api.from, subject: 'Once', body: 'Once' };
    const call = (key: string, b: unknown = body) =>
      fetch(`${herald.url}/v1/send`, {
        method: 'POST',
        headers: { authorization: `Bearer ${api.key}`, 'content-type': 'application/json', 'idempotency-key': key },
        body: JSON.stringify(b),
      });
    const first = await call('order-1');
    const second = await call('order-1');
    expect(first.status).toBe(200);
    expect(second.status).toBe(200);
    expect(await second.json()).toEqual(await first.json());
    // the same key with another body: 409 (Stripe's rule, the same on /v1/track), nothing sent
    const reused = await call('order-1', { ...body, subject: 'Other' });
    expect([reused.status, ((await reused.json()) as ErrorBody).error.code]).toEqual([409, 'IDEMPOTENCY_KEY_REUSED']);
    await smtp.waitFor((m) => m.to.includes('idem@example.com'));
    expect(await sending.emailsOf(api.projectId)).toHaveLength(1);
    // an email accepted after the retries and delivered proves the worker has delivered since: a second copy would be there by now
    expect((await call('order-2', { ...body, to: 'idem-marker@example.com' })).status).toBe(200);
    await smtp.waitFor((m) => m.to.includes('idem-marker@example.com'));
    expect(messagesTo('idem@example.com')).toHaveLength(1);
  });

  it('validates the request: content, recipients and attachment limits (422 with field errors)', async () => {
    const api = await project();
    const cases: [unknown, string][] = [
      [{ from: api.from, subject: 'Hi', body: 'Hi' }, 'to'],
      [{ to: 'not-an-address', from: api.from, subject: 'Hi', body: 'Hi' }, 'to'],
      [{ to: 'a@example.com', from: api.from, body: 'Hi' }, 'subject'],
      [{ to: 'a@example.com', subject: 'Hi', body: 'Hi' }, 'from'],
      [{ to: 'a@example.com', from: api.from, subject: 'x'.repeat(999), body: 'Hi' }, 'subject'],
      [
        {
          to: 'a@example.com',
          from: api.from,
          subject: 'Hi',
          body: 'Hi',
          attachments: Array.from({ length: 11 }, (_, i) => ({ filename: `${i}.txt`, content: 'aGk=' })),
        },
        'attachments',
      ],
    ];
    for (const [body, field] of cases) {
      const res = await api.post<ErrorBody>('/v1/send', body);
      expect([res.status, res.body.error.errors?.map((e) => e.field)]).toEqual([422, expect.arrayContaining([field])]);
    }
    const missing = await api.post<ErrorBody>('/v1/send', { to: 'a@example.com', template: 'tpl_missing' });
    expect([missing.status, missing.body.error.code]).toEqual([404, 'TEMPLATE_NOT_FOUND']);
    expect(await sending.emailsOf(api.projectId)).toEqual([]);
  });

  it('checks a template on save: syntax errors name line and column, from must be on a verified domain', async () => {
    const api = await project();
    const broken = await api.post<ErrorBody>('/templates', {
      name: 'Broken',
      subject: 'Hi',
      body: '<p>ok</p>\n{% if x %}never closed',
      from: api.from,
    });
    expect(broken.status).toBe(422);
    expect(broken.body.error.errors?.[0]?.message).toMatch(/line 2, column \d+/);
    const foreign = await api.post<ErrorBody>('/templates', {
      name: 'Foreign',
      subject: 'Hi',
      body: 'Hi',
      from: 'me@not-mine.example.test',
    });
    expect(foreign.status).toBe(422);
    expect(foreign.body.error.errors?.[0]).toMatchObject({ field: 'from' });
    const ok = (await api.post('/templates', { name: 'Ok', subject: 'Hi', body: 'Hi', from: api.from })).body;
    const copy = await api.post(`/templates/${ok.id}/duplicate`);
    expect(copy.status).toBe(201);
    expect((await api.get(`/templates/${copy.body.id}`)).body).toMatchObject({ name: 'Ok (copy)', from: api.from });
    expect((await api.patch(`/templates/${ok.id}`, { subject: 'Changed' })).body.subject).toBe('Changed');
    expect((await api.get(`/templates/${ok.id}/usage`)).body).toEqual({ campaigns: [], workflows: [] });
    expect((await api.get('/templates')).body.total).toBe(2);
    expect((await api.delete(`/templates/${ok.id}`)).status).toBe(204);
    const other = await newProject(herald.url, owner);
    const foreignTemplate = await other.get<ErrorBody>(`/templates/${copy.body.id}`);
    expect([foreignTemplate.status, foreignTemplate.body.error.code]).toEqual([404, 'TEMPLATE_NOT_FOUND']);
  });

  it('applies a signed complaint from the generic relay webhook once: suppressed, unsubscribed, and a repeat changes nothing', async () => {
    const api = await project();
    const to = 'complains@example.com';
    const res = await api.post<SendBody>('/v1/send', {
      to,
      from: api.from,
      subject: 'Hi',
      body: 'Hi',
      subscribed: true,
    });
    const [message] = await smtp.waitFor((m) => m.to.includes(to));
    const notice = { id: `relay-${Date.now()}`, type: 'complaint', email: to, messageId: message!.messageId };
    const post = (req: { headers: Record<string, string>; body: string }) =>
      fetch(`${herald.url}/webhooks/generic`, { method: 'POST', ...req });
    const unsigned = await post({ headers: { 'content-type': 'application/json' }, body: JSON.stringify(notice) });
    expect(unsigned.status).toBe(401);
    const first = await post(signedWebhook(notice));
    expect(first.status).toBe(200);
    expect(await first.json()).toMatchObject({ received: true, duplicate: false });
    expect(await sending.suppressed(api.projectId, to)).toBe(true);
    await eventually(async () =>
      (await api.contact(res.body.data.emails[0]!.contact.id)).subscribed === false ? true : undefined,
    );
    const repeat = await post(signedWebhook(notice));
    expect(await repeat.json()).toMatchObject({ duplicate: true });
    expect((await sending.outboxTypes(api.projectId)).filter((t) => t === 'email.complained')).toHaveLength(1);
  });

  it('uploads an image checked by its content and serves it at the public URL it answers', async () => {
    const api = await project();
    const upload = async (bytes: Uint8Array, name: string, type: string) => {
      const form = new FormData();
      form.append('file', new Blob([bytes], { type }), name);
      const res = await fetch(`${herald.url}/uploads/image`, {
        method: 'POST',
        headers: { authorization: `Bearer ${api.key}` },
        body: form,
      });
      return { status: res.status, body: (await res.json()) as { url?: string } };
    };
    const png = Buffer.from(
      'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
      'base64',
    );
    const ok = await upload(png, 'logo.png', 'image/png');
    expect(ok.status).toBe(201);
    const served = await fetch(ok.body.url!);
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe('image/png');
    expect(Buffer.from(await served.arrayBuffer()).equals(png)).toBe(true);
    const disguised = await upload(
      Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'),
      'logo.png',
      'image/png',
    );
    expect(disguised.status).toBe(422);
  });

  it('verifies an address: MX records, typos and disposable domains, with reasons', async () => {
    const api = await project();
    dns.set('mail-ok.example.test', 'MX', [{ priority: 10, exchange: 'mx.mail-ok.example.test' }]);
    dns.set('mail-ok.example.test', 'A', '127.0.0.2');
    const verify = async (email: string) => (await api.post('/v1/verify', { email })).body;
    const good = await verify('Alice+news@mail-ok.example.test');
    expect(good).toMatchObject({
      success: true,
      data: {
        email: 'alice+news@mail-ok.example.test',
        valid: true,
        hasMxRecords: true,
        hasWebsite: true,
        domainExists: true,
        isPlusAddressed: true,
      },
    });
    const nowhere = await verify('bob@nothing-here.example.test');
    expect(nowhere.data).toMatchObject({ valid: false, domainExists: false, hasMxRecords: false });
    expect(nowhere.data.reasons.length).toBeGreaterThan(0);
    const disposable = await verify('temp@mailinator.com');
    expect(disposable.data).toMatchObject({ isDisposable: true, valid: false });
    const typo = await verify('bob@gmial.com');
    expect(typo.data.isTypo).toBe(true);
    expect(typo.data.reasons.join(' ')).toContain('bob@gmail.com');
    const malformed = await verify('not an address');
    expect(malformed.data).toMatchObject({ valid: false });
    expect((await api.post('/v1/verify', {})).status).toBe(422);
  });

  it("renders the contact's own fields (email, id, subscribed, createdAt, updatedAt, locale, links) and no data key shadows them", async () => {
    const api = await project();
    const to = 'fields@example.com';
    const res = await api.post<SendBody>('/v1/send', {
      to,
      from: api.from,
      subject: 'For {{email}}',
      body: '<p>[{{email}}|{{id}}|{{subscribed}}|{{createdAt}}|{{updatedAt}}|{{locale}}|{{plan}}]</p><p>{{svc_id}} {{svc_email}}</p><p><a href="{{manageUrl}}">m</a> <a href="{{unsubscribeUrl}}">u</a> <a href="{{subscribeUrl}}">s</a></p>',
      subscribed: true,
      data: {
        locale: 'fr',
        plan: 'pro',
        subscribed: 'from data',
        createdAt: 'from data',
        updatedAt: { value: 'transient', persistent: false },
      },
    });
    expect(res.status).toBe(200);
    const contact = await api.contact(res.body.data.emails[0]!.contact.id);
    const [message] = await smtp.waitFor((m) => m.to.includes(to));
    expect(message!.subject).toBe(`For ${to}`);
    expect(message!.html).toContain(
      `<p>[${to}|${contact.id}|true|${contact.createdAt}|${contact.updatedAt}|fr|pro]</p><p>${contact.id} ${to}</p>`,
    );
    expect(message!.html).toMatch(
      /href="http[^"]+\/manage\/[^"]+">m<\/a> <a href="http[^"]+\/unsubscribe\/[^"]+">u<\/a>/,
    );
    expect(message!.html).toMatch(/href="http[^"]+\/subscribe\/[^"]+">s<\/a>/);
  });

  it("answers each email's status: queued, or skipped because the contact is unsubscribed from marketing mail or the address is suppressed", async () => {
    const api = await project();
    const marketing = (
      await api.post('/templates', { name: 'News', subject: 'News', body: 'News', from: api.from, type: 'marketing' })
    ).body;
    const bounced = 'status-gone@example.com';
    smtp.reject({ recipient: bounced, code: 550, message: 'No such user' });
    const first = await api.post<SendBody>('/v1/send', { to: bounced, from: api.from, subject: 'Hi', body: 'Hi' });
    expect(first.body.data.emails[0]).toMatchObject({ status: 'queued' });
    await eventually(async () => ((await sending.suppressed(api.projectId, bounced)) ? true : undefined));

    const res = await api.post<SendBody>('/v1/send', {
      to: ['status-new@example.com', bounced],
      template: marketing.id,
    });
    expect(res.status).toBe(200);
    expect(res.body.data.emails.map(({ contact, email, ...rest }) => [contact.email, email.slice(0, 4), rest])).toEqual(
      [
        ['status-new@example.com', 'eml_', { status: 'skipped', reason: 'unsubscribed' }],
        [bounced, 'eml_', { status: 'skipped', reason: 'suppressed' }],
      ],
    );
    const transactional = await api.post<SendBody>('/v1/send', {
      to: 'status-new@example.com',
      from: api.from,
      subject: 'Receipt',
      body: 'Receipt',
    });
    expect(transactional.body.data.emails[0]).toMatchObject({ status: 'queued' });
  });

  it('shows an email by id with its status, recipient, subject, timestamps and lifecycle events, and only to its own project', async () => {
    const api = await project();
    const to = 'lifecycle@example.com';
    const res = await api.post<SendBody>('/v1/send', {
      to: { name: 'Life', email: to },
      from: api.from,
      subject: 'Lifecycle',
      body: '<p><a href="https://example.org/x">go</a></p>',
    });
    const id = res.body.data.emails[0]!.email;
    const [message] = await smtp.waitFor((m) => m.to.includes(to));
    const sent = await eventually(async () => {
      const r = await api.get<EmailBody>(`/emails/${id}`);
      return r.body.status === 'sent' ? r.body : undefined;
    });
    expect(sent).toMatchObject({
      id,
      status: 'sent',
      contactId: res.body.data.emails[0]!.contact.id,
      to: { email: to, name: 'Life' },
      from: { email: api.from, name: null },
      subject: 'Lifecycle',
      error: null,
    });
    expect(sent.events.map((e) => e.type)).toEqual(['sent']);
    expect(Date.parse(sent.sentAt!)).toBeGreaterThanOrEqual(Date.parse(sent.createdAt));

    const delivered = await fetch(`${herald.url}/webhooks/generic`, {
      method: 'POST',
      ...signedWebhook({ id: `dlv-${id}`, type: 'delivery', email: to, messageId: message!.messageId }),
    });
    expect(delivered.status).toBe(200);
    await fetch(/src="(http[^"]+\/t\/open\/[^"]+)"/.exec(message!.html!)![1]!);
    await fetch(/href="(http[^"]+\/t\/click\/[^"]+)"/.exec(message!.html!)![1]!, { redirect: 'manual' });
    const shown = (await api.get<EmailBody>(`/emails/${id}`)).body;
    expect(shown.status).toBe('delivered');
    expect(shown.events.map((e) => e.type)).toEqual(['sent', 'delivered', 'opened', 'clicked']);
    expect(shown.events[3]).toMatchObject({ url: 'https://example.org/x' });
    for (const at of [shown.deliveredAt, shown.openedAt, shown.clickedAt]) expect(Date.parse(at!)).not.toBeNaN();
    expect(shown).not.toHaveProperty('html');

    const other = await newProject(herald.url, owner);
    const foreign = await other.get<ErrorBody>(`/emails/${id}`);
    expect([foreign.status, foreign.body.error.code]).toEqual([404, 'EMAIL_NOT_FOUND']);
    expect((await api.get<ErrorBody>('/emails/eml_missing')).status).toBe(404);
  });

  it("shows a bounced email with the relay's answer as its last event", async () => {
    const api = await project();
    const to = 'lifecycle-bounce@example.com';
    smtp.reject({ recipient: to, code: 550, message: 'Mailbox unavailable' });
    const res = await api.post<SendBody>('/v1/send', { to, from: api.from, subject: 'Bounce', body: 'Hi' });
    const id = res.body.data.emails[0]!.email;
    const shown = await eventually(async () => {
      const r = await api.get<EmailBody>(`/emails/${id}`);
      return r.body.status === 'bounced' ? r.body : undefined;
    });
    expect(shown.events).toEqual([
      expect.objectContaining({ type: 'bounced', reason: expect.stringContaining('Mailbox unavailable') }),
    ]);
    expect(shown.error).toContain('Mailbox unavailable');
    expect(Date.parse(shown.bouncedAt!)).not.toBeNaN();
  });

  it("lists a project's emails newest first by contact and by status, cursor-paginated, and refuses a bad query field by field", async () => {
    const api = await project();
    const a = await api.post<SendBody>('/v1/send', {
      to: 'list-a@example.com',
      from: api.from,
      subject: 'A1',
      body: 'Hi',
      subscribed: true,
    });
    const contactA = a.body.data.emails[0]!.contact.id;
    await api.post('/v1/send', { to: 'list-b@example.com', from: api.from, subject: 'B1', body: 'Hi' });
    await api.post('/v1/send', { to: 'list-a@example.com', from: api.from, subject: 'A2', body: 'Hi' });
    const marketing = (
      await api.post('/templates', { name: 'News', subject: 'M', body: 'M', from: api.from, type: 'marketing' })
    ).body;
    await api.post('/v1/send', { to: 'list-b@example.com', template: marketing.id });

    const all = await api.get<{ data: EmailBody[]; cursor: string | null; hasMore: boolean; total: number }>('/emails');
    expect(all.status).toBe(200);
    expect(all.body).toMatchObject({ hasMore: false, cursor: null, total: 4 });
    expect(all.body.data.map((e) => e.subject)).toEqual(['M', 'A2', 'B1', 'A1']);

    const ofA = await api.get<{ data: EmailBody[]; total: number }>(`/emails?contactId=${contactA}`);
    expect(ofA.body.data.map((e) => e.subject)).toEqual(['A2', 'A1']);
    expect(ofA.body.total).toBe(2);
    const skipped = await api.get<{ data: EmailBody[] }>('/emails?status=skipped');
    expect(skipped.body.data.map((e) => [e.subject, e.status, e.reason])).toEqual([['M', 'skipped', 'unsubscribed']]);

    const first = await api.get<{ data: EmailBody[]; cursor: string; hasMore: boolean; total: number }>(
      '/emails?limit=3',
    );
    expect(first.body).toMatchObject({ hasMore: true, total: 4 });
    expect(first.body.data).toHaveLength(3);
    const second = await api.get<{ data: EmailBody[]; cursor: string | null; hasMore: boolean; total: number }>(
      `/emails?limit=3&cursor=${encodeURIComponent(first.body.cursor)}`,
    );
    expect(second.body).toMatchObject({ hasMore: false, cursor: null, total: 0 });
    expect(second.body.data.map((e) => e.subject)).toEqual(['A1']);

    const other = await newProject(herald.url, owner);
    expect((await other.get('/emails')).body).toMatchObject({ data: [], total: 0 });

    const bad = await api.get<ErrorBody>('/emails?limit=0&status=lost&contactId=x%27y');
    expect(bad.status).toBe(422);
    expect(bad.body.error.errors?.map((e) => e.field).sort()).toEqual(['contactId', 'limit', 'status']);
    expect((await api.get<ErrorBody>('/emails?limit=101')).status).toBe(422);
    expect((await api.get<ErrorBody>('/emails?cursor=not-a-cursor')).status).toBe(422);
  });

  describe('a refused send leaves no trace', () => {
    const workLimitLoop = '{% for i in (1..1000000000000) %}{% increment x %}{% endfor %}';
    // each refusal fails for the last recipient only where the rule allows (a template that does not parse
    // fails for every one); before the fix the recipients ahead of it were upserted, one contact per recipient
    const refusals: [
      string,
      (to: string[], from: string) => Record<string, unknown>,
      { field: string; code: string },
    ][] = [
      [
        'a render past the work limit',
        (to, from) => ({
          to,
          from,
          subject: 'Hi',
          body: `{% if email contains "last" %}${workLimitLoop}{% endif %}ok`,
        }),
        { field: 'body', code: 'render_failed' },
      ],
      [
        'an unknown Liquid filter',
        (to, from) => ({ to, from, subject: 'Hi', body: '<p>{{ email | no_such_filter }}</p>' }),
        { field: 'body', code: 'render_failed' },
      ],
      [
        'an empty rendered subject',
        (to, from) => ({ to, from, subject: '{% unless email contains "last" %}Hi{% endunless %}', body: 'ok' }),
        { field: 'subject', code: 'invalid_string' },
      ],
      [
        'a message over the size limit (40 MB)',
        (to, from) => ({
          to,
          from,
          subject: 'Hi',
          // 26 × 160,000 three-byte characters of template text: 12.5 MB of HTML and as much plain text
          body: `{% if email contains "last" %}{% for i in (1..26) %}${'€'.repeat(160_000)}{% endfor %}{% endif %}ok`,
          attachments: [{ filename: 'big.bin', content: Buffer.alloc(13 * 1024 * 1024).toString('base64') }],
        }),
        { field: 'attachments', code: 'too_big' },
      ],
    ];
    let api: TestProjectApi & { domain: string; from: string };
    let key = 0;
    const recipients = (count: number) =>
      Array.from({ length: count }, (_, i) => (i === count - 1 ? 'last@example.com' : `r${i}@example.com`));
    const session = (method: string, path: string, body?: unknown) =>
      fetch(`${herald.url}/users/@me/projects/${api.projectId}${path}`, {
        method,
        headers: { cookie: api.cookie, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
    /** Everything a /v1/send can leave behind, counted for the project. */
    const traces = async () => {
      const rows = await sending.query(
        `SELECT (SELECT count(*) FROM contacts.outbox WHERE envelope->>'projectId' = $1)::int AS "contactEvents",
                (SELECT count(*) FROM sending.outbox WHERE envelope->>'projectId' = $1)::int AS "sendingEvents",
                (SELECT count(*) FROM sending.idempotency_keys WHERE project_id = $1)::int AS "idempotencyKeys"`,
        [api.projectId],
      );
      const consumption = (await (await session('GET', '/billing-consumption')).json()) as {
        categories: { transactional: { admitted: number } };
      };
      return {
        contacts: (await api.allContacts()).length,
        emails: (await sending.emailsOf(api.projectId)).length,
        ...(rows.rows[0] as { contactEvents: number; sendingEvents: number; idempotencyKeys: number }),
        admitted: consumption.categories.transactional.admitted,
      };
    };
    const none = { contacts: 0, emails: 0, contactEvents: 0, sendingEvents: 0, idempotencyKeys: 0, admitted: 0 };

    beforeAll(async () => {
      api = await project();
      // with a cap, admission reserves the recipients it admits (docs/billing.md): a refused send reserves none
      expect((await session('PUT', '/billing-limits', { transactional: 1000 })).status).toBe(200);
    });

    it.each(refusals)(
      'refused for %s, with 1 recipient and with 10 (the last refused): the 422 as before, and no contact, email, event, idempotency key or billing reservation',
      async (_reason, body, expected) => {
        for (const count of [1, 10]) {
          const res = await fetch(`${herald.url}/v1/send`, {
            method: 'POST',
            headers: { ...bearer(api.key), 'idempotency-key': `refused-${++key}` },
            body: JSON.stringify(body(recipients(count), api.from)),
          });
          const answer = (await res.json()) as ErrorBody;
          expect([res.status, answer.error.errors?.[0]]).toEqual([422, expect.objectContaining(expected)]);
          expect(await traces()).toEqual(none);
        }
      },
    );

    it('while an accepted send of the same project leaves each of these traces', async () => {
      const res = await fetch(`${herald.url}/v1/send`, {
        method: 'POST',
        headers: { ...bearer(api.key), 'idempotency-key': 'accepted' },
        body: JSON.stringify({ to: recipients(10), from: api.from, subject: 'Hi', body: 'ok' }),
      });
      expect(res.status).toBe(200);
      const after = await traces();
      expect(after).toMatchObject({ contacts: 10, emails: 10, idempotencyKeys: 1, admitted: 10 });
      expect(after.contactEvents).toBeGreaterThanOrEqual(10); // contact.created of each recipient
    });
  });
});

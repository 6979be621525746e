import type { HeraldRuntime } from '@herald/core';
import { MAX_PATH_SEGMENT_LENGTH } from '@herald/http';
import Fastify from 'fastify';
import type { SendingSettings } from '../sending.settings.js';
import { LinkSigner, redirectTarget } from './link-signer.js';
import type { LinkTracking } from './link-tracking.js';
import { LinksController } from './links.controller.js';

const signer = new LinkSigner(
  { APP_URL: 'https://herald.test', LINK_SECRET: 'test-link-secret' } as SendingSettings,
  { internalJwtSecret: 'unused' } as HeraldRuntime,
);

/** The click route on a bare Fastify server: what the browser gets for a click link. */
async function clickThrough(token: string): Promise<{ status: number; location?: string; clicked: string[] }> {
  const clicked: string[] = [];
  const tracking = { clicked: (_email: string, url: string) => Promise.resolve(void clicked.push(url)) };
  const controller = new LinksController(signer, tracking as unknown as LinkTracking);
  const app = Fastify({ maxParamLength: 4096 });
  app.get('/t/click/:token', (req, reply) => controller.click((req.params as { token: string }).token, reply));
  try {
    const res = await app.inject({ method: 'GET', url: `/t/click/${token}` });
    return { status: res.statusCode, location: res.headers.location as string | undefined, clicked };
  } finally {
    await app.close();
  }
}

describe('click tracking never makes a link unusable', () => {
  it('a link is tracked while its signed token fits a path segment, and left as it is past that (it would be a 414)', () => {
    const short = 'https://shop.test/sale?utm_source=herald';
    expect(signer.trackedLink('email-1', short)).toBe(signer.clickUrl('email-1', short));
    const long = `https://shop.test/sale?ref=${'x'.repeat(1600)}`;
    expect(signer.clickUrl('email-1', long).split('/t/click/')[1]!.length).toBeGreaterThan(MAX_PATH_SEGMENT_LENGTH);
    expect(signer.trackedLink('email-1', long)).toBe(long);
  });
});

describe('click links: the redirect target is a normalized http(s) URL, never an invalid Location header', () => {
  it('a link target with CR/LF is signed without them when the email is built', () => {
    const link = signer.clickUrl('email-1', 'https://shop.test/a\r\nSet-Cookie: x=1');
    const claims = signer.verify(link.split('/t/click/')[1]!, 'click');
    expect(claims?.u).toBe('https://shop.test/aSet-Cookie:%20x=1');
  });

  it('a signed target holding CR/LF redirects to it without the line breaks (it was a bare 500)', async () => {
    const token = signer.sign({ k: 'click', e: 'email-1', u: 'https://shop.test/a\r\nSet-Cookie: x=1' });
    const res = await clickThrough(token);
    expect(res).toMatchObject({ status: 302, location: 'https://shop.test/aSet-Cookie:%20x=1' });
    expect(res.clicked).toHaveLength(1);
  });

  it('a signed target that is not an http(s) URL answers the invalid-link page (404) and records no click', async () => {
    for (const u of ['javascript:alert(1)', 'https://exa mple.test/\r\n', 'https://']) {
      const res = await clickThrough(signer.sign({ k: 'click', e: 'email-1', u }));
      expect(res).toMatchObject({ status: 404, clicked: [] });
    }
  });

  it('redirectTarget keeps an ordinary URL and refuses anything but absolute http(s)', () => {
    expect(redirectTarget('https://shop.test/p?q=1#x')).toBe('https://shop.test/p?q=1#x');
    expect(redirectTarget('HTTP://Shop.test\t/a\nb')).toBe('http://shop.test/ab');
    expect(redirectTarget('https://shop.test/\u0001x')).toBe('https://shop.test/%01x');
    expect(redirectTarget('mailto:a@b.test')).toBeNull();
    expect(redirectTarget('/relative')).toBeNull();
    expect(redirectTarget('http://[bad')).toBeNull();
  });
});

describe('subscription links of an email sent to no contact (a test send to an address that is not a contact)', () => {
  /** The subscription routes on a bare Fastify server, with what they asked of the contacts. */
  async function follow(method: 'GET' | 'POST', path: string) {
    const changes: unknown[] = [];
    const tracking = {
      recipient: (projectId: string, emailId: string) =>
        Promise.resolve(projectId === 'prj_1' && emailId === 'eml_1' ? 'designer@agency.test' : null),
      contact: () => Promise.reject(new Error('no contact to look up')),
      setSubscription: (...args: unknown[]) => Promise.resolve(void changes.push(args)),
    };
    const controller = new LinksController(signer, tracking as unknown as LinkTracking);
    const app = Fastify({ maxParamLength: 4096 });
    const token = (req: { params: unknown }) => (req.params as { token: string }).token;
    app.get('/unsubscribe/:token', (req, reply) => controller.unsubscribeForm(token(req), reply));
    app.post('/unsubscribe/:token', (req, reply) => controller.unsubscribe(token(req), reply));
    app.get('/manage/:token', (req, reply) => controller.manage(token(req), reply));
    try {
      const res = await app.inject({ method, url: path });
      return { status: res.statusCode, body: res.body, changes };
    } finally {
      await app.close();
    }
  }

  it('show a page naming the address and change nothing, on GET and on POST (one-click included)', async () => {
    const urls = signer.subscriptionUrls('prj_1', '', 'eml_1');
    const path = (url: string) => url.slice('https://herald.test'.length);
    for (const [method, url] of [
      ['GET', urls.unsubscribeUrl],
      ['POST', urls.unsubscribeUrl],
      ['GET', urls.manageUrl],
    ] as const) {
      const res = await follow(method, path(url));
      expect(res).toMatchObject({ status: 200, changes: [] });
      expect(res.body).toContain('designer@agency.test');
      expect(res.body).toContain('nothing was changed');
    }
  });

  it("answer the invalid-link page (404) when the email is gone or not the link's project", async () => {
    const gone = signer.subscriptionUrls('prj_1', '', 'eml_gone').unsubscribeUrl;
    expect(await follow('GET', gone.slice('https://herald.test'.length))).toMatchObject({ status: 404, changes: [] });
  });
});

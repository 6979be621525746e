import { Public } from '@herald/http';
import { Body, Controller, Get, HttpCode, Param, Post, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { LinkSigner, redirectTarget } from './link-signer.js';
import type { RemoteContact } from '../send/contacts-client.js';
import { LinkTracking } from './link-tracking.js';
import { donePage, invalidLinkPage, managePage, noContactPage, subscribePage, unsubscribePage } from './pages.js';

/** A transparent 1×1 GIF. */
const PIXEL = Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64');

const html = (reply: FastifyReply, status: number, body: string) =>
  reply
    .status(status)
    .header('content-type', 'text/html; charset=utf-8')
    .header('cache-control', 'no-store')
    .header('x-frame-options', 'DENY')
    .send(body);

/**
 * The links inside emails, all signed (LinkSigner): the open pixel, the click redirect, and the
 * unsubscribe, subscribe and manage pages. A POST to the unsubscribe link is RFC 8058's one-click
 * unsubscribe (mail clients send `List-Unsubscribe=One-Click`), answered without a page to click.
 */
@Public()
@Controller()
export class LinksController {
  constructor(
    private readonly signer: LinkSigner,
    private readonly tracking: LinkTracking,
  ) {}

  @Get('t/open/:token')
  async open(@Param('token') token: string, @Res() reply: FastifyReply): Promise<void> {
    const claims = this.signer.verify(token, 'open');
    if (claims) await this.tracking.opened(claims.e);
    void reply
      .status(200)
      .header('content-type', 'image/gif')
      .header('cache-control', 'no-store, max-age=0')
      .send(PIXEL);
  }

  @Get('t/click/:token')
  async click(@Param('token') token: string, @Res() reply: FastifyReply): Promise<void> {
    const claims = this.signer.verify(token, 'click');
    // a target with CR/LF (signed before targets were normalized) would be an invalid Location header: a bare 500
    const target = claims && /^https?:\/\//i.test(claims.u) ? redirectTarget(claims.u) : null;
    if (!claims || !target) return void html(reply, 404, invalidLinkPage());
    await this.tracking.clicked(claims.e, claims.u);
    void reply.status(302).header('location', target).header('cache-control', 'no-store').send();
  }

  @Get('unsubscribe/:token')
  unsubscribeForm(@Param('token') token: string, @Res() reply: FastifyReply): Promise<void> {
    return this.page(token, 'unsub', reply, (c) =>
      unsubscribePage(c.email, `${this.signer.appUrl}/unsubscribe/${token}`),
    );
  }

  /** The page's button and RFC 8058 one-click both land here. */
  @Post('unsubscribe/:token')
  @HttpCode(200)
  unsubscribe(@Param('token') token: string, @Res() reply: FastifyReply): Promise<void> {
    return this.change(token, 'unsub', false, reply);
  }

  @Get('subscribe/:token')
  subscribeForm(@Param('token') token: string, @Res() reply: FastifyReply): Promise<void> {
    return this.page(token, 'sub', reply, (c) => subscribePage(c.email, `${this.signer.appUrl}/subscribe/${token}`));
  }

  @Post('subscribe/:token')
  @HttpCode(200)
  subscribe(@Param('token') token: string, @Res() reply: FastifyReply): Promise<void> {
    return this.change(token, 'sub', true, reply);
  }

  @Get('manage/:token')
  manage(@Param('token') token: string, @Res() reply: FastifyReply): Promise<void> {
    return this.page(token, 'manage', reply, (c) =>
      managePage(c.email, c.subscribed, `${this.signer.appUrl}/manage/${token}`),
    );
  }

  @Post('manage/:token')
  @HttpCode(200)
  manageChange(@Param('token') token: string, @Body() body: unknown, @Res() reply: FastifyReply): Promise<void> {
    const action = (body as { action?: unknown } | undefined)?.action;
    if (action !== 'subscribe' && action !== 'unsubscribe')
      return Promise.resolve(void html(reply, 404, invalidLinkPage()));
    return this.change(token, 'manage', action === 'subscribe', reply);
  }

  /** A subscription page for the contact a valid link names; 404 for a forged link or a deleted contact. */
  private async page(
    token: string,
    kind: 'unsub' | 'sub' | 'manage',
    reply: FastifyReply,
    render: (contact: RemoteContact) => string,
  ): Promise<void> {
    const claims = this.signer.verify(token, kind);
    if (claims?.c === '') return this.noContact(claims, reply);
    const contact = claims ? await this.tracking.contact(claims.p, claims.c) : null;
    html(reply, contact ? 200 : 404, contact ? render(contact) : invalidLinkPage());
  }

  private async change(
    token: string,
    kind: 'unsub' | 'sub' | 'manage',
    subscribed: boolean,
    reply: FastifyReply,
  ): Promise<void> {
    const claims = this.signer.verify(token, kind);
    if (claims?.c === '') return this.noContact(claims, reply);
    const contact = claims ? await this.tracking.setSubscription(claims.p, claims.c, subscribed, claims.e) : null;
    html(reply, contact ? 200 : 404, contact ? donePage(subscribed, contact.email) : invalidLinkPage());
  }

  /**
   * A link of an email sent to no contact (a campaign's test send to an address that is not a
   * contact): the page names the address the email went to and changes nothing, on GET and POST
   * alike (one-click included); 404 when its email is gone.
   */
  private async noContact(claims: { p: string; e?: string }, reply: FastifyReply): Promise<void> {
    const address = claims.e ? await this.tracking.recipient(claims.p, claims.e) : null;
    html(reply, address ? 200 : 404, address ? noContactPage(address) : invalidLinkPage());
  }
}

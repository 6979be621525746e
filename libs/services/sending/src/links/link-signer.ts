import { createHmac, timingSafeEqual } from 'node:crypto';
import { derivedSecret, HERALD_RUNTIME, type HeraldRuntime } from '@herald/core';
import { MAX_PATH_SEGMENT_LENGTH } from '@herald/http';
import { Inject, Injectable } from '@nestjs/common';
import { SENDING_SETTINGS, type SendingSettings } from '../sending.settings.js';

/** What a link in an email stands for. Short keys keep URLs short. */
export type LinkClaims =
  | { k: 'open'; e: string }
  | { k: 'click'; e: string; u: string }
  /** subscription pages: project, contact, and the email the link came in (if any) */
  | SubscriptionClaims<'unsub'>
  | SubscriptionClaims<'sub'>
  | SubscriptionClaims<'manage'>;

interface SubscriptionClaims<K extends string> {
  k: K;
  p: string;
  c: string;
  e?: string;
}

type Kind = LinkClaims['k'];

/**
 * Signed links in emails: `<base64url claims>.<base64url HMAC-SHA256, 128 bits>`. A forged or
 * altered token (another contact, another target URL) fails the check, so the click redirect is
 * no open redirect and an unsubscribe link is not a bare contact id.
 */
@Injectable()
export class LinkSigner {
  private readonly secret: string;
  readonly appUrl: string;

  constructor(@Inject(SENDING_SETTINGS) settings: SendingSettings, @Inject(HERALD_RUNTIME) runtime: HeraldRuntime) {
    this.secret = settings.LINK_SECRET ?? derivedSecret('links', runtime.internalJwtSecret);
    this.appUrl = settings.APP_URL.replace(/\/+$/, '');
  }

  sign(claims: LinkClaims): string {
    const body = Buffer.from(JSON.stringify(claims)).toString('base64url');
    return `${body}.${this.mac(body)}`;
  }

  /** The claims of a valid token of the expected kind, else null. */
  verify<K extends Kind>(token: string, kind: K): Extract<LinkClaims, { k: K }> | null {
    const [body, mac] = token.split('.');
    if (!body || !mac) return null;
    const expected = Buffer.from(this.mac(body));
    const given = Buffer.from(mac);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
    try {
      const claims = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as LinkClaims;
      return claims.k === kind ? (claims as Extract<LinkClaims, { k: K }>) : null;
    } catch {
      return null;
    }
  }

  openUrl(emailId: string): string {
    return `${this.appUrl}/t/open/${this.sign({ k: 'open', e: emailId })}`;
  }

  /** The signed click link; the target is signed as `redirectTarget` normalizes it (no tab, CR or LF). */
  clickUrl(emailId: string, url: string): string {
    return `${this.appUrl}/t/click/${this.sign({ k: 'click', e: emailId, u: redirectTarget(url) ?? url })}`;
  }

  /**
   * What a link of an email becomes with click tracking: its signed click link, or the link itself
   * when the signed token would pass the longest path segment a Herald server accepts (a target of
   * ~1,400 characters and more): such a click link would be refused (414), an untracked one works.
   */
  trackedLink(emailId: string, url: string): string {
    const tracked = this.clickUrl(emailId, url);
    const token = tracked.length - this.appUrl.length - '/t/click/'.length;
    return token > MAX_PATH_SEGMENT_LENGTH ? url : tracked;
  }

  /** unsubscribeUrl, subscribeUrl and manageUrl of one contact (and the email they appear in). */
  subscriptionUrls(
    projectId: string,
    contactId: string,
    emailId?: string,
  ): { unsubscribeUrl: string; subscribeUrl: string; manageUrl: string } {
    const claims = { p: projectId, c: contactId, ...(emailId ? { e: emailId } : {}) };
    return {
      unsubscribeUrl: `${this.appUrl}/unsubscribe/${this.sign({ k: 'unsub', ...claims })}`,
      subscribeUrl: `${this.appUrl}/subscribe/${this.sign({ k: 'sub', ...claims })}`,
      manageUrl: `${this.appUrl}/manage/${this.sign({ k: 'manage', ...claims })}`,
    };
  }

  private mac(body: string): string {
    return createHmac('sha256', this.secret).update(body).digest().subarray(0, 16).toString('base64url');
  }
}

/**
 * Where a click link may redirect: an absolute http(s) URL, serialized by the WHATWG URL parser, which
 * drops tabs, CR and LF (as browsers do with an `href`) and percent-encodes other control characters,
 * so the result is always a valid `Location` header. `null` for anything else (the link is not valid).
 */
export function redirectTarget(url: string): string | null {
  if (!/^\s*https?:/i.test(url)) return null;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return null;
  }
  return parsed.protocol === 'http:' || parsed.protocol === 'https:' ? parsed.href : null;
}

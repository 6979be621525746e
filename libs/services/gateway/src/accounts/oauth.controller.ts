import { createLogger } from '@herald/core';
import { Public } from '@herald/http';
import { Controller, Get, Param, Req, Res } from '@nestjs/common';
import { parse, serialize } from 'cookie';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { OAuthLoginService, OAuthRefused, type OAuthRefusal } from './oauth-login.service.js';
import { SessionService } from './session.service.js';

const log = createLogger('gateway.oauth');

/** Binds a login's `state` to the browser that started it: short-lived, HttpOnly, sent back on the callback. */
export const OAUTH_STATE_COOKIE = 'herald_oauth_state';
const STATE_TTL_SECONDS = 600;
const COOKIE_PATH = '/auth/oauth';

/**
 * OAuth login with GitHub and Google (ADR 0029). Every answer is a redirect: to the provider, to
 * the dashboard signed in, or to the login page with `oauth_error` saying why not (never a 500).
 */
@Controller('auth/oauth')
export class OAuthController {
  constructor(
    private readonly oauth: OAuthLoginService,
    private readonly sessions: SessionService,
  ) {}

  /** Redirects to the provider's consent page with a fresh `state`, also set in a cookie for the callback. */
  @Public()
  @Get(':provider')
  async start(@Param('provider') provider: string, @Req() req: FastifyRequest, @Res() reply: FastifyReply) {
    if (!this.oauth.isConfigured(provider)) return this.refuse(reply, 'provider');
    const state = randomBytes(32).toString('base64url');
    try {
      const step = await this.oauth.step(provider, req, state);
      if (!('redirect' in step)) return this.refuse(reply, 'provider');
      void reply.header('set-cookie', stateCookie(req, `${provider}.${state}`, STATE_TTL_SECONDS));
      return this.redirect(reply, step.redirect);
    } catch (error) {
      return this.refuse(reply, reasonOf(error, provider));
    }
  }

  /**
   * The provider's answer: the `state` must be the one this browser's cookie holds for this provider
   * (else refused before anything is exchanged), then the code is exchanged, the verified address
   * read, the account logged in or signed up, and the session cookie set as by POST /auth/login.
   */
  @Public()
  @Get(':provider/callback')
  async callback(@Param('provider') provider: string, @Req() req: FastifyRequest, @Res() reply: FastifyReply) {
    if (!this.oauth.isConfigured(provider)) return this.refuse(reply, 'provider');
    const query = (req.query ?? {}) as Record<string, unknown>;
    const expected = parse(typeof req.headers.cookie === 'string' ? req.headers.cookie : '')[OAUTH_STATE_COOKIE];
    void reply.header('set-cookie', stateCookie(req, '', 0)); // one use
    if (!sameState(expected, typeof query.state === 'string' ? `${provider}.${query.state}` : undefined))
      return this.refuse(reply, 'state');
    try {
      const step = await this.oauth.step(provider, req);
      if (!('identity' in step)) return this.refuse(reply, 'provider');
      const user = await this.oauth.accountOf(step.identity);
      this.sessions.issue(reply, req, { sub: user.id, sv: user.sessionVersion });
      return this.redirect(reply, '/app/projects');
    } catch (error) {
      return this.refuse(reply, reasonOf(error, provider));
    }
  }

  private refuse(reply: FastifyReply, reason: OAuthRefusal): void {
    this.redirect(reply, `/app/login?oauth_error=${reason}`);
  }

  private redirect(reply: FastifyReply, location: string): void {
    void reply.status(302).header('location', location).header('cache-control', 'no-store').send();
  }
}

function reasonOf(error: unknown, provider: string): OAuthRefusal {
  if (error instanceof OAuthRefused) return error.reason;
  log.warn('OAuth login failed', { provider, error: error instanceof Error ? error.message : String(error) });
  return 'provider';
}

function sameState(expected: string | undefined, got: string | undefined): boolean {
  if (!expected || !got) return false;
  const [a, b] = [Buffer.from(expected), Buffer.from(got)];
  return a.length === b.length && timingSafeEqual(a, b);
}

/** SameSite=Lax: sent on the provider's top-level redirect back, not on a cross-site subrequest. */
function stateCookie(request: FastifyRequest, value: string, maxAge: number): string {
  return serialize(OAUTH_STATE_COOKIE, value, {
    httpOnly: true,
    sameSite: 'lax',
    secure: request.protocol === 'https',
    path: COOKIE_PATH,
    maxAge,
  });
}

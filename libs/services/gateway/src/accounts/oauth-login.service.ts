import { createLogger, newId } from '@herald/core';
import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { randomBytes } from 'node:crypto';
import { Passport } from 'passport';
import { IsNull, type DataSource } from 'typeorm';
import { GATEWAY } from '../consumer.js';
import { GATEWAY_SETTINGS, type GatewaySettings } from '../gateway.settings.js';
import { normaliseEmail } from './accounts.service.js';
import { oauthStrategies, type OAuthIdentity, type OAuthProviderId } from './oauth-providers.js';
import { hashPassword } from './password-hasher.js';
import { User } from './user.entity.js';

const log = createLogger('gateway.oauth');

/** Why an OAuth login did not sign anyone in: the login page's `oauth_error` (the dashboard words it). */
export type OAuthRefusal = 'denied' | 'state' | 'provider' | 'unverified' | 'no_email' | 'signups_disabled';

export class OAuthRefused extends Error {
  constructor(readonly reason: OAuthRefusal) {
    super(`OAuth login refused: ${reason}`);
  }
}

/** One step of the flow through passport: a redirect to follow, or the identity the provider vouched for. */
export type OAuthStep = { redirect: string } | { identity: OAuthIdentity };

/** The request as passport's OAuth 2.0 strategy reads it (the query of the callback). */
type StrategyRequest = { query?: unknown; headers: Record<string, unknown>; url?: string };

/**
 * OAuth login (ADR 0029) through passport's GitHub and Google strategies, each run on its own for
 * one step (no passport session: the `state` is bound to the browser by the controller's cookie),
 * then the account of the verified address: logged in when it exists, else signed up.
 */
@Injectable()
export class OAuthLoginService {
  private readonly passport = new Passport();
  private readonly configured: Set<OAuthProviderId>;

  constructor(
    @InjectDataSource(GATEWAY) private readonly db: DataSource,
    @Inject(GATEWAY_SETTINGS) private readonly settings: GatewaySettings,
  ) {
    const strategies = oauthStrategies(settings);
    for (const [id, strategy] of strategies) this.passport.use(id, strategy);
    this.configured = new Set(strategies.keys());
  }

  isConfigured(id: string): id is OAuthProviderId {
    return this.configured.has(id as OAuthProviderId);
  }

  /**
   * Runs the provider's strategy on the request: without a `code`, the redirect to the provider's
   * consent page (carrying `state`); with one, the code exchanged and the profile read.
   */
  step(id: OAuthProviderId, request: StrategyRequest, state?: string): Promise<OAuthStep> {
    return new Promise((resolve, reject) => {
      const headers: Record<string, string> = {};
      // what passport's strategy.redirect writes on: the consent page's address is all we keep
      const response = {
        statusCode: 200,
        setHeader: (name: string, value: string) => void (headers[name.toLowerCase()] = value),
        end: () => (headers.location ? resolve({ redirect: headers.location }) : reject(new OAuthRefused('provider'))),
      };
      const done = (error: unknown, identity: OAuthIdentity | false) => {
        if (error) log.warn('OAuth provider step failed', { provider: id, error: String(error) });
        if (error) reject(new OAuthRefused(isDenied(request) ? 'denied' : 'provider'));
        else if (identity) resolve({ identity });
        else reject(new OAuthRefused(isDenied(request) ? 'denied' : 'no_email'));
      };
      const middleware = this.passport.authenticate(id, { session: false, ...(state ? { state } : {}) }, done) as (
        req: unknown,
        res: unknown,
        next: (error?: unknown) => void,
      ) => void;
      middleware(request, response, (error) =>
        reject(error instanceof OAuthRefused ? error : new OAuthRefused('provider')),
      );
    });
  }

  /**
   * The account of a verified address: logged in when one exists, else created (verified, with no
   * usable password: a password reset gives it one). An address the provider has not verified is
   * refused, so no one gets in with an address they do not own. An existing account not yet
   * verified is claimed: marked verified, its password replaced and its sessions ended, so
   * whoever signed up with the address before cannot keep a way in.
   */
  async accountOf(identity: OAuthIdentity): Promise<User> {
    if (!identity.verified) throw new OAuthRefused('unverified');
    const email = normaliseEmail(identity.email);
    const existing = await this.db.getRepository(User).findOneBy({ email });
    if (existing?.emailVerifiedAt) return existing;
    const unusablePassword = await hashPassword(randomBytes(32).toString('hex'));
    if (existing) {
      await this.db
        .getRepository(User)
        .update(
          { id: existing.id, emailVerifiedAt: IsNull() },
          { emailVerifiedAt: new Date(), passwordHash: unusablePassword, sessionVersion: () => 'session_version + 1' },
        );
      return this.db.getRepository(User).findOneByOrFail({ id: existing.id });
    }
    if (this.settings.DISABLE_SIGNUPS) throw new OAuthRefused('signups_disabled');
    await this.db
      .createQueryBuilder()
      .insert()
      .into(User)
      .values({
        id: newId('usr'),
        email,
        name: identity.name?.slice(0, 200) ?? null,
        passwordHash: unusablePassword,
        sessionVersion: 1,
        emailVerifiedAt: new Date(),
      })
      .orIgnore()
      .execute();
    // a concurrent login of the same address may have created it first: the account is the same
    return this.db.getRepository(User).findOneByOrFail({ email });
  }
}

const isDenied = (request: StrategyRequest): boolean =>
  (request.query as Record<string, unknown> | undefined)?.error === 'access_denied';

import type { Strategy } from 'passport';
import { Strategy as GitHubStrategy } from 'passport-github2';
import { Strategy as GoogleStrategy } from 'passport-google-oauth20';
import type { GatewaySettings } from '../gateway.settings.js';

export const OAUTH_PROVIDER_IDS = ['github', 'google'] as const;
export type OAuthProviderId = (typeof OAUTH_PROVIDER_IDS)[number];

/** What an OAuth login learns about the person: the address the provider vouches for (or not). */
export interface OAuthIdentity {
  email: string;
  /** The provider says the person proved they own the address. */
  verified: boolean;
  name: string | null;
}

interface ProfileEmail {
  value: string;
  verified?: boolean | string;
  primary?: boolean;
}

interface ProviderProfile {
  displayName?: string;
  emails?: ProfileEmail[];
}

/** The providers with both a client id and a secret (ADR 0029): the only ones offered and served. */
export function oauthProviders(settings: GatewaySettings): { id: OAuthProviderId; clientId: string }[] {
  return [
    ...(settings.GITHUB_CLIENT_ID && settings.GITHUB_CLIENT_SECRET
      ? [{ id: 'github' as const, clientId: settings.GITHUB_CLIENT_ID }]
      : []),
    ...(settings.GOOGLE_CLIENT_ID && settings.GOOGLE_CLIENT_SECRET
      ? [{ id: 'google' as const, clientId: settings.GOOGLE_CLIENT_ID }]
      : []),
  ];
}

/**
 * The identity in a provider's profile. GitHub: the primary address of `GET /user/emails` (with
 * its `verified` flag); Google: the userinfo's `email` and `email_verified`. No address: null.
 */
export function identityOf(profile: ProviderProfile): OAuthIdentity | null {
  const emails = profile.emails ?? [];
  const chosen = emails.find((e) => e.primary) ?? (emails.length === 1 ? emails[0] : undefined);
  if (!chosen?.value) return null;
  return {
    email: chosen.value,
    verified: chosen.verified === true || chosen.verified === 'true',
    name: profile.displayName || null,
  };
}

type Verify = (
  accessToken: string,
  refreshToken: string,
  profile: ProviderProfile,
  done: (error: unknown, identity?: OAuthIdentity | false, info?: unknown) => void,
) => void;

const verify: Verify = (_accessToken, _refreshToken, profile, done) => {
  const identity = identityOf(profile);
  if (identity) done(null, identity);
  else done(null, false, { message: 'no email address' });
};

/**
 * The passport strategy of each configured provider, its endpoints from the settings (GitHub or a
 * GitHub Enterprise server; Google, or in tests a loopback stand-in) and its callback under APP_URL.
 */
export function oauthStrategies(settings: GatewaySettings): Map<OAuthProviderId, Strategy> {
  const callbackURL = (id: OAuthProviderId) => new URL(`/auth/oauth/${id}/callback`, settings.APP_URL).toString();
  const strategies = new Map<OAuthProviderId, Strategy>();
  for (const { id } of oauthProviders(settings)) {
    if (id === 'github') {
      const web = settings.GITHUB_URL.replace(/\/+$/, '');
      const api = settings.GITHUB_API_URL.replace(/\/+$/, '');
      strategies.set(
        id,
        new GitHubStrategy(
          {
            clientID: settings.GITHUB_CLIENT_ID!,
            clientSecret: settings.GITHUB_CLIENT_SECRET!,
            callbackURL: callbackURL(id),
            authorizationURL: `${web}/login/oauth/authorize`,
            tokenURL: `${web}/login/oauth/access_token`,
            userProfileURL: `${api}/user`,
            userEmailURL: `${api}/user/emails`,
            scope: ['user:email'],
            // every address with its `primary` and `verified` flags, not only the primary's value
            allRawEmails: true,
          },
          verify,
        ) as Strategy,
      );
    } else {
      const base = settings.GOOGLE_OAUTH_URL?.replace(/\/+$/, '');
      strategies.set(
        id,
        new GoogleStrategy(
          {
            clientID: settings.GOOGLE_CLIENT_ID!,
            clientSecret: settings.GOOGLE_CLIENT_SECRET!,
            callbackURL: callbackURL(id),
            scope: ['openid', 'email', 'profile'],
            ...(base
              ? {
                  authorizationURL: `${base}/o/oauth2/v2/auth`,
                  tokenURL: `${base}/token`,
                  userProfileURL: `${base}/oauth2/v3/userinfo`,
                }
              : {}),
          },
          verify as never,
        ) as Strategy,
      );
    }
  }
  return strategies;
}

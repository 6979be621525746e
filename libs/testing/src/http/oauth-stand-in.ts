import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** Who signs in at the stand-in's consent page, or 'deny': the person refuses consent. */
export interface OAuthPerson {
  email: string;
  /** The provider's own verification of the address (default true). */
  verified?: boolean;
  name?: string;
}

export type OAuthProvider = 'github' | 'google';

export interface OAuthStandIn {
  url: string;
  /** The gateway settings pointing GitHub and Google logins at this stand-in. */
  env: Record<string, string>;
  /** Who the next consents are given by (until changed), or 'deny'. */
  consent: OAuthPerson | 'deny';
  /** The token endpoint answers 503 while true: the provider is down. */
  down: boolean;
  /** Codes exchanged so far, by provider. */
  exchanges: Record<OAuthProvider, number>;
  stop(): Promise<void>;
}

const CLIENTS: Record<OAuthProvider, { id: string; secret: string }> = {
  github: { id: 'github-client-id', secret: 'github-client-secret' },
  google: { id: 'google-client-id.apps.example', secret: 'google-client-secret' },
};

interface Grant {
  provider: OAuthProvider;
  person: OAuthPerson;
  redirectUri: string;
}

/**
 * A loopback OAuth 2.0 provider speaking the authorization-code flow in GitHub's and Google's
 * shapes: the consent page (GitHub `/login/oauth/authorize`, Google `/o/oauth2/v2/auth`) redirects
 * straight back with a code (or `error=access_denied`) and the `state` it got; the token endpoint
 * (`/login/oauth/access_token`, `/token`) checks the client, the code (single use) and the redirect
 * URI; GitHub's API (`/api/user`, `/api/user/emails`) and Google's userinfo (`/oauth2/v3/userinfo`)
 * answer for the token's person.
 */
export async function startOAuthStandIn(): Promise<OAuthStandIn> {
  const codes = new Map<string, Grant>();
  const tokens = new Map<string, Grant>();
  const server = createServer((req, res) => {
    void handle(req, res).catch((error: unknown) => send(res, 500, { error: String(error) }));
  });
  const standIn: OAuthStandIn = {
    url: '',
    env: {},
    consent: { email: 'someone@example.com' },
    down: false,
    exchanges: { github: 0, google: 0 },
    stop: () => new Promise((resolve) => server.close(() => resolve())),
  };

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', standIn.url);
    const route = `${req.method} ${url.pathname}`;
    if (route === 'GET /login/oauth/authorize') return authorize('github', url, res);
    if (route === 'GET /o/oauth2/v2/auth') return authorize('google', url, res);
    if (route === 'POST /login/oauth/access_token') return exchange('github', await form(req), res);
    if (route === 'POST /token') return exchange('google', await form(req), res);
    const grant = tokens.get(bearerOf(req, url) ?? '');
    if (!grant) return send(res, 401, { message: 'Bad credentials' });
    const { person } = grant;
    if (route === 'GET /api/user' && grant.provider === 'github')
      return send(res, 200, { id: 1, login: person.email.split('@')[0], name: person.name ?? null, email: null });
    if (route === 'GET /api/user/emails' && grant.provider === 'github')
      return send(res, 200, [
        { email: `noreply-${person.email}`, primary: false, verified: true, visibility: null },
        { email: person.email, primary: true, verified: person.verified ?? true, visibility: 'private' },
      ]);
    if (route === 'GET /oauth2/v3/userinfo' && grant.provider === 'google')
      return send(res, 200, {
        sub: '1000',
        email: person.email,
        email_verified: person.verified ?? true,
        ...(person.name ? { name: person.name } : {}),
      });
    send(res, 404, { message: 'Not Found' });
  }

  function authorize(provider: OAuthProvider, url: URL, res: ServerResponse): void {
    const redirectUri = url.searchParams.get('redirect_uri');
    if (url.searchParams.get('client_id') !== CLIENTS[provider].id || !redirectUri)
      return send(res, 400, { error: 'invalid_request' });
    const back = new URL(redirectUri);
    const state = url.searchParams.get('state');
    if (state) back.searchParams.set('state', state);
    if (standIn.consent === 'deny') {
      back.searchParams.set('error', 'access_denied');
      back.searchParams.set('error_description', 'The user has denied your application access.');
    } else {
      const code = randomBytes(16).toString('hex');
      codes.set(code, { provider, person: standIn.consent, redirectUri });
      back.searchParams.set('code', code);
    }
    res.writeHead(302, { location: back.toString() }).end();
  }

  function exchange(provider: OAuthProvider, body: URLSearchParams, res: ServerResponse): void {
    if (standIn.down) return send(res, 503, { error: 'temporarily_unavailable' });
    const code = body.get('code') ?? '';
    const grant = codes.get(code);
    codes.delete(code);
    if (body.get('client_id') !== CLIENTS[provider].id || body.get('client_secret') !== CLIENTS[provider].secret)
      return send(res, 401, { error: 'invalid_client' });
    if (!grant || grant.provider !== provider || grant.redirectUri !== body.get('redirect_uri'))
      return send(res, 400, { error: 'invalid_grant' });
    const token = randomBytes(16).toString('hex');
    tokens.set(token, grant);
    standIn.exchanges[provider] += 1;
    send(res, 200, {
      access_token: token,
      token_type: 'bearer',
      scope: provider === 'github' ? 'user:email' : 'email',
    });
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  standIn.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  standIn.env = {
    NODE_ENV: 'test', // GOOGLE_OAUTH_URL is refused in production
    GITHUB_CLIENT_ID: CLIENTS.github.id,
    GITHUB_CLIENT_SECRET: CLIENTS.github.secret,
    GITHUB_URL: standIn.url,
    GITHUB_API_URL: `${standIn.url}/api`,
    GOOGLE_CLIENT_ID: CLIENTS.google.id,
    GOOGLE_CLIENT_SECRET: CLIENTS.google.secret,
    GOOGLE_OAUTH_URL: standIn.url,
  };
  return standIn;
}

function send(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}

async function form(req: IncomingMessage): Promise<URLSearchParams> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
}

function bearerOf(req: IncomingMessage, url: URL): string | null {
  const header = req.headers.authorization;
  const match = header ? /^(?:Bearer|token) (\S+)$/i.exec(header) : null;
  return match?.[1] ?? url.searchParams.get('access_token');
}

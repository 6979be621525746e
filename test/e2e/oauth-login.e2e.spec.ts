import {
  sessionCookie,
  signUp,
  startOAuthStandIn,
  startTopology,
  type OAuthProvider,
  type OAuthStandIn,
  type Topology,
} from '@herald/testing';

/**
 * OAuth login (ADR 0029) through HTTP as a browser follows it, against a loopback GitHub and
 * Google stand-in: Herald → the consent page → back to Herald's callback with the state cookie.
 * Standalone only: the flow lives in the gateway's accounts module, which answers it alone in either
 * mode (no other service, no event, no Redis counter), so a distributed topology of its own would prove
 * nothing more (test/architecture/e2e-both-modes.spec.ts).
 */
describe('OAuth login with GitHub and Google (standalone)', () => {
  let provider: OAuthStandIn;
  let herald: Topology;

  beforeAll(async () => {
    provider = await startOAuthStandIn();
    herald = await startTopology({ mode: 'standalone', env: provider.env });
  }, 600_000);

  afterAll(async () => {
    await herald?.stop();
    await provider?.stop();
  }, 60_000);

  const get = (url: string, cookie?: string) => fetch(url, { redirect: 'manual', headers: cookie ? { cookie } : {} });
  const cookieOf = (res: Response, name: string) =>
    res.headers
      .getSetCookie()
      .find((c) => c.startsWith(`${name}=`))
      ?.split(';', 1)[0];

  /** Starts a login: the consent page's address and the state cookie the browser got. */
  const start = async (id: OAuthProvider) => {
    const res = await get(`${herald.url}/auth/oauth/${id}`);
    expect(res.status).toBe(302);
    return { consentPage: res.headers.get('location')!, stateCookie: cookieOf(res, 'herald_oauth_state')! };
  };
  /** The consent page's answer: the callback address the provider sends the browser back to. */
  const consent = async (consentPage: string) => {
    const res = await get(consentPage);
    expect(res.status).toBe(302);
    return res.headers.get('location')!;
  };
  /** A whole login as the browser does it: the callback's answer. */
  const logIn = async (id: OAuthProvider) => {
    const { consentPage, stateCookie } = await start(id);
    return get(await consent(consentPage), stateCookie);
  };
  const me = async (cookie: string) =>
    (await (await fetch(`${herald.url}/users/@me`, { headers: { cookie } })).json()) as {
      id: string;
      email: string;
      name: string | null;
      emailVerified: boolean;
    };
  const refusedWith = (res: Response, reason: string) => {
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe(`/app/login?oauth_error=${reason}`);
    expect(cookieOf(res, 'herald_session')).toBeUndefined();
  };

  it('lists only the configured providers, and sends a provider that is not configured back to the login page', async () => {
    const config = (await (await fetch(`${herald.url}/auth/oauth-config`)).json()) as { providers: { id: string }[] };
    expect(config.providers.map((p) => p.id)).toEqual(['github', 'google']);
    refusedWith(await get(`${herald.url}/auth/oauth/gitlab`), 'provider');
  });

  it('sends the browser to the consent page with a state bound to it by a short-lived HttpOnly cookie', async () => {
    const { consentPage, stateCookie } = await start('github');
    const url = new URL(consentPage);
    expect(url.origin + url.pathname).toBe(`${provider.url}/login/oauth/authorize`);
    expect(url.searchParams.get('redirect_uri')).toBe(`${herald.url}/auth/oauth/github/callback`);
    expect(stateCookie).toBe(`herald_oauth_state=github.${url.searchParams.get('state')}`);
    const set = (await get(`${herald.url}/auth/oauth/github`)).headers.getSetCookie().join('\n');
    expect(set).toMatch(/HttpOnly/);
    expect(set).toMatch(/Max-Age=600/);
  });

  it('signs up a new user with the address GitHub verified, signed in and sent to the projects screen', async () => {
    provider.consent = { email: 'Nora@Example.com', name: 'Nora North' };
    const res = await logIn('github');
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe('/app/projects');
    expect(await me(sessionCookie(res))).toMatchObject({
      email: 'nora@example.com',
      name: 'Nora North',
      emailVerified: true,
    });
  });

  it('logs an existing account in: the same user through Google as through GitHub', async () => {
    provider.consent = { email: 'olga@example.com' };
    const first = await me(sessionCookie(await logIn('github')));
    const again = await me(sessionCookie(await logIn('google')));
    expect(again.id).toBe(first.id);
  });

  it('claims an unverified password account for the verified address: its old password no longer logs in', async () => {
    const before = await signUp(herald.url, 'pete@example.com', 'pete signed up first');
    provider.consent = { email: 'pete@example.com' };
    const after = await me(sessionCookie(await logIn('google')));
    expect(after).toMatchObject({ id: before.userId, emailVerified: true });
    const login = await fetch(`${herald.url}/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'pete@example.com', password: 'pete signed up first' }),
    });
    expect(login.status).toBe(401);
    expect((await fetch(`${herald.url}/users/@me`, { headers: { cookie: before.cookie } })).status).toBe(401);
  });

  it("refuses a callback whose state is not this browser's, before any code is exchanged", async () => {
    provider.consent = { email: 'quinn@example.com' };
    const exchanged = provider.exchanges.github;
    const mine = await start('github');
    const theirs = await start('github');
    const callback = await consent(theirs.consentPage);
    refusedWith(await get(callback, mine.stateCookie), 'state');
    refusedWith(await get(callback), 'state');
    // nor does the state of this browser's login with another provider
    const google = await start('google');
    const crossed = new URL(callback);
    crossed.searchParams.set('state', new URL(google.consentPage).searchParams.get('state')!);
    refusedWith(await get(crossed.toString(), google.stateCookie), 'state');
    expect(provider.exchanges.github).toBe(exchanged);
  });

  it('sends the browser back to the login page when consent is denied', async () => {
    provider.consent = 'deny';
    refusedWith(await logIn('github'), 'denied');
    refusedWith(await logIn('google'), 'denied');
  });

  it('refuses an address the provider has not verified, and creates no account for it', async () => {
    provider.consent = { email: 'rita@example.com', verified: false };
    refusedWith(await logIn('github'), 'unverified');
    refusedWith(await logIn('google'), 'unverified');
    await expect(signUp(herald.url, 'rita@example.com')).resolves.toMatchObject({ userId: expect.any(String) });
  });

  it('sends the browser back to the login page when the provider is down, never a 500', async () => {
    provider.consent = { email: 'sam@example.com' };
    provider.down = true;
    try {
      refusedWith(await logIn('github'), 'provider');
      refusedWith(await logIn('google'), 'provider');
    } finally {
      provider.down = false;
    }
  });
});

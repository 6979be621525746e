import {
  e2eMode,
  sessionCookie,
  signUp,
  startSmtpSink,
  startTopology,
  type SmtpSink,
  type Topology,
} from '@herald/testing';

/**
 * Login and account-email throttles under concurrency, and sessions that end at logout, in the run's
 * mode (HERALD_E2E_MODE; distributed: the gateway's counters live in Redis). Each test speaks from its
 * own client address (X-Forwarded-For from a trusted loopback proxy), so the per-address counters of
 * one test never spill into another.
 */
describe(`account throttles and session revocation (${e2eMode()})`, () => {
  let smtp: SmtpSink;
  let herald: Topology;
  const from = (address: string) => ({ 'content-type': 'application/json', 'x-forwarded-for': address });
  const post = (path: string, body: unknown, address: string, headers: Record<string, string> = {}) =>
    fetch(`${herald.url}${path}`, {
      method: 'POST',
      headers: { ...from(address), ...headers },
      body: JSON.stringify(body),
    });
  const me = (cookie: string) => fetch(`${herald.url}/users/@me`, { headers: { cookie } });
  const tokenIn = (text: string) => /token=([0-9a-f]{64})/.exec(text)?.[1];
  const expectThrottled = async (res: Response) => {
    expect(res.status).toBe(429);
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe('RATE_LIMIT_EXCEEDED');
  };

  beforeAll(async () => {
    smtp = await startSmtpSink();
    herald = await startTopology({
      env: {
        SMTP_URL: smtp.url,
        APP_URL: 'https://herald.example.test',
        MAIL_FROM: 'Herald <no-reply@herald.example.test>',
        TRUSTED_PROXIES: '127.0.0.1,::1',
      },
    });
  }, 600_000); // a distributed topology of its own: 8 processes spawned at once on a busy machine

  afterAll(async () => {
    await herald?.stop();
    await smtp?.stop();
  }, 60_000);

  it('checks at most 5 of 100 concurrent logins to one account (99 wrong, 1 right); the rest are 429 with Retry-After', async () => {
    await signUp(herald.url, 'race@example.com', 'the right password');
    const attempts = [
      ...Array.from({ length: 99 }, (_, i) => `wrong guess ${i}`),
      'the right password', // last: the guesses are in flight before it
    ].map((password) => post('/auth/login', { email: 'race@example.com', password }, '198.51.100.1'));
    // the time limit is generous: without the reservation all 100 argon2 checks run (minutes on 2 busy cores)
    const answers = await Promise.all(attempts);
    const checked = answers.filter((r) => r.status !== 429);
    expect(checked.length).toBeLessThanOrEqual(5);
    expect(checked.every((r) => r.status === 401 || r.status === 200)).toBe(true);
    for (const r of answers.filter((a) => a.status === 429)) await expectThrottled(r);
  }, 300_000);

  it('a successful login gives its reservation back: the account keeps its full budget of 5 failures', async () => {
    await signUp(herald.url, 'steady@example.com', 'steady password');
    const address = '198.51.100.2';
    expect(
      (await post('/auth/login', { email: 'steady@example.com', password: 'steady password' }, address)).status,
    ).toBe(200);
    for (let i = 0; i < 5; i++)
      expect((await post('/auth/login', { email: 'steady@example.com', password: `guess ${i}` }, address)).status).toBe(
        401,
      );
    await expectThrottled(
      await post('/auth/login', { email: 'steady@example.com', password: 'steady password' }, address),
    );
  });

  it('ends the session at logout: the old cookie gets 401 afterwards', async () => {
    await signUp(herald.url, 'leaving@example.com', 'leaving password');
    const login = await post(
      '/auth/login',
      { email: 'leaving@example.com', password: 'leaving password' },
      '198.51.100.3',
    );
    const cookie = sessionCookie(login);
    expect((await me(cookie)).status).toBe(200);
    const out = await fetch(`${herald.url}/auth/logout`, { headers: { cookie } });
    expect(out.status).toBe(200);
    expect(out.headers.getSetCookie().find((c) => c.startsWith('herald_session='))).toMatch(/Max-Age=0/);
    expect((await me(cookie)).status).toBe(401);
    // a new login works again
    const again = await post(
      '/auth/login',
      { email: 'leaving@example.com', password: 'leaving password' },
      '198.51.100.3',
    );
    expect((await me(sessionCookie(again))).status).toBe(200);
  });

  it('ends every earlier session of the account at a password reset', async () => {
    const { cookie: first } = await signUp(herald.url, 'forgetful@example.com', 'forgotten password');
    const address = '198.51.100.4';
    const second = sessionCookie(
      await post('/auth/login', { email: 'forgetful@example.com', password: 'forgotten password' }, address),
    );
    expect((await post('/auth/request-password-reset', { email: 'forgetful@example.com' }, address)).status).toBe(202);
    const [mail] = await smtp.waitFor((m) => m.to.includes('forgetful@example.com') && /Reset/.test(m.subject ?? ''));
    const token = tokenIn(mail!.text ?? '')!;
    expect((await post('/auth/reset-password', { token, password: 'remembered password' }, address)).status).toBe(200);
    expect([(await me(first)).status, (await me(second)).status]).toEqual([401, 401]);
  });

  it('answers a password-reset request alike whether or not the account exists, and throttles both after 3 per account', async () => {
    await signUp(herald.url, 'known@example.com');
    const address = '198.51.100.5';
    const ask = (email: string) => post('/auth/request-password-reset', { email }, address);
    for (let i = 0; i < 3; i++) {
      const [known, unknown] = [await ask('known@example.com'), await ask('unknown@example.com')];
      expect([known.status, unknown.status]).toEqual([202, 202]);
      expect(await known.json()).toEqual(await unknown.json());
    }
    await expectThrottled(await ask('Known@example.com'));
    await expectThrottled(await ask('unknown@example.com'));
    // another account from another address is not affected
    expect((await post('/auth/request-password-reset', { email: 'other@example.com' }, '198.51.100.6')).status).toBe(
      202,
    );
  });

  it('throttles password-reset requests from one address after 20, whatever the accounts', async () => {
    const address = '198.51.100.7';
    const answers = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        post('/auth/request-password-reset', { email: `n${i}@example.com` }, address),
      ),
    );
    expect(answers.filter((r) => r.status === 202)).toHaveLength(20);
    for (const r of answers.filter((a) => a.status !== 202)) await expectThrottled(r);
  });

  it('throttles verification email requests per account after 3', async () => {
    const { cookie } = await signUp(herald.url, 'unverified@example.com');
    const address = '198.51.100.8';
    for (let i = 0; i < 3; i++)
      expect((await post('/auth/request-verification', {}, address, { cookie })).status).toBe(202);
    await expectThrottled(await post('/auth/request-verification', {}, address, { cookie }));
  });
});

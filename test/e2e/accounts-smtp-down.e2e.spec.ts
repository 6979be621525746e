import { freePort, sessionCookie, startSmtpSink, startTopology, type SmtpSink, type Topology } from '@herald/testing';

/**
 * Sign-up while the SMTP relay is down: the account is kept and the verification email goes out
 * from the gateway's durable job queue once the relay answers again, so the user is never told "500"
 * about an account that exists, nor "409" when they retry. Standalone only: the accounts module and
 * its job queue are the gateway's alone, the same in either mode (accounts.e2e proves sign-up in both;
 * test/architecture/e2e-both-modes.spec.ts).
 */
describe('sign-up with the SMTP relay down (standalone)', () => {
  let smtpPort: number;
  let smtp: SmtpSink | undefined;
  let herald: Topology;
  const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
    fetch(`${herald.url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify(body),
    });

  beforeAll(async () => {
    smtpPort = await freePort(); // nothing listens there yet: the relay is down
    herald = await startTopology({
      mode: 'standalone',
      env: {
        SMTP_URL: `smtp://127.0.0.1:${smtpPort}`,
        APP_URL: 'https://herald.example.test',
        MAIL_FROM: 'Herald <no-reply@herald.example.test>',
      },
    });
  }, 480_000); // migrated and started on a loaded machine: a deadline, not a target

  afterAll(async () => {
    await herald?.stop();
    await smtp?.stop();
  }, 60_000);

  it('keeps the account (201, then 409 on a retry) and sends the verification email once the relay is back', async () => {
    const res = await post('/auth/signup', { email: 'relay-down@example.com', password: 'long enough password' });
    expect(res.status).toBe(201);
    expect(await res.json()).toMatchObject({ email: 'relay-down@example.com', emailVerified: false });
    const cookie = sessionCookie(res);
    const me = await fetch(`${herald.url}/users/@me`, { headers: { cookie } });
    expect(me.status).toBe(200);
    expect((await post('/auth/signup', { email: 'relay-down@example.com', password: 'another password' })).status).toBe(
      409,
    );

    smtp = await startSmtpSink({ port: smtpPort });
    const [mail] = await smtp.waitFor((m) => m.to.includes('relay-down@example.com'), 30_000);
    const token = /token=([0-9a-f]{64})/.exec(mail!.text ?? '')?.[1];
    expect(token).toBeDefined();
    const verified = await post('/auth/verify-email', { token });
    expect(verified.status).toBe(200);
    expect(((await verified.json()) as { emailVerified: boolean }).emailVerified).toBe(true);
  }, 60_000);
});

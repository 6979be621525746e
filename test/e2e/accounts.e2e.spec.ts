import {
  accountWithProject,
  bearer,
  e2eMode,
  eventually,
  freePort,
  ServiceProcess,
  sessionCookie,
  signUp,
  startSmtpSink,
  startTopology,
  type SmtpSink,
  type Topology,
} from '@herald/testing';

/**
 * Accounts, sessions and teams through the public API (account email to a loopback SMTP sink). Runs in
 * the run's mode (HERALD_E2E_MODE: standalone, or every service its own process behind the gateway).
 */
describe(`accounts, sessions and members (${e2eMode()})`, () => {
  let smtp: SmtpSink;
  let herald: Topology;
  const json = { 'content-type': 'application/json' };
  const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
    fetch(`${herald.url}${path}`, { method: 'POST', headers: { ...json, ...headers }, body: JSON.stringify(body) });
  const errorCode = async (res: Response) => ((await res.json()) as { error: { code: string } }).error.code;
  const tokenIn = (text: string) => /token=([0-9a-f]{64})/.exec(text)?.[1];
  /** Verifies the address of an account with the token of its (latest) verification email. */
  const verifyAddress = async (email: string) => {
    const [mail] = await smtp.waitFor((m) => m.to.includes(email) && /Verify/.test(m.subject ?? ''));
    const res = await post('/auth/verify-email', { token: tokenIn(mail!.text ?? '') });
    if (res.status !== 200) throw new Error(`verify-email answered ${res.status}: ${await res.text()}`);
  };

  beforeAll(async () => {
    smtp = await startSmtpSink();
    herald = await startTopology({
      env: {
        SMTP_URL: smtp.url,
        APP_URL: 'https://herald.example.test',
        MAIL_FROM: 'Herald <no-reply@herald.example.test>',
      },
    });
  }, 600_000); // a distributed topology of its own: 8 processes spawned at once on a busy machine

  afterAll(async () => {
    await herald?.stop();
    await smtp?.stop();
  }, 60_000);

  it('signs up with a session cookie that is HttpOnly and SameSite=Lax, and refuses the same email twice', async () => {
    const res = await post('/auth/signup', { email: 'Dana@Example.com', password: 'long enough password' });
    expect(res.status).toBe(201);
    const cookie = res.headers.getSetCookie().find((c) => c.startsWith('herald_session='))!;
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Lax/);
    expect(cookie).not.toMatch(/Secure/); // served over plain http here
    expect(await res.json()).toMatchObject({ email: 'dana@example.com', emailVerified: false });
    const again = await post('/auth/signup', { email: 'dana@EXAMPLE.com', password: 'another password' });
    expect(again.status).toBe(409);
    expect(await errorCode(again)).toBe('EMAIL_ALREADY_REGISTERED');
    expect((await post('/auth/signup', { email: 'not-an-email', password: 'short' })).status).toBe(422);
  });

  it('gives an unknown email and a wrong password the same answer', async () => {
    await signUp(herald.url, 'erin@example.com', 'the right password');
    const wrong = await post('/auth/login', { email: 'erin@example.com', password: 'the wrong password' });
    const unknown = await post('/auth/login', { email: 'nobody@example.com', password: 'the wrong password' });
    expect([wrong.status, unknown.status]).toEqual([401, 401]);
    const [a, b] = [(await wrong.json()) as { error: object }, (await unknown.json()) as { error: object }];
    const strip = (e: object) => ({ ...e, requestId: undefined });
    expect(strip(a.error)).toEqual(strip(b.error));
    const ok = await post('/auth/login', { email: 'ERIN@example.com', password: 'the right password' });
    expect(ok.status).toBe(200);
    const me = await fetch(`${herald.url}/users/@me`, { headers: { cookie: sessionCookie(ok) } });
    expect(((await me.json()) as { email: string }).email).toBe('erin@example.com');
  });

  it('throttles login attempts per account after five failures, even with the right password', async () => {
    await signUp(herald.url, 'frank@example.com', 'franks password');
    for (let i = 0; i < 5; i++)
      expect((await post('/auth/login', { email: 'frank@example.com', password: `guess ${i}` })).status).toBe(401);
    const blocked = await post('/auth/login', { email: 'frank@example.com', password: 'franks password' });
    expect(blocked.status).toBe(429);
    expect(Number(blocked.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await errorCode(blocked)).toBe('RATE_LIMIT_EXCEEDED');
  });

  it('logs out by clearing the cookie', async () => {
    const res = await fetch(`${herald.url}/auth/logout`);
    expect(res.status).toBe(200);
    expect(res.headers.getSetCookie().find((c) => c.startsWith('herald_session='))).toMatch(/Max-Age=0/);
  });

  it('verifies an email with the single-use token from the email it sends', async () => {
    const { cookie } = await signUp(herald.url, 'gina@example.com');
    const [mail] = await smtp.waitFor((m) => m.to.includes('gina@example.com') && /Verify/.test(m.subject ?? ''));
    expect(mail!.text).toContain('https://herald.example.test/app/verify-email?token=');
    const token = tokenIn(mail!.text ?? '')!;
    const res = await post('/auth/verify-email', { token });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { emailVerified: boolean }).emailVerified).toBe(true);
    const reuse = await post('/auth/verify-email', { token });
    expect(reuse.status).toBe(400);
    expect(await errorCode(reuse)).toBe('INVALID_TOKEN');
    expect((await post('/auth/request-verification', {}, { cookie })).status).toBe(202);
    expect((await post('/auth/request-verification', {})).status).toBe(401);
  });

  it('resets a password with an emailed token, ending the sessions issued before', async () => {
    const { cookie } = await signUp(herald.url, 'hugo@example.com', 'old password here');
    expect((await post('/auth/request-password-reset', { email: 'nobody-here@example.com' })).status).toBe(202);
    expect((await post('/auth/request-password-reset', { email: 'Hugo@example.com' })).status).toBe(202);
    const [mail] = await smtp.waitFor((m) => m.to.includes('hugo@example.com') && /Reset/.test(m.subject ?? ''));
    expect(smtp.messages.some((m) => m.to.includes('nobody-here@example.com'))).toBe(false);
    const token = tokenIn(mail!.text ?? '')!;
    expect((await post('/auth/reset-password', { token, password: 'brand new password' })).status).toBe(200);
    expect((await fetch(`${herald.url}/users/@me`, { headers: { cookie } })).status).toBe(401);
    expect((await post('/auth/login', { email: 'hugo@example.com', password: 'old password here' })).status).toBe(401);
    expect((await post('/auth/login', { email: 'hugo@example.com', password: 'brand new password' })).status).toBe(200);
    expect(await errorCode(await post('/auth/reset-password', { token, password: 'yet another one' }))).toBe(
      'INVALID_TOKEN',
    );
  });

  it('keeps at least one OWNER and lets only an OWNER grant OWNER', async () => {
    const owner = await accountWithProject(herald.url, 'iris@example.com');
    const admin = await signUp(herald.url, 'jack@example.com');
    const members = `/projects/${owner.projectId}/members`;
    expect((await post(members, { email: 'jack@example.com', role: 'ADMIN' }, { cookie: owner.cookie })).status).toBe(
      201,
    );
    const twice = await post(members, { email: 'jack@example.com' }, { cookie: owner.cookie });
    expect([twice.status, await errorCode(twice)]).toEqual([409, 'MEMBER_ALREADY_EXISTS']);
    // an address without an account is invited instead (the round trip: 'invites an address without an account…')
    expect((await post(members, { email: 'nobody@example.com' }, { cookie: owner.cookie })).status).toBe(202);
    await signUp(herald.url, 'kim@example.com');
    const grant = await post(members, { email: 'kim@example.com', role: 'OWNER' }, { cookie: admin.cookie });
    expect([grant.status, await errorCode(grant)]).toEqual([403, 'INSUFFICIENT_ROLE']);
    expect((await post(members, { email: 'kim@example.com', role: 'MEMBER' }, { cookie: admin.cookie })).status).toBe(
      201,
    );

    const del = (userId: string, cookie: string) =>
      fetch(`${herald.url}${members}/${userId}`, { method: 'DELETE', headers: { cookie } });
    const lastOwner = await del(owner.userId, owner.cookie);
    expect([lastOwner.status, await errorCode(lastOwner)]).toEqual([409, 'LAST_OWNER']);
    expect((await del(owner.userId, admin.cookie)).status).toBe(403);
    const demote = await fetch(`${herald.url}${members}/${owner.userId}`, {
      method: 'PATCH',
      headers: { ...json, cookie: owner.cookie },
      body: JSON.stringify({ role: 'ADMIN' }),
    });
    expect([demote.status, await errorCode(demote)]).toEqual([409, 'LAST_OWNER']);
    const list = (await (await fetch(`${herald.url}${members}`, { headers: { cookie: admin.cookie } })).json()) as {
      email: string;
      role: string;
    }[];
    expect(list.map((m) => [m.email, m.role])).toEqual([
      ['iris@example.com', 'OWNER'],
      ['jack@example.com', 'ADMIN'],
      ['kim@example.com', 'MEMBER'],
    ]);
  });

  it('invites an address without an account by email: single-use token, accepted once the invitee verified the address, listed until then, revocable', async () => {
    const owner = await accountWithProject(herald.url, 'olga@example.com');
    const members = `/projects/${owner.projectId}/members`;
    const invited = await post(members, { email: 'Pia@Example.com', role: 'ADMIN' }, { cookie: owner.cookie });
    expect(invited.status).toBe(202);
    const invitation = (await invited.json()) as { id: string; email: string; role: string; status: string };
    expect(invitation).toMatchObject({ email: 'pia@example.com', role: 'ADMIN', status: 'pending' });
    const pending = async () =>
      (await (
        await fetch(`${herald.url}/projects/${owner.projectId}/invitations`, { headers: { cookie: owner.cookie } })
      ).json()) as { id: string }[];
    expect((await pending()).map((i) => i.id)).toEqual([invitation.id]);

    const [mail] = await smtp.waitFor((m) => m.to.includes('pia@example.com') && /invited/.test(m.subject ?? ''));
    expect(mail!.text).toContain('https://herald.example.test/app/accept-invitation?token=');
    const token = tokenIn(mail!.text ?? '')!;
    const pia = await signUp(herald.url, 'pia@example.com');
    const accept = (cookie: string) => post('/users/@me/invitations/accept', { token }, { cookie });
    const unverified = await accept(pia.cookie);
    expect([unverified.status, await errorCode(unverified)]).toEqual([403, 'EMAIL_NOT_VERIFIED']);
    await verifyAddress('pia@example.com');
    const accepted = await accept(pia.cookie);
    expect(accepted.status).toBe(200);
    expect(await accepted.json()).toEqual({ projectId: owner.projectId, role: 'ADMIN' });
    const stranger = await signUp(herald.url, 'quinn@example.com');
    const reuse = await accept(stranger.cookie);
    expect([reuse.status, await errorCode(reuse)]).toEqual([400, 'INVALID_INVITATION_TOKEN']);
    const list = (await (await fetch(`${herald.url}${members}`, { headers: { cookie: owner.cookie } })).json()) as {
      email: string;
      role: string;
    }[];
    expect(list.map((m) => [m.email, m.role])).toContainEqual(['pia@example.com', 'ADMIN']);
    expect(await pending()).toEqual([]);

    // a revoked invitation's link stops working
    const second = (await (await post(members, { email: 'rex@example.com' }, { cookie: owner.cookie })).json()) as {
      id: string;
    };
    const [rexMail] = await smtp.waitFor((m) => m.to.includes('rex@example.com'));
    const revoke = await fetch(`${herald.url}/projects/${owner.projectId}/invitations/${second.id}`, {
      method: 'DELETE',
      headers: { cookie: owner.cookie },
    });
    expect(revoke.status).toBe(200);
    const rex = await signUp(herald.url, 'rex@example.com');
    const late = await post(
      '/users/@me/invitations/accept',
      { token: tokenIn(rexMail!.text ?? '')! },
      { cookie: rex.cookie },
    );
    expect([late.status, await errorCode(late)]).toEqual([400, 'INVALID_INVITATION_TOKEN']);
  });

  it('a leaked invitation link is refused to every other account and not spent: the invitee signs up with it, verified and a member', async () => {
    const a = await accountWithProject(herald.url, 'uma@example.com');
    const invited = await post(
      `/projects/${a.projectId}/members`,
      { email: 'invitee@elsewhere.test' },
      { cookie: a.cookie },
    );
    expect(invited.status).toBe(202);
    const [mail] = await smtp.waitFor(
      (m) => m.to.includes('invitee@elsewhere.test') && /invited/.test(m.subject ?? ''),
    );
    const token = tokenIn(mail!.text ?? '')!;

    // the owner of another project, with a verified address, holds the link
    const b = await accountWithProject(herald.url, 'vic@example.com');
    await verifyAddress('vic@example.com');
    const leaked = await post('/users/@me/invitations/accept', { token }, { cookie: b.cookie });
    expect(leaked.status).toBe(403);
    const body = (await leaked.json()) as { error: { code: string; message: string } };
    expect(body.error.code).toBe('INVITATION_EMAIL_MISMATCH');
    expect(body.error.message).not.toContain('invitee@elsewhere.test');
    const projectsOf = (cookie: string) => fetch(`${herald.url}/users/@me/projects`, { headers: { cookie } });
    expect(((await (await projectsOf(b.cookie)).json()) as { id: string }[]).map((p) => p.id)).toEqual([b.projectId]);
    // nor can the link sign up another address
    const otherSignUp = await post('/auth/signup', {
      email: 'wade@example.com',
      password: 'long enough password',
      invitationToken: token,
    });
    expect([otherSignUp.status, await errorCode(otherSignUp)]).toEqual([403, 'INVITATION_EMAIL_MISMATCH']);
    expect((await post('/auth/login', { email: 'wade@example.com', password: 'long enough password' })).status).toBe(
      401,
    );

    // the invitee has no account: signing up with the link creates it verified, a member of A
    const joined = await post('/auth/signup', {
      email: 'Invitee@Elsewhere.test',
      password: 'long enough password',
      invitationToken: token,
    });
    expect(joined.status).toBe(201);
    expect(await joined.json()).toMatchObject({ email: 'invitee@elsewhere.test', emailVerified: true });
    const cookie = sessionCookie(joined);
    expect(
      ((await (await projectsOf(cookie)).json()) as { id: string; role: string }[]).map((p) => [p.id, p.role]),
    ).toEqual([[a.projectId, 'MEMBER']]);
    const spent = await post('/users/@me/invitations/accept', { token }, { cookie });
    expect([spent.status, await errorCode(spent)]).toEqual([400, 'INVALID_INVITATION_TOKEN']);
  });

  it('a non-member learns nothing about a project: 404 PROJECT_NOT_FOUND, as for one that does not exist', async () => {
    const owner = await accountWithProject(herald.url);
    const stranger = await signUp(herald.url, 'lena@example.com');
    for (const projectId of [owner.projectId, 'prj_doesnotexist']) {
      const res = await fetch(`${herald.url}/projects/${projectId}/members`, { headers: { cookie: stranger.cookie } });
      expect([res.status, await errorCode(res)]).toEqual([404, 'PROJECT_NOT_FOUND']);
    }
  });

  it('reports onboarding progress from other services’ events', async () => {
    const p = await accountWithProject(herald.url);
    const state = async () =>
      (await (
        await fetch(`${herald.url}/projects/${p.projectId}/setup-state`, { headers: { cookie: p.cookie } })
      ).json()) as { steps: { id: string; done: boolean }[] };
    expect((await state()).steps.find((s) => s.id === 'add-contact')!.done).toBe(false);
    await post('/v1/track', { email: 'first@example.com', event: 'hello' }, bearer(p.secretKey));
    await eventually(async () => (await state()).steps.find((s) => s.id === 'add-contact')!.done);
  });

  it('wipes the project’s data in every service on reset, and deletes the project and its keys', async () => {
    const p = await accountWithProject(herald.url);
    await post('/v1/track', { email: 'a@example.com', event: 'kept-until-reset' }, bearer(p.secretKey));
    const counts = async () => [
      (
        (await (await fetch(`${herald.url}/events/stats`, { headers: bearer(p.secretKey) })).json()) as {
          total: number;
        }
      ).total,
      (
        (await (await fetch(`${herald.url}/analytics/top-events`, { headers: bearer(p.secretKey) })).json()) as {
          events: unknown[];
        }
      ).events.length,
    ];
    await eventually(async () => (await counts()).join() === '1,1');
    expect((await post(`/users/@me/projects/${p.projectId}/reset`, {}, { cookie: p.cookie })).status).toBe(202);
    await eventually(async () => (await counts()).join() === '0,0', {
      message: 'reset did not reach contacts and analytics',
    });
    expect((await fetch(`${herald.url}/events/stats`, { headers: bearer(p.secretKey) })).status).toBe(200); // keys survive a reset

    const del = await fetch(`${herald.url}/users/@me/projects/${p.projectId}`, {
      method: 'DELETE',
      headers: { cookie: p.cookie },
    });
    expect(del.status).toBe(200);
    expect((await fetch(`${herald.url}/events/stats`, { headers: bearer(p.secretKey) })).status).toBe(401);
    expect(await (await fetch(`${herald.url}/users/@me/projects`, { headers: { cookie: p.cookie } })).json()).toEqual(
      [],
    );
  });

  it('serves /config and /auth/oauth-config without authentication', async () => {
    expect(await (await fetch(`${herald.url}/config`)).json()).toEqual({
      mode: herald.mode,
      signups: true,
      oauth: { providers: [] },
      accountEmail: true,
      rateLimitPerMinute: 1000,
      billing: { enabled: false, provider: null },
    });
    expect(await (await fetch(`${herald.url}/auth/oauth-config`)).json()).toEqual({ providers: [] });
  });

  // a setting of the process that serves the auth routes: one standalone process on this file's database
  // in either mode (a whole second distributed topology would prove nothing more about the setting)
  it('refuses sign-up with a clear error when DISABLE_SIGNUPS is set', async () => {
    const closed = new ServiceProcess('standalone', await freePort(), {
      DATABASE_URL: herald.db.url,
      DISABLE_SIGNUPS: 'true',
    });
    await closed.start({ timeoutMs: 300_000 });
    try {
      const res = await fetch(`${closed.url}/auth/signup`, {
        method: 'POST',
        headers: json,
        body: JSON.stringify({ email: 'late@example.com', password: 'long enough password' }),
      });
      expect(res.status).toBe(403);
      expect(await errorCode(res)).toBe('SIGNUPS_DISABLED');
      expect(((await (await fetch(`${closed.url}/config`)).json()) as { signups: boolean }).signups).toBe(false);
    } finally {
      await closed.stop();
    }
  }, 420_000); // a process start on a busy machine: up to 5 min
});

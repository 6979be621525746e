import type { Browser, Page } from 'playwright-core';
import {
  accountWithProject,
  signUp,
  startOAuthStandIn,
  startSmtpSink,
  startTopology,
  type OAuthStandIn,
  type SmtpSink,
  type Topology,
} from '@herald/testing';
import { checkScreen as check, launchChromium, watchPage } from './harness.js';

/**
 * Screen 1, the account (issue 43), in Chromium against a standalone Herald whose account email
 * goes to a loopback SMTP sink and whose GitHub and Google logins go to a loopback OAuth stand-in:
 * the emailed links opened in the browser, and OAuth login landing on the projects screen.
 */
describe('the dashboard account screens in Chromium (standalone)', () => {
  let herald: Topology;
  let smtp: SmtpSink;
  let provider: OAuthStandIn;
  let browser: Browser;
  let page: Page;
  /** What the page did that it must not (requests to the OAuth stand-in are the flow itself). */
  const trouble: string[] = [];

  beforeAll(async () => {
    [smtp, provider] = await Promise.all([startSmtpSink(), startOAuthStandIn()]);
    [herald, browser] = await Promise.all([
      startTopology({ mode: 'standalone', env: { SMTP_URL: smtp.url, ...provider.env } }),
      launchChromium(),
    ]);
  }, 480_000);

  /** Each test in a browser of its own: no cookie carried over. */
  beforeEach(async () => {
    const context = await browser.newContext({ viewport: { width: 1200, height: 800 } });
    context.setDefaultTimeout(15_000); // a deadline for each wait, not a pause
    page = await context.newPage();
    watchPage(page, new URL(herald.url).origin, trouble);
  });

  afterAll(async () => {
    await browser?.close();
    await herald?.stop();
    await smtp?.stop();
    await provider?.stop();
  }, 60_000);

  afterEach(async () => {
    await page.context().close();
    expect(trouble.filter((t) => !t.startsWith(`request to ${provider.url}/`))).toEqual([]);
    trouble.length = 0;
  });

  async function checkScreen(name: string): Promise<void> {
    expect(await check(page, name)).toEqual({ screen: name, violations: [] });
  }
  /** The dashboard link in the latest email to `email` whose subject matches. */
  const linkIn = async (email: string, subject: RegExp) => {
    const [mail] = await smtp.waitFor((m) => m.to.includes(email) && subject.test(m.subject ?? ''));
    const link = /(http\S+token=[0-9a-f]{64})/.exec(mail!.text ?? '')?.[1];
    if (!link) throw new Error(`no link in: ${mail!.text}`);
    return link;
  };
  const logInStatus = async (email: string, password: string) =>
    (
      await fetch(`${herald.url}/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email, password }),
      })
    ).status;

  it('resets a password from the emailed link: the new password logs in, the old one is refused', async () => {
    const email = 'tess@example.com';
    await signUp(herald.url, email, 'the old password');
    await page.goto(`${herald.url}/app/login`);
    await page.getByRole('link', { name: 'Forgot your password?' }).click();
    await page.waitForURL(/\/app\/forgot-password$/);
    await page.getByLabel('Email').fill(email);
    await page.getByRole('button', { name: 'Send the reset link' }).click();
    await page.getByText('an email with a link to reset its password is on its way').waitFor();
    await checkScreen('forgot-password-sent');

    const link = await linkIn(email, /Reset/);
    expect(link.startsWith(`${herald.url}/app/reset-password?token=`)).toBe(true);
    await page.goto(link);
    await page.getByLabel('New password').fill('short');
    await page.getByRole('button', { name: 'Set the new password' }).click();
    await expect(page.locator('#field-password-error').textContent()).resolves.toMatch(/\S/);
    await checkScreen('reset-password-field-error');
    await page.getByLabel('New password').fill('the brand new password');
    await page.getByRole('button', { name: 'Set the new password' }).click();
    await page.getByText('Your password is changed.').waitFor();

    await page.getByRole('link', { name: 'Log in' }).click();
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill('the brand new password');
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.waitForURL(/\/app\/projects$/);
    expect(await logInStatus(email, 'the old password')).toBe(401);

    // the link is spent: opened again, it says so
    await page.goto(link);
    await page.getByLabel('New password').fill('yet another password');
    await page.getByRole('button', { name: 'Set the new password' }).click();
    await page.getByRole('alert').waitFor();
    await checkScreen('reset-password-spent-link');
  });

  it('verifies the address from the emailed link and says so', async () => {
    const email = 'uma@example.com';
    const { cookie } = await signUp(herald.url, email);
    const link = await linkIn(email, /Verify/);
    expect(link.startsWith(`${herald.url}/app/verify-email?token=`)).toBe(true);
    await page.goto(link);
    await page.getByText(`${email} is verified.`).waitFor();
    await checkScreen('email-verified');
    const me = (await (await fetch(`${herald.url}/users/@me`, { headers: { cookie } })).json()) as {
      emailVerified: boolean;
    };
    expect(me.emailVerified).toBe(true);
  });

  /** Invites `email` to a new project of a new owner: the project's id. */
  const invite = async (email: string) => {
    const owner = await accountWithProject(herald.url);
    const res = await fetch(`${herald.url}/projects/${owner.projectId}/members`, {
      method: 'POST',
      headers: { cookie: owner.cookie, 'content-type': 'application/json' },
      body: JSON.stringify({ email, role: 'ADMIN' }),
    });
    expect(res.status).toBe(202);
    return owner.projectId;
  };

  it('accepts a pending invitation from its link after logging in (an account made since), and opens the project', async () => {
    const email = 'xena@example.com';
    const projectId = await invite(email); // no account yet: invited by email
    const link = await linkIn(email, /invited/);
    // the invitee signs up on their own, then verifies the address (accepting needs it verified)
    await signUp(herald.url, email, 'xenas password');
    await page.goto(await linkIn(email, /Verify/));
    await page.getByText(`${email} is verified.`).waitFor();
    expect(link.startsWith(`${herald.url}/app/accept-invitation?token=`)).toBe(true);
    await page.goto(link);
    await checkScreen('accept-invitation-signed-out');
    await page.getByRole('link', { name: 'Log in to accept' }).click();
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill('xenas password');
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.waitForURL(/\/app\/accept-invitation\?token=/); // back to the invitation, signed in
    await page.getByText(`You are signed in as ${email}`).waitFor();
    await checkScreen('accept-invitation');
    await page.getByRole('button', { name: 'Accept the invitation' }).click();
    await page.waitForURL(`${herald.url}/app/p/${projectId}/contacts`);
  });

  it('signs up from an invitation link signed out: the account joins the project', async () => {
    const email = 'yann@example.com';
    await invite(email);
    await page.goto(await linkIn(email, /invited/));
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill('yanns password');
    await page.getByRole('button', { name: 'Create account and join' }).click();
    await page.waitForURL(/\/app\/projects$/);
    await page.getByRole('link', { name: 'Test project' }).waitFor();
  });

  it('logs in with GitHub through the stand-in and lands on the projects screen', async () => {
    provider.consent = { email: 'vera@example.com', name: 'Vera' };
    await page.goto(`${herald.url}/app/login`);
    await checkScreen('login-with-oauth');
    await page.getByRole('button', { name: 'Continue with GitHub' }).click();
    await page.waitForURL(`${herald.url}/app/projects`);
    await page.getByText('No project yet').waitFor();
    await page.getByText('vera@example.com').waitFor();
    await checkScreen('projects-after-oauth');
  });

  it('comes back to the login page saying why when consent is denied or the address is unverified', async () => {
    provider.consent = 'deny';
    await page.goto(`${herald.url}/app/signup`);
    await page.getByRole('button', { name: 'Continue with Google' }).click();
    await page.waitForURL(/\/app\/login\?oauth_error=denied$/);
    await page.getByRole('alert').getByText('You did not allow Herald').waitFor();
    await checkScreen('login-oauth-denied');
    provider.consent = { email: 'wes@example.com', verified: false };
    await page.getByRole('button', { name: 'Continue with GitHub' }).click();
    await page.waitForURL(/\/app\/login\?oauth_error=unverified$/);
    await page.getByRole('alert').getByText('has not verified your email address').waitFor();
  });
});

import type { APIResponse, Page } from 'playwright-core';
import type { TestDnsServer, Topology } from '@herald/testing';
import { createCampaign } from '../e2e/campaigns-helpers.js';
import { newProject, ProjectApi, type TestProjectApi } from '../e2e/contacts-helpers.js';
import { verifyNow } from '../e2e/sending-helpers.js';
import { checkScreen as check, watchPage } from './harness.js';
import { useDashboardRig } from './rig.js';

/** Evaluated in the page (this file has no DOM types): an element's computed style property. */
const computedStyle = (el: unknown, property: string): string =>
  (globalThis as unknown as { getComputedStyle(e: unknown): Record<string, string> }).getComputedStyle(el)[property]!;

interface Refusal {
  error: { message: string; errors?: { field: string; message: string }[] };
}

/**
 * Issue 43's error paths in Chromium against a standalone Herald: the screens show what the API
 * answers, where it belongs. A wrong password (above the log-in form); a malformed address in the
 * members screen's invite form (on its field); a 403 (an admin demoted while the screen is open
 * tries to regenerate the keys); another project's ids in the URL (its contact, its campaign: the
 * not-found page, nothing of theirs shown). Each refusal is first asked of the API, and the screen
 * must show that very message. axe-core runs on each screen; screenshots go to test-results/dashboard/.
 */
describe('the dashboard shows the API refusals (Chromium, standalone)', () => {
  const rig = useDashboardRig();
  let herald: Topology;
  let dns: TestDnsServer;
  let owner: Page;
  let member: Page;

  const suffix = Date.now().toString(36);
  const ownerEmail = `owner-${suffix}@example.com`;
  const memberEmail = `member-${suffix}@example.com`;
  const password = 'correct horse battery';
  let projectId = '';

  /** A second browser context (its own session), its page watched as the rig's is. */
  async function openPage(): Promise<Page> {
    const context = await rig.browser.newContext({ viewport: { width: 1200, height: 800 } });
    context.setDefaultTimeout(15_000); // a deadline for each wait, not a pause
    const page = await context.newPage();
    watchPage(page, new URL(herald.url).origin, rig.trouble);
    return page;
  }

  async function signUp(email: string): Promise<void> {
    const res = await fetch(`${herald.url}/auth/signup`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password }),
    });
    expect(res.status).toBe(201);
  }

  async function logIn(page: Page, email: string): Promise<void> {
    await page.goto(`${herald.url}/app/login`);
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(password);
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.waitForURL(/\/app\/projects$/);
  }

  async function checkScreen(page: Page, name: string): Promise<void> {
    expect(await check(page, name)).toEqual({ screen: name, violations: [] });
  }

  /** An answer of the API asked with the page's session (its cookie), as the dashboard asks it. */
  async function answer(res: APIResponse): Promise<{ status: number; body: Refusal }> {
    return { status: res.status(), body: (await res.json()) as Refusal };
  }

  beforeAll(async () => {
    ({ herald, dns, page: owner } = rig);
    member = await openPage();
    await Promise.all([signUp(ownerEmail), signUp(memberEmail)]);
  });

  it("a wrong password at log-in shows the API's message above the form", async () => {
    const refused = await fetch(`${herald.url}/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: ownerEmail, password: 'not the password' }),
    });
    expect(refused.status).toBe(401);
    const { error } = (await refused.json()) as Refusal;
    await owner.goto(`${herald.url}/app/login`);
    await owner.getByLabel('Email').fill(ownerEmail);
    await owner.getByLabel('Password').fill('not the password');
    await owner.getByRole('button', { name: 'Log in' }).click();
    await expect(owner.getByRole('alert').textContent()).resolves.toBe(error.message);
    await checkScreen(owner, 'errors-login-wrong-password');
    await logIn(owner, ownerEmail);
  });

  it("the members screen: a malformed invite address and an empty project name show the API's messages on their fields; an invitation pending, then revoked", async () => {
    await owner.getByLabel('Project name').fill('Acme');
    await owner.getByRole('button', { name: 'Create project' }).click();
    await owner.waitForURL(/\/app\/p\/[^/]+\/keys$/);
    projectId = owner.url().split('/')[5]!;
    await owner.getByRole('link', { name: 'Members', exact: true }).click();
    await owner.getByRole('heading', { name: 'Settings and members of Acme' }).waitFor();
    await owner.getByText('No pending invitation').waitFor();
    await checkScreen(owner, 'members-owner');

    const bad = 'not-an-address';
    const refused = await answer(
      await owner.request.post(`${herald.url}/projects/${projectId}/members`, { data: { email: bad } }),
    );
    expect(refused.status).toBe(422);
    const onEmail = refused.body.error.errors?.find((e) => e.field === 'email')?.message;
    expect(onEmail).toBeTruthy();
    await owner.getByLabel('Email address').fill(bad);
    await owner.getByRole('button', { name: 'Invite', exact: true }).click();
    await expect(owner.locator('#field-email-error').textContent()).resolves.toBe(onEmail);
    await expect(owner.locator('#field-email').getAttribute('aria-invalid')).resolves.toBe('true');
    await checkScreen(owner, 'members-invite-field-error');

    // an address without an account is invited (pending, listed) and the invitation revoked
    const newcomer = `newcomer-${suffix}@example.com`;
    await owner.getByLabel('Email address').fill(newcomer);
    await owner.getByRole('button', { name: 'Invite', exact: true }).click();
    await owner.getByText(`Invitation sent to ${newcomer} (member).`).waitFor();
    await owner.locator(`[data-invitation="${newcomer}"]`).waitFor();
    await checkScreen(owner, 'members-invitation-pending');
    await owner.getByRole('button', { name: `Revoke the invitation of ${newcomer}` }).click();
    await owner.getByText('No pending invitation').waitFor();

    // the project's name: an empty one refused on its field, then saved
    const noName = await answer(
      await owner.request.patch(`${herald.url}/users/@me/projects/${projectId}`, { data: { name: '' } }),
    );
    expect(noName.status).toBe(422);
    const onName = noName.body.error.errors?.find((e) => e.field === 'name')?.message;
    expect(onName).toBeTruthy();
    await owner.getByLabel('Project name').fill('');
    await owner.getByRole('button', { name: 'Save settings' }).click();
    await expect(owner.locator('#field-name-error').textContent()).resolves.toBe(onName);
    await owner.getByLabel('Project name').fill('Acme Mail');
    await owner.getByRole('button', { name: 'Save settings' }).click();
    await owner.getByRole('heading', { name: 'Settings and members of Acme Mail' }).waitFor();
    await owner.getByText('Saved', { exact: true }).waitFor();
  });

  it("an admin demoted while the screen is open is refused the keys' rotation: the API's 403 message is shown", async () => {
    // an address with an account joins at once, with the role chosen
    await owner.getByLabel('Email address').fill(memberEmail);
    await owner.getByLabel('Role', { exact: true }).selectOption('ADMIN');
    await owner.getByRole('button', { name: 'Invite', exact: true }).click();
    await owner.getByText(`${memberEmail} joined as admin.`).waitFor();
    await expect(owner.getByLabel(`Role of ${memberEmail}`).inputValue()).resolves.toBe('ADMIN');

    await logIn(member, memberEmail);
    await member.goto(`${herald.url}/app/p/${projectId}/members`);
    await member.locator('[data-my-role="ADMIN"]').waitFor();
    await member.getByRole('button', { name: 'Regenerate keys' }).waitFor();

    // the owner makes them a MEMBER; the member's screen still offers what an ADMIN may do
    await Promise.all([
      owner.waitForResponse((r) => r.request().method() === 'PATCH' && r.url().includes('/members/')),
      owner.getByLabel(`Role of ${memberEmail}`).selectOption('MEMBER'),
    ]);
    await expect(owner.getByLabel(`Role of ${memberEmail}`).inputValue()).resolves.toBe('MEMBER');
    const refused = await answer(
      await member.request.post(`${herald.url}/users/@me/projects/${projectId}/regenerate-keys`),
    );
    expect(refused.status).toBe(403);

    await member.getByRole('button', { name: 'Regenerate keys' }).click();
    await member.getByRole('button', { name: 'Yes, regenerate the keys now' }).click();
    await expect(member.getByRole('alert').textContent()).resolves.toBe(refused.body.error.message);
    await checkScreen(member, 'members-refused-403');

    // read again, the screen follows the role: no settings, no role to change
    await member.reload();
    await member.locator('[data-my-role="MEMBER"]').waitFor();
    await member.getByRole('heading', { name: 'Members', exact: true }).waitFor();
    await expect(member.getByRole('button', { name: 'Regenerate keys' }).count()).resolves.toBe(0);
    await expect(member.getByRole('combobox', { name: `Role of ${ownerEmail}` }).count()).resolves.toBe(0);
    await checkScreen(member, 'members-as-member');
  });

  it("another project's contact and campaign in the URL give the not-found page, nothing of theirs shown", async () => {
    const other: TestProjectApi = await newProject(herald.url);
    const contact = await other.post<{ id: string }>('/contacts', { email: `theirs-${suffix}@example.com` });
    expect(contact.status).toBe(201);
    const domain = `theirs-${suffix}.example.com`;
    await verifyNow(other, dns, domain);
    const campaign = await createCampaign(other, {
      name: `Their secret launch ${suffix}`,
      subject: 'Hello',
      body: '<p>Hi</p>',
      from: `news@${domain}`,
      audienceType: 'ALL',
    });

    // what the API answers the owner's session: their project is not one of ours (403), and their
    // ids inside ours are unknown (404); neither says anything of theirs
    const ask = async (path: string, project: string) =>
      (await owner.request.get(`${herald.url}${path}`, { headers: { 'x-project-id': project } })).status();
    await expect(ask(`/contacts/${contact.body.id}`, other.projectId)).resolves.toBe(403);
    await expect(ask(`/contacts/${contact.body.id}`, projectId)).resolves.toBe(404);
    await expect(ask(`/campaigns/${campaign.id}`, other.projectId)).resolves.toBe(403);
    await expect(ask(`/campaigns/${campaign.id}`, projectId)).resolves.toBe(404);

    const urls = [
      `/app/p/${other.projectId}/contacts/${contact.body.id}`,
      `/app/p/${projectId}/contacts/${contact.body.id}`,
      `/app/p/${other.projectId}/campaigns/${campaign.id}`,
      `/app/p/${projectId}/campaigns/${campaign.id}`,
      `/app/p/${other.projectId}/members`,
    ];
    for (const url of urls) {
      await owner.goto(`${herald.url}${url}`);
      await owner.getByRole('heading', { name: 'Not found' }).waitFor();
      const shown = (await owner.locator('main').textContent()) ?? '';
      expect({ url, shown }).toEqual({ url, shown: expect.not.stringMatching(/theirs-|Their secret launch/) });
    }
    await checkScreen(owner, 'not-found-foreign-campaign');
  });

  it("templates: a Markdown template previewed live for the chosen contact's data, a Liquid error refused on the body, duplicate, usage", async () => {
    const session = { 'x-project-id': projectId };
    for (const contact of [
      { email: 'ada@example.com', data: { name: 'Ada', plan: 'pro' } },
      { email: 'bob@example.com', data: { name: 'Bob' } },
    ]) {
      const added = await owner.request.post(`${herald.url}/contacts`, { headers: session, data: contact });
      expect(added.status()).toBe(201);
    }
    await owner.goto(`${herald.url}/app/p/${projectId}/contacts`);
    await owner.getByRole('link', { name: 'Templates', exact: true }).click();
    await owner.getByText('No template yet').waitFor();
    await checkScreen(owner, 'templates-empty');

    await owner.getByLabel('Template name').fill('Welcome');
    await owner.getByLabel('Format').selectOption('markdown');
    await owner.getByRole('button', { name: 'Create template' }).click();
    await owner.getByRole('heading', { name: 'Welcome', exact: true }).waitFor();
    const templateId = owner.url().split('/').pop()!;
    await owner.getByLabel('Subject').fill('Hi {{ name ?? "there" }}');
    await owner.getByLabel('Body (Markdown)').fill('# Welcome {{ name }}\n\nYour plan: **{{ plan ?? "free" }}**');

    const body = owner.frameLocator('iframe.preview-body');
    await owner.getByLabel('Rendered for').selectOption({ label: 'ada@example.com' });
    await owner.locator('[data-preview-subject]', { hasText: 'Hi Ada' }).waitFor();
    await body.getByRole('heading', { name: 'Welcome Ada' }).waitFor();
    await expect(body.locator('strong').textContent()).resolves.toBe('pro');
    await owner.getByLabel('Rendered for').selectOption({ label: 'bob@example.com' });
    await owner.locator('[data-preview-subject]', { hasText: 'Hi Bob' }).waitFor();
    await expect(body.locator('strong').textContent()).resolves.toBe('free');
    // its inline styles (an attribute, a <style> element) applied in the preview, the page's policy kept
    await owner
      .getByLabel('Body (Markdown)')
      .fill(
        '**{{ plan ?? "free" }}**\n\n<p class="note" style="color: rgb(200, 0, 0)">Red</p>\n\n<style>.note { font-weight: 700 }</style>',
      );
    const note = body.locator('p.note');
    await note.waitFor();
    await expect(note.evaluate(computedStyle, 'color')).resolves.toBe('rgb(200, 0, 0)');
    await expect(note.evaluate(computedStyle, 'fontWeight')).resolves.toBe('700');
    await owner.getByLabel('Body (Markdown)').fill('# Welcome {{ name }}\n\nYour plan: **{{ plan ?? "free" }}**');
    await checkScreen(owner, 'template-editor');

    // a body the renderer cannot parse: the preview says so, and saving shows the API's message on the body
    const broken = 'Hello {{ name';
    const refused = await answer(
      await owner.request.patch(`${herald.url}/templates/${templateId}`, { headers: session, data: { body: broken } }),
    );
    expect(refused.status).toBe(422);
    const onBody = refused.body.error.errors?.find((e) => e.field === 'body')?.message;
    expect(onBody).toBeTruthy();
    await owner.getByLabel('Body (Markdown)').fill(broken);
    await owner.locator('[data-preview-problem]').waitFor();
    await owner.getByRole('button', { name: 'Save template' }).click();
    await expect(owner.locator('#field-body-error').textContent()).resolves.toBe(onBody);
    await checkScreen(owner, 'template-body-error');
    await owner.getByLabel('Body (Markdown)').fill('Your plan: **{{ plan ?? "free" }}**');
    await owner.getByRole('button', { name: 'Save template' }).click();
    await owner.getByText('Saved', { exact: true }).waitFor();
    const saved = await owner.request.get(`${herald.url}/templates/${templateId}`, { headers: session });
    expect(await saved.json()).toMatchObject({ subject: 'Hi {{ name ?? "there" }}', format: 'markdown' });

    // a campaign of the project made from it is listed under "Used by"
    const keys = (await (
      await owner.request.post(`${herald.url}/users/@me/projects/${projectId}/regenerate-keys`)
    ).json()) as { secretKey: string };
    const acme = new ProjectApi(herald.url, keys.secretKey);
    const domain = `acme-${suffix}.example.com`;
    await verifyNow(acme, dns, domain);
    await createCampaign(acme, {
      name: 'Spring welcome',
      templateId,
      subject: 'Spring',
      body: '<p>Spring</p>',
      from: `news@${domain}`,
      audienceType: 'ALL',
    });
    await owner.reload();
    await owner.locator('[data-usage]').getByRole('link', { name: 'Spring welcome' }).waitFor();

    await owner.getByRole('button', { name: 'Duplicate' }).click();
    await owner.waitForURL((u) => /\/templates\/[^/]+$/.test(u.pathname) && !u.pathname.endsWith(templateId));
    await owner.getByText('No campaign or workflow uses this template.').waitFor();
    // the copy deleted (after its confirmation): back to the list, the original alone
    await owner.getByRole('button', { name: 'Delete', exact: true }).click();
    await owner.getByRole('button', { name: 'Yes, delete this template' }).click();
    await owner.waitForURL((u) => u.pathname.endsWith('/templates'));
    await owner.getByRole('link', { name: 'Welcome', exact: true }).waitFor();
    await expect(owner.getByRole('row').count()).resolves.toBe(2); // the header and the original
    await owner.getByRole('link', { name: 'Welcome', exact: true }).click();
    await owner.getByRole('button', { name: 'Duplicate' }).click();
    await owner.waitForURL((u) => /\/templates\/[^/]+$/.test(u.pathname) && !u.pathname.endsWith(templateId));
    await owner.getByRole('link', { name: 'All templates' }).click();
    await owner
      .getByRole('link', { name: /^Welcome/ })
      .nth(1)
      .waitFor();
    await expect(owner.getByRole('row').count()).resolves.toBe(3); // the header and the two templates
    await checkScreen(owner, 'templates');
  });
});

import type { Page } from 'playwright-core';
import type { Topology } from '@herald/testing';
import { useDashboardRig } from './rig.js';

/**
 * The dashboard (apps/dashboard, ADR 0028) in a real Chromium — Debian's `chromium`, driven by
 * playwright-core through its executable path — against a standalone Herald: an account, a project
 * and its keys, a contact added through the API found in the list and on its page; the API's
 * refusals (a wrong password, an invalid field) shown where they belong. axe-core runs on every
 * screen (no serious or critical violation); each screen is saved to test-results/dashboard/.
 * This file sits outside test/e2e, so it runs once (the standalone project), not once per mode.
 */
describe('the dashboard in Chromium (standalone)', () => {
  const rig = useDashboardRig();
  let herald: Topology;
  let page: Page;
  beforeAll(() => ({ herald, page } = rig));
  const checkScreen = rig.screen;

  const email = `owner-${Date.now().toString(36)}@example.com`;
  const password = 'correct horse battery';
  let projectId = '';
  let secretKey = '';

  it('signs up: an invalid field shows the API field error on that field', async () => {
    await page.goto(`${herald.url}/`);
    await page.waitForURL(/\/app\/login$/); // no session: the login page
    await checkScreen('login');
    await page.getByRole('link', { name: /sign up/i }).click();
    await page.waitForURL(/\/app\/signup$/);
    const bad = { email: 'not-an-address', password: 'short' };
    const answer = (await (
      await fetch(`${herald.url}/auth/signup`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(bad),
      })
    ).json()) as { error: { errors: { field: string; message: string }[] } };
    await page.getByLabel('Email').fill(bad.email);
    await page.getByLabel('Password').fill(bad.password);
    await page.getByRole('button', { name: 'Create account' }).click();
    const fieldsRefused = [...new Set(answer.error.errors.map((e) => e.field))];
    expect(fieldsRefused.length).toBeGreaterThan(0);
    for (const field of fieldsRefused) {
      const first = answer.error.errors.find((e) => e.field === field)!.message;
      await expect(page.locator(`#field-${field}-error`).textContent()).resolves.toBe(first);
      await expect(page.locator(`#field-${field}`).getAttribute('aria-invalid')).resolves.toBe('true');
    }
    await checkScreen('signup-field-errors');

    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(password);
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.waitForURL(/\/app\/projects$/);
    await page.getByText('No project yet').waitFor();
    await checkScreen('projects-empty');
  });

  it('creates a project: its keys are shown once, in full', async () => {
    await page.getByLabel('Project name').fill('Acme');
    await page.getByRole('button', { name: 'Create project' }).click();
    await page.waitForURL(/\/app\/p\/[^/]+\/keys$/);
    projectId = page.url().split('/')[5]!;
    secretKey = (await page.locator('code[data-key="secret"]').textContent()) ?? '';
    expect(secretKey).toMatch(/^sk_/);
    await expect(page.locator('code[data-key="public"]').textContent()).resolves.toMatch(/^pk_/);
    await page.getByText('shown only once').waitFor();
    await checkScreen('keys');
  });

  it('switches project: a second project, then back to the first from the switcher', async () => {
    await page.getByRole('link', { name: 'Projects', exact: true }).click();
    await page.getByRole('link', { name: 'Acme' }).waitFor();
    await page.getByLabel('Project name').fill('Beta');
    await page.getByRole('button', { name: 'Create project' }).click();
    await page.waitForURL((u) => /\/keys$/.test(u.pathname) && !u.pathname.includes(projectId));
    await page.getByRole('heading', { name: 'API keys of Beta' }).waitFor();
    await page.getByLabel('Project').selectOption({ label: 'Acme' });
    await page.waitForURL(new RegExp(`/app/p/${projectId}/keys$`));
    await page.getByRole('heading', { name: 'API keys of Acme' }).waitFor();
    // after a reload the key is no longer in memory: only its prefix is shown
    await page.reload();
    await expect(page.locator('code[data-key="secret"]').textContent()).resolves.toMatch(/^sk_.*…$/);
  });

  it('lists a contact added through the API, finds it by search, and shows its page with its data', async () => {
    await page.getByRole('link', { name: 'Contacts' }).click();
    await page.getByText('No contact yet').waitFor();
    await checkScreen('contacts-empty');
    const added = await fetch(`${herald.url}/contacts`, {
      method: 'POST',
      headers: { authorization: `Bearer ${secretKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'ada@example.com', data: { plan: 'pro', seats: 3 } }),
    });
    expect(added.status).toBe(201);
    await page.reload();
    await page.getByRole('link', { name: 'ada@example.com' }).waitFor();
    await checkScreen('contacts');
    await page.getByLabel('Search contacts').fill('nobody-like-this');
    await page.getByRole('button', { name: 'Search' }).click();
    await page.getByText('No contact matches').waitFor();
    await page.getByLabel('Search contacts').fill('ada');
    await page.getByRole('button', { name: 'Search' }).click();
    await page.getByRole('link', { name: 'ada@example.com' }).click();
    await page.getByRole('heading', { name: 'ada@example.com' }).waitFor();
    await expect(page.getByLabel('Value of plan').inputValue()).resolves.toBe('pro');
    await expect(page.getByLabel('Value of seats').inputValue()).resolves.toBe('3');
    await checkScreen('contact');
  });

  it("logs out, then a wrong password shows the API's message; the right one logs in", async () => {
    await page.getByRole('button', { name: 'Log out' }).click();
    await page.waitForURL(/\/app\/login$/);
    const refused = (await (
      await fetch(`${herald.url}/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email, password: 'not the password' }),
      })
    ).json()) as { error: { message: string } };
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill('not the password');
    await page.getByRole('button', { name: 'Log in' }).click();
    await expect(page.getByRole('alert').textContent()).resolves.toBe(refused.error.message);
    await checkScreen('login-wrong-password');
    await page.getByLabel('Password').fill(password);
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.waitForURL(/\/app\/projects$/);
    await page.getByRole('link', { name: 'Acme' }).waitFor();
  });

  it('shows the not-found page for a contact id that is not in the project', async () => {
    await page.goto(`${herald.url}/app/p/${projectId}/contacts/no-such-contact`);
    await page.getByRole('heading', { name: 'Not found' }).waitFor();
    await checkScreen('not-found');
  });
});

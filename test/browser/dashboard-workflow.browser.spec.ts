import type { Page } from 'playwright-core';
import { eventually, type SmtpSink, type TestDnsServer, type Topology } from '@herald/testing';
import { useDashboardRig } from './rig.js';

interface DomainBody {
  id: string;
  status: string;
  records: { name: string; value: string; status?: string }[];
}

/**
 * Issue 43's second scenario in Chromium against a standalone Herald with the SMTP sink: sign up →
 * project → a verified domain → draw a workflow in the UI (trigger event → condition → email) →
 * enable it → `POST /v1/track` with the project's public key → the email arrives at the sink → the
 * execution shows completed in the UI. axe-core and a screenshot on each screen.
 */
describe('the dashboard, drawing a workflow that a tracked event runs (standalone)', () => {
  const rig = useDashboardRig({ viewport: { width: 1200, height: 900 } });
  let herald: Topology;
  let dns: TestDnsServer;
  let smtp: SmtpSink;
  let page: Page;
  beforeAll(() => ({ herald, dns, smtp, page } = rig));
  const screen = rig.screen;
  const seq = Date.now().toString(36);
  const domain = `flows-${seq}.example.test`;
  const reader = `ada-${seq}@example.com`;
  let secretKey = '';
  let publicKey = '';
  const call = (key: string, path: string, init: RequestInit = {}) =>
    fetch(`${herald.url}${path}`, {
      ...init,
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', ...init.headers },
    });

  it('signs up, creates a project, and verifies a sending domain', async () => {
    await page.goto(`${herald.url}/app/signup`);
    await page.getByLabel('Email').fill(`builder-${seq}@example.com`);
    await page.getByLabel('Password').fill('correct horse battery');
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.waitForURL(/\/app\/projects$/);
    await page.getByLabel('Project name').fill('Onboarding');
    await page.getByRole('button', { name: 'Create project' }).click();
    await page.waitForURL(/\/app\/p\/[^/]+\/keys$/);
    secretKey = (await page.locator('code[data-key="secret"]').textContent()) ?? '';
    publicKey = (await page.locator('code[data-key="public"]').textContent()) ?? '';
    expect(secretKey).toMatch(/^sk_/);
    expect(publicKey).toMatch(/^pk_/);
    // the domain through the API (the domains screen has its own scenario): its records published
    // on the loopback DNS server, checked again while a lookup fails on a loaded machine
    const created = (await (
      await call(secretKey, '/domains', { method: 'POST', body: JSON.stringify({ domain }) })
    ).json()) as DomainBody;
    for (const r of created.records) dns.set(r.name, 'TXT', r.value);
    const checked = await eventually(
      async () => {
        const d = (await (await call(secretKey, `/domains/${created.id}/verify`)).json()) as DomainBody;
        return d.records.some((r) => r.status === 'lookup_failed') ? undefined : d;
      },
      { timeoutMs: 30_000, message: `the DNS lookups of ${domain} kept failing` },
    );
    expect(checked.status).toBe('verified');
  });

  it('creates a workflow (an invalid name refused on its field); its page says what the empty graph lacks', async () => {
    await page.getByRole('link', { name: 'Workflows' }).click();
    await page.getByText('No workflow yet').waitFor();
    await screen('workflows-empty');
    await page.getByLabel('Workflow name').fill('x'.repeat(201));
    await page.getByRole('button', { name: 'Create workflow' }).click();
    await page.locator('#field-name-error').waitFor();
    await expect(page.locator('#field-name').getAttribute('aria-invalid')).resolves.toBe('true');
    await page.getByLabel('Workflow name').fill('Welcome');
    await page.getByLabel('Trigger event name').fill('signed-up');
    await page.getByRole('button', { name: 'Create workflow' }).click();
    await page.waitForURL(/\/app\/p\/[^/]+\/workflows\/[^/]+$/);
    await page.getByRole('heading', { name: 'Welcome' }).waitFor();
    await page.locator('[data-problem="WORKFLOW_EMPTY"]').waitFor();
    await expect(page.locator('g[data-node="trigger"]').textContent()).resolves.toContain('signed-up');
    await screen('workflow-new');
  });

  it('draws trigger → condition → email: steps added and configured (the API refusals on their fields), connected by "yes", a node dragged where it stays', async () => {
    // the condition: the contact's address contains example.com
    await page.getByLabel('Step type').selectOption('CONDITION');
    await page.getByRole('button', { name: 'Add condition' }).click();
    await page.locator('[id="config.conditions[0]-field"]').selectOption('email');
    await page.locator('[id="config.conditions[0]-operator"]').selectOption('contains');
    await page.locator('[id="config.conditions[0]-value"]').fill('example.com');
    // without a name: the API's refusal on the step's name field
    await page.getByRole('button', { name: 'Add step' }).click();
    await page.locator('#field-step-name-error').waitFor();
    await expect(page.locator('#field-step-name').getAttribute('aria-invalid')).resolves.toBe('true');
    await page.getByLabel('Step name').fill('Example reader?');
    await page.getByRole('button', { name: 'Add step' }).click();
    await page.locator('g[data-node="Example reader?"]').waitFor();
    await page.locator('[data-problem="STEP_BRANCH_OPEN"]').first().waitFor();

    // the email, written here: an empty subject is the API's refusal on the subject field
    await page.getByRole('button', { name: 'Add another step' }).click();
    await page.getByLabel('Step type').selectOption('SEND_EMAIL');
    await page.getByLabel('Step name').fill('Welcome email');
    await expect(page.locator('#field-from').inputValue()).resolves.toBe(domain);
    await page.getByLabel('Body (HTML, Liquid)').fill('<p>Welcome aboard, {{ email }}.</p>');
    await page.getByRole('button', { name: 'Add step' }).click();
    await page.locator('#field-subject-error').waitFor();
    await expect(page.locator('#field-subject').getAttribute('aria-invalid')).resolves.toBe('true');
    await page.getByLabel('Subject').fill(`Welcome ${seq}`);
    await page.getByRole('button', { name: 'Add step' }).click();
    await page.locator('g[data-node="Welcome email"]').waitFor();
    await page.locator('[data-problem="STEP_UNREACHABLE"]').waitFor();
    await screen('workflow-steps');

    // connected by the condition's "yes": the arrow is drawn with its branch, the email reachable
    await page.getByLabel('From', { exact: true }).selectOption({ label: 'Example reader?' });
    await page.getByLabel('Branch').selectOption('yes');
    await page.getByLabel('To', { exact: true }).selectOption({ label: 'Welcome email' });
    await page.getByRole('button', { name: 'Connect' }).click();
    await page.locator('g[data-edge="Example reader?->Welcome email"][data-branch="yes"]').waitFor();
    await page.locator('[data-problem="STEP_UNREACHABLE"]').waitFor({ state: 'detached' });
    // dragged 260 px right and 20 down: the step keeps the canvas coordinates it was dropped at
    const node = page.locator('g[data-node="Welcome email"]');
    await expect(node.getAttribute('transform')).resolves.toBe('translate(0 110)');
    await node.scrollIntoViewIfNeeded();
    const box = (await node.boundingBox())!;
    await page.mouse.move(box.x + 20, box.y + 20);
    await page.mouse.down();
    await page.mouse.move(box.x + 150, box.y + 30, { steps: 5 });
    await page.mouse.move(box.x + 280, box.y + 40, { steps: 5 });
    await page.mouse.up();
    await page.locator('g[data-node="Welcome email"][transform="translate(260 130)"]').waitFor();
    const workflowId = page.url().split('/').at(-1)!;
    await eventually(
      async () => {
        const w = (await (await call(secretKey, `/workflows/${workflowId}`)).json()) as {
          steps: { name: string; position: unknown }[];
        };
        const p = w.steps.find((s) => s.name === 'Welcome email')?.position as { x: number; y: number } | undefined;
        return p?.x === 260 && p.y === 130 ? true : undefined;
      },
      { message: 'the dragged step was never saved at (260, 130)' },
    );
    // the "no" way stays open (an execution taking it ends there): the API says so
    await expect(page.locator('[data-problem]').allTextContents()).resolves.toEqual([
      expect.stringMatching(/^Example reader\?: .*its no branch/),
    ]);
  });

  it('dry-runs the drawn graph for a contact: shown step by step, the email it would send, nothing sent', async () => {
    await page.getByLabel("Contact's address").fill(reader);
    await page.getByLabel(/^Data of the signed-up event/).fill('{plan:');
    await page.getByRole('button', { name: 'Run dry' }).click();
    await page.locator('[id="field-event.data-error"]').waitFor();
    await page.getByLabel(/^Data of the signed-up event/).fill('{"plan": "pro"}');
    await page.getByRole('button', { name: 'Run dry' }).click();
    await page.locator('[data-dryrun-status="COMPLETED"]').waitFor();
    await expect(page.locator('[data-dryrun-step] [data-outcome]').allTextContents()).resolves.toEqual(['yes', 'sent']);
    await expect(page.locator(`[data-dryrun-email="${reader}"]`).textContent()).resolves.toContain(`Welcome ${seq}`);
    await screen('workflow-dry-run');
  });

  it('enabled, a tracked event runs it: the email arrives at the sink and the execution shows completed', async () => {
    await page.getByRole('button', { name: 'Enable workflow' }).click();
    await page.locator('[data-workflow-enabled="true"]').waitFor();
    await page.getByText('No execution yet').waitFor();
    await screen('workflow-enabled');

    const tracked = await call(publicKey, '/v1/track', {
      method: 'POST',
      body: JSON.stringify({ event: 'signed-up', email: reader }),
    });
    expect(tracked.status).toBeLessThan(300);
    const [mail] = await smtp.waitFor((m) => m.to.includes(reader));
    expect(mail!.subject).toBe(`Welcome ${seq}`);
    expect(mail!.from).toBe(`hello@${domain}`);

    // the page follows the executions while the workflow is enabled: this one appears, then completes
    const row = page.locator(`tr[data-contact="${reader}"]`);
    await row.locator('[data-execution-status="COMPLETED"]').waitFor({ timeout: 60_000 });
    await row.getByRole('button', { name: `Show steps of the execution of ${reader}` }).click();
    const runs = page.locator('table[data-execution-steps] tbody tr');
    await expect(page.locator('[data-step-run="Welcome email"]').waitFor()).resolves.toBeUndefined();
    await expect(runs.locator('.badge').allTextContents()).resolves.toEqual(['done', 'done']);
    await expect(page.locator('[data-step-run="Example reader?"]').textContent()).resolves.toContain('yes');
    await page.locator('g[data-node="Welcome email"][data-status="DONE"]').waitFor();
    await screen('workflow-execution');
    // one email to the reader: the execution's (the dry run before it sent none)
    expect(smtp.messages.filter((m) => m.to.includes(reader))).toHaveLength(1);
  });
});

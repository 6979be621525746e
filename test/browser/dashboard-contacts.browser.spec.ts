import type { Locator, Page } from 'playwright-core';
import { eventually, type TestDnsServer, type Topology } from '@herald/testing';
import { useDashboardRig } from './rig.js';

/**
 * Issue 43's screens 3 and 4 in Chromium against a standalone Herald (loopback DNS, SMTP sink):
 * contacts written through the API → searched and paged → a contact's timeline shows its tracked
 * event and an email → a data field edited, read back at once through the API → two unsubscribed in
 * bulk → the fields list with their types → a segment's preview lists its members with the API's
 * count → a static segment's members pasted and uploaded, listed and one removed. axe-core on each screen.
 */
describe('the dashboard: contacts and segments (standalone)', () => {
  const rig = useDashboardRig();
  let herald: Topology;
  let dns: TestDnsServer;
  let page: Page;
  beforeAll(() => ({ herald, dns, page } = rig));
  const screen = rig.screen;
  const seq = Date.now().toString(36);
  let secretKey = '';
  let adaId = '';
  const asOwner = async <T = unknown>(path: string, method = 'GET', body?: unknown): Promise<T> => {
    const res = await fetch(`${herald.url}${path}`, {
      method,
      headers: { authorization: `Bearer ${secretKey}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (res.status >= 300) throw new Error(`${method} ${path} answered ${res.status}: ${await res.text()}`);
    return (await res.json()) as T;
  };
  /** Clicks `refresh` until `what` shows (an asynchronous projection), within a deadline. */
  const untilShown = (refresh: string, what: Locator) =>
    eventually(
      async () => {
        if ((await what.count()) > 0) return true;
        await page.getByRole('button', { name: refresh }).click();
        await page.locator('p.status').waitFor({ state: 'detached' });
        return (await what.count()) > 0 ? true : undefined;
      },
      { timeoutMs: 60_000, message: `never shown: ${what.toString()}` },
    );

  it('signs up, creates a project, and writes contacts, an event and an email through the API', async () => {
    await page.goto(`${herald.url}/app/signup`);
    await page.getByLabel('Email').fill(`owner-${seq}@example.com`);
    await page.getByLabel('Password').fill('correct horse battery');
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.waitForURL(/\/app\/projects$/);
    await page.getByLabel('Project name').fill('Readers');
    await page.getByRole('button', { name: 'Create project' }).click();
    await page.waitForURL(/\/app\/p\/[^/]+\/keys$/);
    secretKey = (await page.locator('code[data-key="secret"]').textContent()) ?? '';
    expect(secretKey).toMatch(/^sk_/);

    // 30 readers (pro for even seats), two to unsubscribe, and ada with an event and an email
    for (let i = 0; i < 30; i++)
      await asOwner('/contacts', 'POST', {
        email: `reader${String(i).padStart(2, '0')}@example.com`,
        data: { plan: i % 2 === 0 ? 'pro' : 'free', seats: i },
      });
    for (const who of ['bulk-a', 'bulk-b'])
      await asOwner('/contacts', 'POST', { email: `${who}@example.com`, data: { plan: 'trial' } });
    const ada = await asOwner<{ id: string }>('/contacts', 'POST', {
      email: 'ada@example.com',
      data: { plan: 'pro', seats: 3, since: '2026-01-02' },
    });
    adaId = ada.id;
    await asOwner('/v1/track', 'POST', { event: 'signed-up', email: 'ada@example.com', data: { source: 'ad' } });
    const domain = `mail-${seq}.example.test`;
    const created = await asOwner<{ id: string; records: { name: string; value: string }[] }>('/domains', 'POST', {
      domain,
    });
    for (const r of created.records) dns.set(r.name, 'TXT', r.value);
    await eventually(
      async () =>
        (await asOwner<{ status: string }>(`/domains/${created.id}/verify`)).status === 'verified' ? true : undefined,
      { timeoutMs: 30_000, message: 'the domain never verified' },
    );
    await asOwner('/v1/send', 'POST', {
      to: 'ada@example.com',
      from: `hello@${domain}`,
      subject: 'Welcome, Ada',
      body: '<p>Hello</p>',
    });
  });

  it('searches the contacts and pages through them with the cursor', async () => {
    await page.getByRole('link', { name: 'Contacts', exact: true }).click();
    const rows = page.locator('tbody tr[data-contact]');
    await page.getByText('33 contact(s)').waitFor();
    expect(await rows.count()).toBe(25);
    await screen('contacts-list');
    const first = await rows.first().getAttribute('data-contact');
    await page.getByRole('button', { name: 'Next page' }).click();
    await page.locator('tbody tr[data-contact]').nth(7).waitFor();
    expect(await rows.count()).toBe(8);
    expect(await page.getByRole('button', { name: 'Next page' }).isDisabled()).toBe(true);
    await page.getByRole('button', { name: 'Previous page' }).click();
    await page.locator(`tbody tr[data-contact="${first}"]`).waitFor();
    await page.getByLabel('Search contacts').fill('ADA@');
    await page.getByRole('button', { name: 'Search' }).click();
    await page.getByText('1 contact(s)').waitFor();
    await page.getByRole('link', { name: 'ada@example.com' }).click();
    await page.getByRole('heading', { name: 'ada@example.com' }).waitFor();
  });

  it("shows a contact's timeline: its tracked event and its email", async () => {
    await untilShown('Refresh', page.locator('li[data-kind="event"]', { hasText: 'signed-up' }));
    await untilShown('Refresh', page.locator('li[data-kind="email"]', { hasText: 'Welcome, Ada' }));
    await screen('contact-timeline');
  });

  it('edits a data field: a bad number refused on its field, then the value saved and read at once through the API', async () => {
    await page.getByLabel('Value of seats').fill('many');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByText('must be a number').waitFor();
    await expect(page.getByLabel('Value of seats').getAttribute('aria-invalid')).resolves.toBe('true');
    await page.getByLabel('Value of seats').fill('12');
    await page.getByLabel('Value of plan').fill('enterprise');
    await page.getByRole('button', { name: 'Add a field' }).click();
    await page.getByLabel(/^Name of new field/).fill('vip');
    await page.getByLabel('Type of vip').selectOption('boolean');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByText('Saved.').waitFor();
    await screen('contact-edited');
    const read = await asOwner<{ data: Record<string, unknown> }>(`/contacts/${adaId}`);
    // source came with the tracked event's data
    expect(read.data).toEqual({ plan: 'enterprise', seats: 12, since: '2026-01-02', source: 'ad', vip: true });
  });

  it('unsubscribes two contacts in bulk, the job followed to done, then deletes one after a confirmation', async () => {
    await page.getByRole('link', { name: 'All contacts' }).click();
    await page.getByLabel('Search contacts').fill('bulk-');
    await page.getByRole('button', { name: 'Search' }).click();
    await page.getByText('2 contact(s)').waitFor();
    await page.getByLabel('Select bulk-a@example.com').check();
    await page.getByLabel('Select bulk-b@example.com').check();
    await page.getByRole('button', { name: 'Unsubscribe' }).click();
    await page.locator('[data-bulk-status="completed"]', { hasText: '2 changed' }).waitFor();
    await page.locator('tr[data-contact="bulk-b@example.com"] [data-field="subscribed"]', { hasText: 'no' }).waitFor();
    await expect(
      page.locator('tr[data-contact="bulk-a@example.com"] [data-field="subscribed"]').textContent(),
    ).resolves.toBe('no');
    await screen('contacts-bulk');
    const listed = await asOwner<{ data: { email: string; subscribed: boolean }[] }>('/contacts?search=bulk-');
    expect(listed.data.map((c) => c.subscribed)).toEqual([false, false]);
    // deleted in bulk after a confirmation
    await page.getByLabel('Select bulk-a@example.com').check();
    await page.getByRole('button', { name: 'Delete…' }).click();
    await page.getByRole('button', { name: 'Delete 1 contact(s) for good' }).click();
    await page.locator('[data-bulk-status="completed"]', { hasText: 'delete completed: 1 changed' }).waitFor();
    await page.getByText('1 contact(s)').waitFor();
    const left = await asOwner<{ data: { email: string }[] }>('/contacts?search=bulk-');
    expect(left.data.map((c) => c.email)).toEqual(['bulk-b@example.com']);
  });

  it('lists the fields with their types and coverage', async () => {
    await page.getByRole('link', { name: 'Fields', exact: true }).click();
    await page.getByRole('heading', { name: 'Contact fields' }).waitFor();
    const typeOf = (field: string) => page.locator(`tr[data-field="${field}"] [data-type]`).textContent();
    await expect(typeOf('data.plan')).resolves.toBe('string');
    await expect(typeOf('data.seats')).resolves.toBe('number');
    await expect(typeOf('data.since')).resolves.toBe('date');
    await expect(typeOf('data.vip')).resolves.toBe('boolean');
    await expect(page.locator('tr[data-field="data.plan"]').textContent()).resolves.toContain('100%');
    await screen('contact-fields');
  });

  const part = (path: string, what: string) => page.locator(`[id="${path}-${what}"]`);

  it("previews a filter's members as it changes, with the API's count", async () => {
    await page.getByRole('link', { name: 'Segments', exact: true }).click();
    await page.getByText('No segment yet').waitFor();
    await page.getByRole('button', { name: 'Add condition' }).click();
    await part('filters.conditions[0]', 'field').selectOption('data.seats');
    await part('filters.conditions[0]', 'operator').selectOption('greaterThanOrEqual');
    await part('filters.conditions[0]', 'value').fill('26');
    const filters = {
      operator: 'AND',
      conditions: [{ field: 'data.seats', operator: 'greaterThanOrEqual', value: 26 }],
    };
    const counted = await asOwner<{ total: number; preview: { email: string }[] }>('/segments/count', 'POST', {
      filters,
      preview: 10,
    });
    expect(counted.total).toBe(4); // readers 26–29
    await page.locator('p.count[data-counting="false"]', { hasText: `${counted.total} member(s)` }).waitFor();
    const preview = page.locator('[data-preview] li');
    await expect(preview.allTextContents()).resolves.toEqual(counted.preview.map((m) => m.email));
    await screen('segment-preview');
    // the preview follows the filter: ≥ 28 leaves two
    await part('filters.conditions[0]', 'value').fill('28');
    await page.locator('p.count[data-counting="false"]', { hasText: '2 member(s)' }).waitFor();
    await expect(preview.allTextContents()).resolves.toEqual(['reader28@example.com', 'reader29@example.com']);
  });

  it("adds a static segment's members by paste and by a CSV file, lists them, and removes one", async () => {
    await page.getByLabel('Segment name').fill('Hand-picked');
    await page.getByLabel('Segment type').selectOption('STATIC');
    await page.getByRole('button', { name: 'Create and count' }).click();
    await page.getByRole('heading', { name: 'Segment Hand-picked' }).waitFor();
    await page.getByText('No member yet').waitFor();
    await page
      .getByLabel('Paste email addresses')
      .fill('reader01@example.com, reader02@example.com\nnew-one@example.com');
    await page.getByLabel('Create contacts for unknown addresses').check();
    await page.getByRole('button', { name: 'Add pasted addresses' }).click();
    await page.getByText('3 added').waitFor();
    const members = page.locator('[data-members] li');
    await page.locator('[data-member="new-one@example.com"]').waitFor();
    await expect(members.count()).resolves.toBe(3);
    await screen('segment-static-members');
    // a CSV file: its email column
    await page.getByLabel('Or upload a CSV file').setInputFiles({
      name: 'members.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from('name,email\nFour,reader04@example.com\nOne again,reader01@example.com\n'),
    });
    await page.getByText('1 added, 1 already members').waitFor();
    await page.locator('[data-member="reader04@example.com"]').waitFor();
    await page.getByRole('button', { name: 'Remove reader02@example.com' }).click();
    await page.locator('[data-member="reader02@example.com"]').waitFor({ state: 'detached' });
    const segments = await asOwner<{ id: string; name: string }[]>('/segments');
    const id = segments.find((s) => s.name === 'Hand-picked')!.id;
    const listed = await asOwner<{ data: { email: string }[] }>(`/segments/${id}/contacts`);
    expect(listed.data.map((m) => m.email).sort()).toEqual([
      'new-one@example.com',
      'reader01@example.com',
      'reader04@example.com',
    ]);
  });
});

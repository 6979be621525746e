import type { Page } from 'playwright-core';
import { eventually, type SmtpSink, type TestDnsServer, type Topology } from '@herald/testing';
import { useDashboardRig } from './rig.js';

interface DomainBody {
  id: string;
  status: string;
  records: { name: string; value: string; status?: string }[];
}
interface CampaignBody {
  id: string;
  status: string;
  subject: string;
  body: string;
  templateId: string | null;
  scheduledAt: string | null;
}
interface LedgerRow {
  email: string;
  status: string;
  reason: string | null;
}

/**
 * Issue 43's campaigns screen beyond compose and send, in Chromium against a standalone Herald with
 * the SMTP sink: a campaign composed from a template, scheduled in the user's time zone (a past time
 * refused on its field), shown scheduled, cancelled after a confirmation (the API agrees); another
 * sent to a segment holding an unsubscribed contact, its progress followed to done, and its ledger
 * showing the skip reason for that contact and sent for the others, as the API's ledger has them.
 */
describe('the dashboard, scheduling and cancelling a campaign, and reading its ledger (standalone)', () => {
  const rig = useDashboardRig({ viewport: { width: 1200, height: 900 } });
  let herald: Topology;
  let dns: TestDnsServer;
  let smtp: SmtpSink;
  let page: Page;
  beforeAll(() => ({ herald, dns, smtp, page } = rig));
  const screen = rig.screen;
  const seq = Date.now().toString(36);
  const domain = `letters-${seq}.example.test`;
  let projectId = '';
  let secretKey = '';
  const call = async <T>(path: string, init: RequestInit = {}): Promise<T> => {
    const res = await fetch(`${herald.url}${path}`, {
      ...init,
      headers: { authorization: `Bearer ${secretKey}`, 'content-type': 'application/json', ...init.headers },
    });
    if (!res.ok) throw new Error(`${init.method ?? 'GET'} ${path}: ${res.status} ${await res.text()}`);
    return (await res.json()) as T;
  };
  const post = <T>(path: string, body: unknown) => call<T>(path, { method: 'POST', body: JSON.stringify(body) });

  it('signs up, creates a project, and verifies a sending domain', async () => {
    await page.goto(`${herald.url}/app/signup`);
    await page.getByLabel('Email').fill(`writer-${seq}@example.com`);
    await page.getByLabel('Password').fill('correct horse battery');
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.waitForURL(/\/app\/projects$/);
    await page.getByLabel('Project name').fill('Letters');
    await page.getByRole('button', { name: 'Create project' }).click();
    await page.waitForURL(/\/app\/p\/[^/]+\/keys$/);
    projectId = page.url().split('/')[5]!;
    secretKey = (await page.locator('code[data-key="secret"]').textContent()) ?? '';
    expect(secretKey).toMatch(/^sk_/);
    // the domain through the API (the domains screen has its own scenario), checked again while a
    // lookup of the loopback DNS server fails on a loaded machine
    const created = await post<DomainBody>('/domains', { domain });
    for (const r of created.records) dns.set(r.name, 'TXT', r.value);
    const checked = await eventually(
      async () => {
        const d = await call<DomainBody>(`/domains/${created.id}/verify`);
        return d.records.some((r) => r.status === 'lookup_failed') ? undefined : d;
      },
      { timeoutMs: 30_000, message: `the DNS lookups of ${domain} kept failing` },
    );
    expect(checked.status).toBe('verified');
  });

  it('composes a campaign from a template (named by the campaign), schedules it in the user time zone (a past time refused on its field), shows it scheduled, and cancels it after a confirmation', async () => {
    const template = await post<{ id: string }>('/templates', {
      name: 'Autumn letter',
      subject: 'Autumn at {{plan ?? "our"}} place',
      body: '<p>Leaves are falling.</p><p><a href="{{unsubscribeUrl}}">unsubscribe</a></p>',
      from: `letters@${domain}`,
      format: 'html',
    });
    await page.getByRole('link', { name: 'Campaigns' }).click();
    await page.getByText('No campaign yet').waitFor();
    await page.getByLabel('Start from').selectOption({ label: 'Template: Autumn letter' });
    // the template's subject, body and sender fill the form
    await expect(page.getByLabel('Subject').inputValue()).resolves.toBe('Autumn at {{plan ?? "our"}} place');
    await expect(page.getByLabel(/^Body/).inputValue()).resolves.toContain('Leaves are falling.');
    await expect(page.locator('#field-local').inputValue()).resolves.toBe('letters');
    await expect(page.getByLabel('Campaign name').inputValue()).resolves.toBe('Autumn letter');
    await page.getByLabel('Campaign name').fill('Autumn, scheduled');
    await screen('campaign-compose-template');
    await page.getByRole('button', { name: 'Save draft' }).click();
    await page.waitForURL(new RegExp(`/app/p/${projectId}/campaigns/[^/]+$`));
    const campaignId = page.url().split('/').pop()!;
    await page.getByRole('heading', { name: 'Autumn, scheduled' }).waitFor();
    await page.locator(`dd a[data-template="${template.id}"]`, { hasText: 'Autumn letter' }).waitFor();
    const draft = await call<CampaignBody>(`/campaigns/${campaignId}`);
    expect(draft).toMatchObject({
      status: 'DRAFT',
      templateId: template.id,
      subject: 'Autumn at {{plan ?? "our"}} place',
    });

    // the time zone the browser is in is named beside the field
    const zone = await page.evaluate(() => Intl.DateTimeFormat().resolvedOptions().timeZone);
    await page.getByText(`Send at (your time zone, ${zone})`).waitFor();
    // a time in the past: the API's refusal on the field
    await page.getByLabel(/^Send at/).fill('2020-01-02T03:04');
    await page.getByRole('button', { name: 'Schedule', exact: true }).click();
    await page.locator('#field-scheduledFor-error').waitFor();
    await expect(page.locator('#field-scheduledFor').getAttribute('aria-invalid')).resolves.toBe('true');

    // tomorrow at 09:30 where the user is, sent as the instant it is
    const [local, instant] = await page.evaluate(() => {
      const d = new Date();
      d.setDate(d.getDate() + 1);
      d.setHours(9, 30, 0, 0);
      const pad = (n: number) => String(n).padStart(2, '0');
      return [`${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T09:30`, d.toISOString()] as const;
    });
    await page.getByLabel(/^Send at/).fill(local);
    await page.getByRole('button', { name: 'Schedule', exact: true }).click();
    await page.locator('[data-campaign-status="SCHEDULED"]').waitFor();
    await expect(page.locator('[data-scheduled-at]').getAttribute('data-scheduled-at')).resolves.toBe(instant);
    await expect(page.locator('[data-scheduled-at]').textContent()).resolves.toContain(`(${zone})`);
    const scheduled = await call<CampaignBody>(`/campaigns/${campaignId}`);
    expect(scheduled).toMatchObject({ status: 'SCHEDULED', scheduledAt: instant });
    await screen('campaign-scheduled');

    await page.getByRole('button', { name: 'Cancel the campaign' }).click();
    await page.getByRole('button', { name: 'Keep it' }).click(); // a second thought changes nothing
    await page.getByRole('button', { name: 'Cancel the campaign' }).click();
    await page.getByRole('button', { name: 'Yes, cancel the campaign' }).click();
    await page.locator('[data-campaign-status="CANCELLED"]').waitFor();
    expect((await call<CampaignBody>(`/campaigns/${campaignId}`)).status).toBe('CANCELLED');
    await screen('campaign-cancelled');
  });

  it("sends a campaign to a segment holding an unsubscribed contact: progress to done, then the ledger shows that contact skipped as unsubscribed and the others sent, as the API's ledger has them", async () => {
    const readers = [0, 1, 2].map((i) => `reader${i}-${seq}@example.com`);
    const gone = `gone-${seq}@example.com`;
    for (const email of readers) await post('/contacts', { email, subscribed: true });
    await post('/contacts', { email: gone, subscribed: false });
    const segment = await post<{ id: string }>('/segments', { name: 'Everyone, even the gone', type: 'STATIC' });
    await post(`/segments/${segment.id}/members`, { emails: [...readers, gone] });

    await page.getByRole('link', { name: 'All campaigns' }).click();
    await page.locator('.badge.cancelled').waitFor(); // the list: the first campaign, cancelled
    await page.getByLabel('Campaign name').fill('Winter letter');
    await page.getByLabel('Subject').fill('Winter is near');
    await page.getByLabel(/^Body/).fill('<p>Snow.</p><p><a href="{{unsubscribeUrl}}">unsubscribe</a></p>');
    await page.getByLabel('A segment').check();
    await page.getByLabel('Segment', { exact: true }).selectOption({ label: 'Everyone, even the gone' });
    await page.locator('[data-audience-count="4"]').waitFor();
    await page.getByRole('button', { name: 'Save draft' }).click();
    await page.waitForURL(new RegExp(`/app/p/${projectId}/campaigns/[^/]+$`));
    const campaignId = page.url().split('/').pop()!;
    await page.getByRole('heading', { name: 'Winter letter' }).waitFor();
    await page.getByRole('button', { name: 'Send now' }).click();
    await page.getByRole('button', { name: 'Yes, send to the whole audience now' }).click();

    await page.locator('[data-campaign-status="SENT"]').waitFor({ timeout: 60_000 });
    await page.locator('[data-complete="true"]').waitFor();
    await page.locator('[data-progress="3/4"]', { hasText: '3 of 4 sent, 1 skipped' }).waitFor();
    const delivered = await smtp.waitFor({ where: (m) => m.subject === 'Winter is near', count: 3 });
    expect(delivered.flatMap((m) => m.to).sort()).toEqual([...readers].sort());

    const ledger = await call<{ data: LedgerRow[]; total: number }>(`/campaigns/${campaignId}/recipients`);
    expect(ledger.total).toBe(4);
    await page.locator(`[data-ledger-total="${ledger.total}"]`).waitFor();
    const rows = page.locator('tr[data-recipient]');
    const shown = await rows.evaluateAll((trs) =>
      trs.map((tr) => ({
        email: tr.getAttribute('data-recipient'),
        status: tr.getAttribute('data-status'),
        reason: tr.getAttribute('data-reason') || null,
      })),
    );
    expect(shown).toEqual(ledger.data.map((r) => ({ email: r.email, status: r.status, reason: r.reason })));
    expect(shown.find((r) => r.email === gone)).toEqual({ email: gone, status: 'skipped', reason: 'unsubscribed' });
    expect(
      shown
        .filter((r) => r.status === 'sent')
        .map((r) => r.email)
        .sort(),
    ).toEqual([...readers].sort());
    await expect(page.locator(`tr[data-recipient="${gone}"] td`).nth(2).textContent()).resolves.toBe('unsubscribed');
    await screen('campaign-ledger');

    // filtered by status: only the skipped row
    await page.getByLabel('Status', { exact: true }).selectOption('skipped');
    await page.locator('[data-ledger-total="1"]').waitFor();
    await expect(rows.count()).resolves.toBe(1);
    await expect(rows.first().getAttribute('data-recipient')).resolves.toBe(gone);
  });

  it("composes a campaign to the contacts a filter matches (the count shown is the API's), saves the filter with it, and sends it to those contacts only", async () => {
    await page.getByRole('link', { name: 'All campaigns' }).click();
    await page.getByLabel('Campaign name').fill('Readers only');
    await page.getByLabel('Subject').fill('For readers');
    await page.getByLabel(/^Body/).fill('<p>Hello reader.</p><p><a href="{{unsubscribeUrl}}">unsubscribe</a></p>');
    await page.getByLabel('Contacts matching a filter').check();
    await page.getByRole('button', { name: 'Add condition' }).click();
    await page.locator('[id="audienceFilter.conditions[0]-field"]').selectOption('email');
    await page.locator('[id="audienceFilter.conditions[0]-operator"]').selectOption('startsWith');
    await page.locator('[id="audienceFilter.conditions[0]-value"]').fill('reader');
    const audienceFilter = {
      operator: 'AND',
      conditions: [{ field: 'email', operator: 'startsWith', value: 'reader' }],
    };
    const counted = await post<{ total: number }>('/segments/count', { filters: audienceFilter });
    expect(counted.total).toBe(3); // the three readers, not gone-…
    await page.locator(`p.count[data-audience-count="${counted.total}"]`).waitFor();
    await screen('campaign-compose-filter');
    await page.getByRole('button', { name: 'Save draft' }).click();
    await page.waitForURL(new RegExp(`/app/p/${projectId}/campaigns/[^/]+$`));
    const campaignId = page.url().split('/').pop()!;
    await page.locator('dd [data-audience-count="3"]', { hasText: 'matching its filter' }).waitFor();
    expect(await call<{ audienceType: string; audienceFilter: unknown }>(`/campaigns/${campaignId}`)).toMatchObject({
      audienceType: 'FILTERED',
      audienceFilter,
    });
    await page.getByRole('button', { name: 'Send now' }).click();
    await page.getByRole('button', { name: 'Yes, send to the whole audience now' }).click();
    await page.locator('[data-campaign-status="SENT"]').waitFor({ timeout: 60_000 });
    await page.locator('[data-progress="3/3"]').waitFor();
    const delivered = await smtp.waitFor({ where: (m) => m.subject === 'For readers', count: 3 });
    expect(delivered.flatMap((m) => m.to).every((to) => to.startsWith('reader'))).toBe(true);
  });

  it('pages a ledger longer than one page by its cursor: "Show more" lists the rest, in the API\'s order', async () => {
    const more = Array.from({ length: 50 }, (_, i) => `many${String(i).padStart(2, '0')}-${seq}@example.com`);
    for (const email of more) await post('/contacts', { email, subscribed: true });
    await page.getByRole('link', { name: 'All campaigns' }).click();
    await page.getByLabel('Campaign name').fill('Everyone');
    await page.getByLabel('Subject').fill('To everyone');
    await page.getByLabel(/^Body/).fill('<p>All of you.</p><p><a href="{{unsubscribeUrl}}">unsubscribe</a></p>');
    await page.getByRole('button', { name: 'Save draft' }).click();
    await page.waitForURL(new RegExp(`/app/p/${projectId}/campaigns/[^/]+$`));
    const campaignId = page.url().split('/').pop()!;
    await page.getByRole('button', { name: 'Send now' }).click();
    await page.getByRole('button', { name: 'Yes, send to the whole audience now' }).click();
    await page.locator('[data-campaign-status="SENT"]').waitFor({ timeout: 60_000 });
    const pages: LedgerRow[] = [];
    let cursor: string | null = null;
    let total = 0;
    do {
      const answer: { data: LedgerRow[]; cursor: string | null; hasMore: boolean; total: number } = await call(
        `/campaigns/${campaignId}/recipients?limit=50${cursor ? `&cursor=${cursor}` : ''}`,
      );
      if (!cursor) total = answer.total;
      pages.push(...answer.data);
      cursor = answer.hasMore ? answer.cursor : null;
    } while (cursor);
    expect(total).toBeGreaterThan(50); // the 53 subscribed contacts: more than one page
    expect(pages).toHaveLength(total);
    const rows = page.locator('tr[data-recipient]');
    await page.locator(`[data-ledger-total="${total}"]`).waitFor();
    await expect(rows.count()).resolves.toBe(50);
    await page.getByRole('button', { name: 'Show more' }).click();
    await page.getByText(`${total} of ${total} recipient(s) shown`).waitFor();
    await expect(page.getByRole('button', { name: 'Show more' }).count()).resolves.toBe(0);
    const shown = await rows.evaluateAll((trs) =>
      trs.map((tr) => [tr.getAttribute('data-recipient'), tr.getAttribute('data-status')]),
    );
    expect(shown).toEqual(pages.map((r) => [r.email, r.status]));
    await screen('campaign-ledger-paged');
  });

  it("cancels a sending campaign after a confirmation (its mail held by the relay): the API says CANCELLED, and the ledger shown is the API's", async () => {
    const held = [0, 1].map((i) => `held${i}-${seq}@example.com`);
    smtp.reject({ recipient: (a) => a.startsWith('held'), code: 451, message: 'try again later' });
    try {
      for (const email of held) await post('/contacts', { email, subscribed: true });
      await post<{ id: string }>('/segments', { name: 'Held', type: 'STATIC' }).then((s) =>
        post(`/segments/${s.id}/members`, { emails: held }),
      );
      await page.getByRole('link', { name: 'All campaigns' }).click();
      await page.getByLabel('Campaign name').fill('Held back');
      await page.getByLabel('Subject').fill('Never mind');
      await page.getByLabel(/^Body/).fill('<p>Wait.</p><p><a href="{{unsubscribeUrl}}">unsubscribe</a></p>');
      await page.getByLabel('A segment').check();
      await page.getByLabel('Segment', { exact: true }).selectOption({ label: 'Held' });
      await page.locator('[data-audience-count="2"]').waitFor();
      await page.getByRole('button', { name: 'Save draft' }).click();
      await page.waitForURL(new RegExp(`/app/p/${projectId}/campaigns/[^/]+$`));
      const campaignId = page.url().split('/').pop()!;
      await page.getByRole('button', { name: 'Send now' }).click();
      await page.getByRole('button', { name: 'Yes, send to the whole audience now' }).click();
      await page.locator('[data-campaign-status="SENDING"]').waitFor();
      await page.locator('[data-progress="0/2"]').waitFor(); // the audience resolved, nothing sent
      await screen('campaign-sending');
      await page.getByRole('button', { name: 'Cancel the campaign' }).click();
      await page.getByText('The emails not handed over yet will not be sent').waitFor();
      await page.getByRole('button', { name: 'Yes, cancel the campaign' }).click();
      await page.locator('[data-campaign-status="CANCELLED"]').waitFor();
      expect((await call<CampaignBody>(`/campaigns/${campaignId}`)).status).toBe('CANCELLED');
      await page.getByRole('heading', { name: /cancelled: the emails already handed over are on their way/ }).waitFor();
      const ledger = await call<{ data: LedgerRow[]; total: number }>(`/campaigns/${campaignId}/recipients`);
      await page.locator(`[data-ledger-total="${ledger.total}"]`).waitFor();
      const shown = await page
        .locator('tr[data-recipient]')
        .evaluateAll((trs) => trs.map((tr) => [tr.getAttribute('data-recipient'), tr.getAttribute('data-status')]));
      expect(shown.map(([email]) => email)).toEqual(ledger.data.map((r) => r.email));
      expect(ledger.data.every((r) => r.status !== 'sent')).toBe(true);
      await screen('campaign-cancelled-sending');
    } finally {
      smtp.clearRejections();
    }
  });
});

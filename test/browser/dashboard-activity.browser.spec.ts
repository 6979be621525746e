import { createHmac } from 'node:crypto';
import type { Page } from 'playwright-core';
import { eventually, SHARED_TOPOLOGY_ENV, type SmtpSink, type TestDnsServer, type Topology } from '@herald/testing';
import { WebhookReceiver, type ReceivedWebhook } from '../e2e/webhooks-helpers.js';
import { useDashboardRig } from './rig.js';

interface DomainBody {
  id: string;
  status: string;
  records: { name: string; value: string; status?: string }[];
}
interface Feed {
  data: { type: string; contact: { id: string | null } | null }[];
  total: number;
}
interface Series {
  buckets: Record<string, number | string>[];
}
interface Consumption {
  categories: Record<string, { used: number; cap: number | null }>;
}

/**
 * Issue 43, screens 9 and 10 and project billing in Chromium against a standalone Herald with the
 * SMTP sink: events tracked and an email sent through the API → the activity feed shows them and its
 * filters narrow it (a refused range on its field) → the analytics chart's totals are the API's → a
 * webhook endpoint created in the UI for a loopback receiver (no event chosen: refused on the field;
 * its secret shown once signs the deliveries) → a test delivered and in the log → replayed: delivered
 * again → billing's consumption is the API's, a cap refused on its field then saved.
 */
describe('the dashboard: activity, analytics, webhooks and billing (standalone)', () => {
  // the shared settings: webhooks to the loopback receiver (`http://localhost:…`) allowed
  const rig = useDashboardRig({ env: { ...SHARED_TOPOLOGY_ENV }, viewport: { width: 1200, height: 900 } });
  let dns: TestDnsServer;
  let smtp: SmtpSink;
  let herald: Topology;
  let page: Page;
  let receiver: WebhookReceiver;
  const screen = rig.screen;

  beforeAll(async () => {
    ({ dns, smtp, herald, page } = rig);
    receiver = await new WebhookReceiver().start();
  });

  afterAll(async () => {
    await receiver?.stop();
  });

  const seq = Date.now().toString(36);
  const domain = `pulse-${seq}.example.test`;
  const ada = `ada-${seq}@example.com`;
  const bob = `bob-${seq}@example.com`;
  let projectId = '';
  let secretKey = '';
  let publicKey = '';
  let bobId = '';
  const call = (key: string, path: string, init: RequestInit = {}) =>
    fetch(`${herald.url}${path}`, {
      ...init,
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', ...init.headers },
    });
  const TRACKED = 28;
  const json = async <T>(path: string): Promise<T> => {
    const res = await call(secretKey, path);
    if (res.status !== 200) throw new Error(`GET ${path} answered ${res.status}: ${await res.text()}`);
    return (await res.json()) as T;
  };
  /** An account route, with the browser's session cookie. */
  const asUser = async <T>(path: string): Promise<T> =>
    (await (await page.request.get(`${herald.url}${path}`)).json()) as T;

  it('signs up, creates a project with a verified domain; events tracked and an email sent through the API', async () => {
    await page.goto(`${herald.url}/app/signup`);
    await page.getByLabel('Email').fill(`analyst-${seq}@example.com`);
    await page.getByLabel('Password').fill('correct horse battery');
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.waitForURL(/\/app\/projects$/);
    await page.getByLabel('Project name').fill('Pulse');
    await page.getByRole('button', { name: 'Create project' }).click();
    await page.waitForURL(/\/app\/p\/[^/]+\/keys$/);
    projectId = page.url().split('/')[5]!;
    secretKey = (await page.locator('code[data-key="secret"]').textContent()) ?? '';
    publicKey = (await page.locator('code[data-key="public"]').textContent()) ?? '';
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

    // 28 tracked events (more than the feed's page of 25): ada 2, bob 1, ada's 25 page views
    for (const [email, event] of [
      [ada, 'signed_up'],
      [ada, 'plan_upgraded'],
      [bob, 'signed_up'],
      ...Array.from({ length: 25 }, () => [ada, 'page_viewed'] as const),
    ] as const) {
      const res = await call(publicKey, '/v1/track', { method: 'POST', body: JSON.stringify({ email, event }) });
      expect(res.status).toBeLessThan(300);
    }
    const sent = await call(secretKey, '/v1/send', {
      method: 'POST',
      body: JSON.stringify({ to: ada, from: `hello@${domain}`, subject: 'Welcome aboard', body: '<p>Hello</p>' }),
    });
    expect(sent.status).toBe(200);
    await smtp.waitFor((m) => m.to.includes(ada));
    await eventually(
      async () => {
        const f = await json<Feed>('/activity?limit=100');
        const tracked = f.data.filter((i) => i.type === 'event.tracked').length;
        return tracked === TRACKED && f.data.some((i) => i.type === 'email.sent') ? f : undefined;
      },
      { timeoutMs: 30_000, message: 'the feed never showed the 3 events and the send' },
    );
    const bobs = await json<{ data: { id: string; email: string }[] }>(`/contacts?search=${encodeURIComponent(bob)}`);
    bobId = bobs.data.find((c) => c.email === bob)!.id;
  });

  it('shows the feed as the API has it; the type and contact (by address) filters narrow it; an unknown address and a reversed range refused on their fields', async () => {
    const all = await json<Feed>('/activity?limit=25');
    await page.getByRole('link', { name: 'Activity' }).click();
    await page.locator(`section[data-activity-total="${all.total}"]`).waitFor();
    expect(await page.locator('tr[data-activity-type]').count()).toBe(all.data.length);
    await page.getByText('Nothing scheduled').waitFor();
    await screen('activity');

    await page.getByLabel('Type', { exact: true }).selectOption('event.tracked');
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await page.locator(`section[data-activity-total="${TRACKED}"]`).waitFor();
    const types = () =>
      page
        .locator('tr[data-activity-type]')
        .evaluateAll((rows) => rows.map((r) => r.getAttribute('data-activity-type')));
    await expect(types()).resolves.toEqual(Array(25).fill('event.tracked'));
    // the next page through the cursor, appended
    await page.getByRole('button', { name: 'Show more' }).click();
    await page
      .locator('tr[data-activity-type]')
      .nth(TRACKED - 1)
      .waitFor();
    await expect(types()).resolves.toEqual(Array(TRACKED).fill('event.tracked'));
    await expect(page.getByRole('button', { name: 'Show more' }).count()).resolves.toBe(0);

    await page.getByLabel('Contact (address or id)').fill(`nobody-${seq}@example.com`);
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await expect(page.locator('#field-contactId-error').textContent()).resolves.toContain('No contact has the address');
    await page.getByLabel('Contact (address or id)').fill(bob);
    await page.getByRole('button', { name: 'Apply filters' }).click();
    const narrowed = await json<Feed>(`/activity?type=event.tracked&contactId=${bobId}`);
    expect(narrowed.total).toBe(1);
    await page.locator('section[data-activity-total="1"]').waitFor();
    await expect(page.locator('tr[data-activity-type]').textContent()).resolves.toContain(bob);
    await screen('activity-filtered');

    await page.getByLabel('From', { exact: true }).fill('2030-01-02T10:00');
    await page.getByLabel('To', { exact: true }).fill('2030-01-01T10:00');
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await page.locator('#activity-from-error').waitFor();
    await expect(page.locator('#activity-from').getAttribute('aria-invalid')).resolves.toBe('true');
    await page.getByRole('button', { name: 'Clear' }).click();
    await page.locator(`section[data-activity-total]`).waitFor();
  });

  it('charts the sends over time with the API’s numbers', async () => {
    const tz = await page.evaluate(() => Intl.DateTimeFormat().resolvedOptions().timeZone);
    const sum = (s: Series, m: string) => s.buckets.reduce((n, b) => n + Number(b[m] ?? 0), 0);
    const series = await eventually(
      async () => {
        const s = await json<Series>(`/analytics/timeseries?metrics=sent,delivered&interval=day&tz=${tz}`);
        return sum(s, 'sent') >= 1 ? s : undefined;
      },
      { timeoutMs: 30_000, message: 'the time series never counted the send' },
    );
    await page.getByRole('link', { name: 'Analytics' }).click();
    await expect(page.locator('dd[data-total="sent"]').textContent()).resolves.toBe(String(sum(series, 'sent')));
    expect(sum(series, 'sent')).toBe(1);
    await page.locator('g[data-series="sent"] circle').first().waitFor();
    await page.getByText('No campaign has been sent yet').waitFor();
    await screen('analytics');
  });

  it('creates a webhook endpoint (no event: refused on the field), its secret shown once; test delivered and logged; replay delivers again; the secret rotated signs the next; disabled, deleted', async () => {
    await page.getByRole('link', { name: 'Webhooks' }).click();
    await page.getByText('No endpoint yet').waitFor();
    await screen('webhooks-empty');
    const url = receiver.url(`/dash-${seq}`);
    await page.getByLabel('URL').fill(url);
    await page.getByRole('button', { name: 'Add endpoint' }).click();
    await page.locator('#field-eventTypes-error').waitFor();
    await page.getByLabel('email.sent').check();
    await page.getByLabel('contact.created').check();
    await page.getByRole('button', { name: 'Add endpoint' }).click();
    const secret = (await page.locator('code[data-secret]').textContent())!;
    expect(secret).toMatch(/^whsec_/);
    const card = page.locator('section[data-endpoint]');
    await card.waitFor();
    const listed = await json<{ data: { id: string; url: string; eventTypes: string[]; enabled: boolean }[] }>(
      '/webhooks/endpoints',
    );
    expect(listed.data).toEqual([
      expect.objectContaining({ url, eventTypes: ['email.sent', 'contact.created'], enabled: true }),
    ]);
    const endpointId = listed.data[0]!.id;

    await card.getByRole('button', { name: 'Deliveries' }).click();
    await card.getByText('No delivery yet').waitFor();
    await card.getByRole('button', { name: 'Send a test event' }).click();
    await card.locator('tr[data-delivery][data-status="delivered"]').waitFor();
    const [first] = await eventually(async () =>
      receiver.at(`/dash-${seq}`).length >= 1 ? receiver.at(`/dash-${seq}`) : undefined,
    );
    const id = first!.headers['webhook-id'] as string;
    // the secret shown once signs what the receiver got (Standard Webhooks: id.timestamp.body)
    const signature = (r: ReceivedWebhook, key: string) =>
      `v1,${createHmac('sha256', Buffer.from(key.slice('whsec_'.length), 'base64'))
        .update(`${r.headers['webhook-id'] as string}.${r.headers['webhook-timestamp'] as string}.${r.body}`)
        .digest('base64')}`;
    expect((first!.headers['webhook-signature'] as string).split(' ')).toContain(signature(first!, secret));
    await expect(card.locator('tr[data-delivery] code').textContent()).resolves.toBe(id);
    await screen('webhooks-delivered');

    await card.getByRole('button', { name: /^Replay / }).click();
    await eventually(async () => (receiver.at(`/dash-${seq}`).length === 2 ? true : undefined), {
      timeoutMs: 15_000,
      message: 'the replay never reached the receiver',
    });
    expect(receiver.ids(`/dash-${seq}`)).toEqual(new Set([id]));
    await card.getByRole('button', { name: 'Refresh' }).click();
    await card.locator('tr[data-delivery][data-status="delivered"]').waitFor();
    const log = await json<{ data: { status: string }[] }>(`/webhooks/endpoints/${endpointId}/deliveries`);
    expect(log.data.map((d) => d.status)).toEqual(['delivered']);

    // a new secret, shown once; the next delivery is signed with it (the old one beside it)
    await card.getByRole('button', { name: 'Rotate secret' }).click();
    await card.getByRole('button', { name: /^Yes, a new secret/ }).click();
    await page.locator(`code[data-secret]:not(:text-is("${secret}"))`).waitFor();
    const rotated = (await page.locator('code[data-secret]').textContent())!;
    expect(rotated).toMatch(/^whsec_/);
    await card.getByRole('button', { name: 'Send a test event' }).click();
    const third = await eventually(async () => receiver.at(`/dash-${seq}`)[2]);
    expect((third.headers['webhook-signature'] as string).split(' ')).toEqual(
      expect.arrayContaining([signature(third, rotated), signature(third, secret)]),
    );

    await card.getByRole('button', { name: 'Disable' }).click();
    await page.locator('section[data-endpoint][data-enabled="false"]').waitFor();
    await expect(json<{ enabled: boolean }>(`/webhooks/endpoints/${endpointId}`)).resolves.toMatchObject({
      enabled: false,
    });
    await card.getByRole('button', { name: 'Delete' }).click();
    await card.getByRole('button', { name: 'Yes, delete this endpoint' }).click();
    await page.getByText('No endpoint yet').waitFor();
    await expect(json<{ data: unknown[] }>('/webhooks/endpoints')).resolves.toMatchObject({ data: [] });
  });

  it('shows the consumption the API counts; a cap refused on its field, then saved; the sending reputation', async () => {
    const usage = await eventually(
      async () => {
        const u = await asUser<Consumption>(`/users/@me/projects/${projectId}/billing-consumption`);
        // metered as they happened: the send, the tracked events, the two contacts
        const c = u.categories;
        return c.transactional!.used >= 1 && c.events!.used >= TRACKED && c.contacts!.used >= 2 ? u : undefined;
      },
      { timeoutMs: 30_000, message: 'the send, the events and the contacts were never all metered' },
    );
    await page.getByRole('link', { name: 'Billing' }).click();
    for (const key of ['transactional', 'campaign', 'workflow', 'events', 'contacts'])
      await expect(page.locator(`tr[data-category="${key}"] td[data-field="used"]`).textContent()).resolves.toBe(
        String(usage.categories[key]!.used),
      );
    expect([
      usage.categories.transactional!.used,
      usage.categories.events!.used,
      usage.categories.contacts!.used,
    ]).toEqual([1, TRACKED, 2]);
    await page.locator('[data-security-status="active"]').waitFor();
    await expect(page.locator('tr[data-window="last7Days"] td[data-field="sends"]').textContent()).resolves.toBe(
      String(
        (await asUser<{ rates: { last7Days: { sends: number } } }>(`/users/@me/projects/${projectId}/security`)).rates
          .last7Days.sends,
      ),
    );
    await screen('billing');

    await page.getByLabel('Transactional cap').fill('12.5');
    await page.getByRole('button', { name: 'Save caps' }).click();
    await page.locator('#field-transactional-error').waitFor();
    await page.getByLabel('Transactional cap').fill('1000');
    await page.getByRole('button', { name: 'Save caps' }).click();
    await page.getByText('Caps saved.').waitFor();
    await expect(asUser(`/users/@me/projects/${projectId}/billing-limits`)).resolves.toMatchObject({
      transactional: 1000,
      campaign: null,
      workflow: null,
    });
    await expect(page.locator('tr[data-category="transactional"] td[data-field="cap"]').textContent()).resolves.toBe(
      '1000',
    );
  });
});

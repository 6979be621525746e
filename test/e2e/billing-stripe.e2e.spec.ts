import { signUp, startTopology, type Topology } from '@herald/testing';
import Stripe from 'stripe';
import { newProject, type ErrorBody, type Json, type Reply, type TestProjectApi } from './contacts-helpers.js';
import { StripeStandIn } from './stripe-stand-in.js';

const WEBHOOK_SECRET = 'whsec_e2e_billing_0123456789abcdef';

/** A subscription event as Stripe delivers it (API 2025+: the current period is on the item). */
function subscriptionEvent(
  id: string,
  type: string,
  s: { customer: string; price: string; status?: string; start: number; end: number },
): string {
  return JSON.stringify({
    id,
    object: 'event',
    type,
    created: s.start,
    data: {
      object: {
        id: 'sub_e2e_1',
        object: 'subscription',
        customer: s.customer,
        status: s.status ?? 'active',
        metadata: {},
        items: {
          object: 'list',
          data: [
            {
              id: 'si_1',
              object: 'subscription_item',
              price: { id: s.price, object: 'price' },
              current_period_start: s.start,
              current_period_end: s.end,
            },
          ],
        },
      },
    },
  });
}

/**
 * Stripe through its official Node SDK, pointed at a loopback stand-in for the REST calls, with real
 * webhook signatures (the SDK's own test-header helper): checkout, portal, invoices, and the webhook
 * applying a subscription once per event id (issue 25; docs/billing.md). Standalone only: the
 * gateway's billing module serves these routes and the webhook itself, the same in either mode;
 * billing.e2e proves caps and consumption across services in both modes
 * (test/architecture/e2e-both-modes.spec.ts).
 */
describe('billing through Stripe (standalone, SDK against a loopback stand-in)', () => {
  let stripe: StripeStandIn;
  let herald: Topology;

  const session = async (cookie: string, method: string, path: string, body?: unknown): Promise<Reply> => {
    const res = await fetch(`${herald.url}${path}`, {
      method,
      headers: { cookie, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status, body: text ? (JSON.parse(text) as Json) : undefined };
  };

  const webhook = (payload: string, signature?: string) =>
    fetch(`${herald.url}/webhooks/incoming/stripe`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'stripe-signature': signature ?? Stripe.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET }),
      },
      body: payload,
    });

  beforeAll(async () => {
    stripe = await new StripeStandIn().start();
    herald = await startTopology({
      mode: 'standalone',
      env: {
        RATE_LIMIT_PER_MINUTE: '100000',
        STRIPE_SECRET_KEY: 'sk_test_e2e_0123456789',
        STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
        STRIPE_PRICES: 'price_basic=1000/5000/-,price_pro=-/-/-',
        NODE_ENV: 'test', // STRIPE_API_URL is refused in production
        STRIPE_API_URL: stripe.url,
      },
    });
  }, 360_000);

  afterAll(async () => {
    await herald?.stop();
    await stripe?.stop();
  }, 60_000);

  it('/config shows billing enabled through Stripe', async () => {
    const config = (await (await fetch(`${herald.url}/config`)).json()) as { billing: unknown };
    expect(config.billing).toEqual({ enabled: true, provider: 'stripe' });
  });

  it('checkout creates the project’s customer once and a subscription session; the portal and invoices use that customer; a MEMBER may not open them', async () => {
    const api: TestProjectApi = await newProject(herald.url);
    const base = `/users/@me/projects/${api.projectId}`;
    expect((await session(api.cookie, 'GET', `${base}/billing-invoices`)).body).toEqual({ data: [] });
    const noCustomer = await session(api.cookie, 'POST', `${base}/billing-portal`);
    expect([noCustomer.status, (noCustomer.body as ErrorBody).error.code]).toEqual([404, 'BILLING_CUSTOMER_NOT_FOUND']);

    const first = await session(api.cookie, 'POST', `${base}/checkout`, {});
    expect(first.status).toBe(200);
    expect(first.body.url).toMatch(/^https:\/\/checkout\.stripe\.test\/c\/cs_test_/);
    const second = await session(api.cookie, 'POST', `${base}/checkout`, { priceId: 'price_pro' });
    expect(second.status).toBe(200);
    const customers = stripe
      .calls('POST', '/v1/customers')
      .filter((r) => r.form.get('metadata[projectId]') === api.projectId);
    expect(customers).toHaveLength(1);
    expect(customers[0]!.authorization).toBe('Bearer sk_test_e2e_0123456789');
    const sessions = stripe.calls('POST', '/v1/checkout/sessions').slice(-2);
    expect(
      sessions.map((r) => [r.form.get('mode'), r.form.get('line_items[0][price]'), r.form.get('client_reference_id')]),
    ).toEqual([
      ['subscription', 'price_basic', api.projectId],
      ['subscription', 'price_pro', api.projectId],
    ]);
    const customerId = sessions[0]!.form.get('customer');
    expect(sessions[1]!.form.get('customer')).toBe(customerId);
    const unknown = await session(api.cookie, 'POST', `${base}/checkout`, { priceId: 'price_nope' });
    expect(unknown.status).toBe(422);

    const portal = await session(api.cookie, 'POST', `${base}/billing-portal`);
    expect(portal.status).toBe(200);
    expect(portal.body.url).toMatch(/^https:\/\/billing\.stripe\.test\//);
    expect(stripe.calls('POST', '/v1/billing_portal/sessions').at(-1)!.form.get('customer')).toBe(customerId);

    const invoices = await session(api.cookie, 'GET', `${base}/billing-invoices`);
    expect(invoices.body.data).toEqual([
      expect.objectContaining({ id: 'in_1', number: 'HRLD-0001', status: 'paid', amountPaid: 1900, currency: 'eur' }),
    ]);
    expect(stripe.calls('GET', '/v1/invoices').at(-1)!.query.get('customer')).toBe(customerId);

    const memberEmail = `member-${Date.now()}@example.com`;
    const memberSession = await signUp(herald.url, memberEmail);
    expect(
      (await session(api.cookie, 'POST', `/projects/${api.projectId}/members`, { email: memberEmail })).status,
    ).toBe(201);
    for (const path of ['checkout', 'billing-portal']) {
      const denied = await session(memberSession.cookie, 'POST', `${base}/${path}`, {});
      expect([denied.status, (denied.body as ErrorBody).error.code]).toEqual([403, 'INSUFFICIENT_ROLE']);
    }
  });

  it('the webhook refuses a bad signature, and applies a subscription (plan → caps, provider period) once when delivered twice', async () => {
    const api: TestProjectApi = await newProject(herald.url);
    const base = `/users/@me/projects/${api.projectId}`;
    expect((await session(api.cookie, 'POST', `${base}/checkout`, {})).status).toBe(200);
    const customer = stripe.calls('POST', '/v1/checkout/sessions').at(-1)!.form.get('customer')!;
    const start = Math.floor(Date.now() / 1000) - 86_400;
    const end = start + 30 * 86_400;
    const payload = subscriptionEvent(`evt_${api.projectId}`, 'customer.subscription.created', {
      customer,
      price: 'price_basic',
      start,
      end,
    });

    const forged = await webhook(payload, Stripe.webhooks.generateTestHeaderString({ payload, secret: 'whsec_wrong' }));
    expect([forged.status, ((await forged.json()) as ErrorBody).error.code]).toEqual([
      400,
      'INVALID_WEBHOOK_SIGNATURE',
    ]);
    const tampered = await webhook(
      payload.replace('price_basic', 'price_pro'),
      Stripe.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET }),
    );
    expect(tampered.status).toBe(400);
    expect((await session(api.cookie, 'GET', `${base}/billing-limits`)).body).toMatchObject({ transactional: null });

    const applied = await webhook(payload);
    expect([applied.status, await applied.json()]).toEqual([200, { received: true, duplicate: false }]);
    expect((await session(api.cookie, 'GET', `${base}/billing-limits`)).body).toMatchObject({
      transactional: 1000,
      campaign: 5000,
      workflow: null,
    });
    const consumption = (await session(api.cookie, 'GET', `${base}/billing-consumption`)).body;
    expect([consumption.periodStart, consumption.periodEnd]).toEqual([
      new Date(start * 1000).toISOString(),
      new Date(end * 1000).toISOString(),
    ]);

    // the owner changes a cap; the same event delivered again changes nothing
    expect((await session(api.cookie, 'PUT', `${base}/billing-limits`, { transactional: 7 })).status).toBe(200);
    const again = await webhook(payload);
    expect([again.status, await again.json()]).toEqual([200, { received: true, duplicate: true }]);
    expect((await session(api.cookie, 'GET', `${base}/billing-limits`)).body).toMatchObject({ transactional: 7 });
  });
});

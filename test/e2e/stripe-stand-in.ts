import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface StandInRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  /** The form-encoded body Stripe's SDK sends, decoded (`metadata[projectId]` stays a flat key). */
  form: URLSearchParams;
  authorization: string | undefined;
}

/**
 * A loopback stand-in for the few Stripe REST calls Herald makes (customers, checkout sessions,
 * billing-portal sessions, invoices), answering in Stripe's shapes, so the real SDK can be pointed
 * at it (`STRIPE_API_URL`) and no test reaches the internet. It records every request.
 */
export class StripeStandIn {
  readonly requests: StandInRequest[] = [];
  private server?: Server;
  private seq = 0;

  get url(): string {
    return `http://127.0.0.1:${(this.server!.address() as AddressInfo).port}`;
  }

  async start(): Promise<this> {
    this.server = createServer((req, res) => {
      void body(req).then((text) => {
        const url = new URL(req.url ?? '/', 'http://stand-in');
        const request: StandInRequest = {
          method: req.method ?? 'GET',
          path: url.pathname,
          query: url.searchParams,
          form: new URLSearchParams(text),
          authorization: req.headers.authorization,
        };
        this.requests.push(request);
        const [status, answer] = this.answer(request);
        res.writeHead(status, { 'content-type': 'application/json', 'request-id': `req_${++this.seq}` });
        res.end(JSON.stringify(answer));
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    return this;
  }

  stop(): Promise<void> {
    return new Promise((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  calls(method: string, path: string): StandInRequest[] {
    return this.requests.filter((r) => r.method === method && r.path === path);
  }

  private answer(r: StandInRequest): [number, unknown] {
    const n = ++this.seq;
    if (r.method === 'POST' && r.path === '/v1/customers')
      return [200, { id: `cus_${n}`, object: 'customer', email: r.form.get('email'), metadata: {} }];
    if (r.method === 'POST' && r.path === '/v1/checkout/sessions')
      return [
        200,
        { id: `cs_test_${n}`, object: 'checkout.session', url: `https://checkout.stripe.test/c/cs_test_${n}` },
      ];
    if (r.method === 'POST' && r.path === '/v1/billing_portal/sessions')
      return [
        200,
        { id: `bps_${n}`, object: 'billing_portal.session', url: `https://billing.stripe.test/p/session_${n}` },
      ];
    if (r.method === 'GET' && r.path === '/v1/invoices')
      return [
        200,
        {
          object: 'list',
          url: '/v1/invoices',
          has_more: false,
          data: [
            {
              id: 'in_1',
              object: 'invoice',
              customer: r.query.get('customer'),
              number: 'HRLD-0001',
              status: 'paid',
              currency: 'eur',
              amount_due: 1900,
              amount_paid: 1900,
              total: 1900,
              created: 1_790_000_000,
              period_start: 1_787_000_000,
              period_end: 1_790_000_000,
              hosted_invoice_url: 'https://invoice.stripe.test/in_1',
              invoice_pdf: 'https://invoice.stripe.test/in_1.pdf',
            },
          ],
        },
      ];
    return [
      404,
      { error: { type: 'invalid_request_error', message: `Unrecognized request URL (${r.method}: ${r.path})` } },
    ];
  }
}

function body(req: IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
  });
}

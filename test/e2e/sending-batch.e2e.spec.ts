import {
  bearer,
  startDnsServer,
  startSmtpSink,
  startTopology,
  type SmtpSink,
  type TestDnsServer,
  type Topology,
} from '@herald/testing';
import { fieldsOf, newProject, type ErrorBody } from './contacts-helpers.js';
import { projectWithSender } from './sending-helpers.js';

interface SentEmail {
  contact: { id: string; email: string };
  email: string;
  status: 'queued' | 'skipped';
}

type BatchItem = { index: number; emails: SentEmail[] } | { index: number; errors: { field: string; code: string }[] };

interface BatchBody {
  success: true;
  data: { items: BatchItem[]; timestamp: string };
}

interface EmailsPage {
  data: { id: string; to: { email: string } }[];
  total: number;
}

/**
 * POST /v1/send/batch through the public API (docs/sending.md, "POST /v1/send/batch"): up to 100
 * /v1/send bodies answered per item, strict by default (an invalid item refuses the whole batch),
 * permissive with `X-Batch-Validation: permissive`; one Idempotency-Key for the batch. Each answer
 * is checked right after through GET /emails and the SMTP sink. Standalone only: the batch is
 * validated, answered and recorded by the sending service alone, the same in either mode; the way of
 * a send through the gateway and Kafka is proven in both modes by sending.e2e
 * (test/architecture/e2e-both-modes.spec.ts).
 */
describe('POST /v1/send/batch through the public API (standalone)', () => {
  let dns: TestDnsServer;
  let smtp: SmtpSink;
  let herald: Topology;
  let owner: string;
  let seq = 0;

  const project = () => projectWithSender(herald.url, dns, owner, 'batch');
  const address = (name: string) => `${name}-${++seq}@example.com`;

  beforeAll(async () => {
    [dns, smtp] = await Promise.all([startDnsServer(), startSmtpSink()]);
    herald = await startTopology({
      mode: 'standalone',
      env: { RATE_LIMIT_PER_MINUTE: '100000', DNS_SERVERS: dns.address, SMTP_URL: smtp.url },
    });
    owner = (await newProject(herald.url)).cookie;
  }, 480_000); // migrated and started on a loaded machine: a deadline, not a target

  afterAll(async () => {
    await herald?.stop();
    await Promise.all([smtp?.stop(), dns?.stop()]);
  }, 60_000);

  async function batch<T = BatchBody>(
    key: string,
    body: unknown,
    headers: Record<string, string> = {},
  ): Promise<{ status: number; body: T }> {
    const res = await fetch(`${herald.url}/v1/send/batch`, {
      method: 'POST',
      headers: { ...bearer(key), ...headers },
      body: JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as T };
  }

  const emailsOf = async (api: Awaited<ReturnType<typeof project>>) =>
    (await api.get<EmailsPage>('/emails?limit=100')).body;

  it('strict (the default): one invalid item refuses the whole batch, every item error named items[i].field, nothing sent nor written', async () => {
    const api = await project();
    const ok = address('strict-ok');
    const answer = await batch<ErrorBody>(api.key, [
      { to: ok, from: api.from, subject: 'Hi', body: '<p>hi</p>' },
      { to: address('strict-bad'), from: api.from, subject: 'line\nbreak', body: '<p>hi</p>' },
      { to: address('strict-from'), from: 'someone@not-verified.example.test', subject: 'Hi', body: '<p>x</p>' },
      { to: 'not-an-address', from: api.from, subject: 'Hi', body: '<p>x</p>' },
    ]);
    expect(answer.status).toBe(422);
    expect(answer.body.error.code).toBe('VALIDATION_ERROR');
    const fields = fieldsOf(answer.body);
    expect(fields).toEqual(expect.arrayContaining(['items[1].subject', 'items[2].from']));
    expect(fields.some((f) => f.startsWith('items[3].to'))).toBe(true);
    expect(fields.some((f) => f.startsWith('items[0]'))).toBe(false);
    // nothing written: no email, no contact, not even the valid item's
    expect((await emailsOf(api)).total).toBe(0);
    expect((await api.get<{ total: number }>(`/contacts?search=${encodeURIComponent(ok)}`)).body.total).toBe(0);
  });

  it('permissive: sends the valid items and answers the invalid ones with their errors, in request order', async () => {
    const api = await project();
    const [a, b, c] = [address('perm-a'), address('perm-b'), address('perm-c')];
    const answer = await batch(
      api.key,
      [
        { to: a, from: api.from, subject: 'First {{email}}', body: '<p>one</p>' },
        { to: address('perm-bad'), from: api.from, body: '<p>no subject</p>' },
        { to: [b, { name: 'Cee', email: c }], from: api.from, subject: 'Second', body: '<p>two</p>' },
      ],
      { 'x-batch-validation': 'permissive' },
    );
    expect(answer.status).toBe(200);
    const [first, second, third] = answer.body.data.items;
    expect(first).toMatchObject({ index: 0, emails: [{ contact: { email: a }, status: 'queued' }] });
    expect(second).toEqual({ index: 1, errors: [expect.objectContaining({ field: 'items[1].subject' })] });
    expect(third).toMatchObject({ index: 2, emails: [{ contact: { email: b } }, { contact: { email: c } }] });

    // read right after: each email the answer names is there, and only those
    const sent = [first, third].flatMap((i) => ('emails' in i! ? i.emails : []));
    for (const e of sent) expect((await api.get(`/emails/${e.email}`)).status).toBe(200);
    expect((await emailsOf(api)).data.map((e) => e.id).sort()).toEqual(sent.map((e) => e.email).sort());
    const delivered = await Promise.all(
      [a, b, c].map(async (to) => (await smtp.waitFor((m) => m.to.includes(to)))[0]!),
    );
    expect(delivered[0]!.subject).toBe(`First ${a}`);
  });

  it('refuses 101 items (422 on items) and an unknown validation mode, sending nothing; accepts 100', async () => {
    const api = await project();
    const items = (n: number) =>
      Array.from({ length: n }, (_, i) => ({
        to: `many-${seq}-${i}@example.com`,
        from: api.from,
        subject: 'S',
        body: 'B',
      }));
    const tooMany = await batch<ErrorBody>(api.key, items(101));
    expect(tooMany.status).toBe(422);
    expect(tooMany.body.error.errors?.[0]).toMatchObject({ field: 'items', code: 'too_big' });
    const badMode = await batch<ErrorBody>(api.key, items(1), { 'x-batch-validation': 'lenient' });
    expect(badMode.status).toBe(422);
    expect(fieldsOf(badMode.body)).toEqual(['x-batch-validation']);
    expect((await emailsOf(api)).total).toBe(0);

    const hundred = await batch(api.key, items(100));
    expect(hundred.status).toBe(200);
    expect(hundred.body.data.items).toHaveLength(100);
    expect((await emailsOf(api)).total).toBe(100);
  });

  it('replays a batch with the same Idempotency-Key: the first answer again, nothing sent twice; another body with that key is 409', async () => {
    const api = await project();
    const body = [
      { to: address('replay-a'), from: api.from, subject: 'One', body: '<p>1</p>' },
      { to: address('replay-b'), from: api.from, subject: 'Two', body: '<p>2</p>' },
    ];
    const key = { 'idempotency-key': `batch-${Date.now()}` };
    const first = await batch(api.key, body, key);
    expect(first.status).toBe(200);
    const again = await batch(api.key, body, key);
    expect(again.status).toBe(200);
    expect(again.body).toEqual(first.body);
    expect((await emailsOf(api)).total).toBe(2);

    const other = await batch<ErrorBody>(api.key, [body[0]], key);
    expect(other.status).toBe(409);
    expect(other.body.error.code).toBe('IDEMPOTENCY_KEY_REUSED');
    expect((await emailsOf(api)).total).toBe(2);
  });

  it('takes the secret key only: a public key is refused (403) as on /v1/send', async () => {
    const api = await project();
    const answer = await batch<ErrorBody>(api.publicKey, [
      { to: address('pk'), from: api.from, subject: 'S', body: 'B' },
    ]);
    expect(answer.status).toBe(403);
    expect((await emailsOf(api)).total).toBe(0);
  });
});

import {
  createTestDatabase,
  eventually,
  freePort,
  ServiceProcess,
  startDnsServer,
  startSmtpSink,
  type SmtpSink,
  type TestDatabase,
  type TestDnsServer,
} from '@herald/testing';
import { newProject, ProjectApi } from './contacts-helpers.js';
import { SendingDb, verifiedDomain } from './sending-helpers.js';

interface SendBody {
  data: { emails: { email: string }[] };
}

/**
 * Delivery is exactly once across a crash: the worker is killed (SIGKILL) in the middle of its
 * batches, while the relay has messages it has not yet confirmed, and restarted; every accepted email reaches the relay once — none lost, none twice —
 * because the hand-off is recorded before each message's final dot and recovery checks it.
 */
describe('delivery survives a crash of the worker', () => {
  const ACCEPTED = 200;
  let db: TestDatabase;
  let dns: TestDnsServer;
  let smtp: SmtpSink;
  let sending: SendingDb;
  const processes: ServiceProcess[] = [];
  const env = (extra: Record<string, string> = {}) => ({
    DATABASE_URL: db.url,
    INTERNAL_JWT_SECRET: 'crash-test-internal-secret-0123456789abcdef',
    RATE_LIMIT_PER_MINUTE: '100000',
    DNS_SERVERS: dns.address,
    DELIVERY_LEASE_MS: '2000',
    DELIVERY_BATCH_SIZE: '50',
    SMTP_POOL_SIZE: '2',
    ...extra,
  });
  const herald = async (extra?: Record<string, string>) => {
    const p = new ServiceProcess('standalone', await freePort(), env(extra));
    processes.push(p);
    await p.start();
    return p;
  };

  beforeAll(async () => {
    db = await createTestDatabase();
    dns = await startDnsServer();
    // a relay that answers each message 100 ms after its final dot: at any moment of the crash the
    // worker is most likely between handing messages over and hearing the relay take them
    smtp = await startSmtpSink({ replyDelayMs: 100 });
    sending = new SendingDb(db.url);
  }, 30_000);

  afterAll(async () => {
    for (const p of processes) await p.stop().catch(() => undefined);
    await sending?.end();
    await smtp?.stop();
    await dns?.stop();
    await db?.drop();
  }, 60_000);

  it('delivers every accepted email exactly once when the worker is killed mid-batch and restarted', async () => {
    // accept the emails with no relay configured: they wait, queued
    const accepting = await herald();
    const api = await newProject(accepting.url);
    await verifiedDomain(api, dns, sending, 'crash.example.test');
    const accepted: string[] = [];
    for (let batch = 0; batch < ACCEPTED / 50; batch++) {
      const to = Array.from({ length: 50 }, (_, i) => `r${batch * 50 + i}@example.com`);
      const res = await api.post<SendBody>('/v1/send', {
        to,
        from: 'news@crash.example.test',
        subject: 'Hello {{svc_email}}',
        body: '<p>Hi</p>',
      });
      expect(res.status).toBe(200);
      accepted.push(...res.body.data.emails.map((e) => e.email));
    }
    await accepting.stop();
    expect(smtp.messages).toHaveLength(0);

    // a worker with a relay starts delivering and is killed while it is at it
    const first = await herald({ SMTP_URL: smtp.url });
    await smtp.waitFor(ACCEPTED / 10, 30_000);
    await first.kill();
    const atCrash = smtp.messages.length;
    expect(atCrash).toBeLessThan(ACCEPTED); // the crash really came mid-way

    // another worker recovers the expired leases and finishes
    const second = await herald({ SMTP_URL: smtp.url });
    await smtp.waitFor(ACCEPTED, 60_000);
    await eventually(
      async () => ((await sending.emailsOf(api.projectId)).every((e) => e.status === 'sent') ? true : undefined),
      { timeoutMs: 30_000 },
    );
    // an email accepted now and delivered proves the worker has delivered since: a late second copy would be there by now
    const marker = await new ProjectApi(second.url, api.key).post<SendBody>('/v1/send', {
      to: 'marker@example.com',
      from: 'news@crash.example.test',
      subject: 'Marker',
      body: '<p>Last</p>',
    });
    expect(marker.status).toBe(200);
    await smtp.waitFor((m) => m.to.includes('marker@example.com'), 30_000);

    const delivered = smtp.messages
      .filter((m) => !m.to.includes('marker@example.com'))
      .map((m) => m.messageId!.replace(/^<|@.*$/g, ''));
    const counts = new Map<string, number>();
    for (const id of delivered) counts.set(id, (counts.get(id) ?? 0) + 1);
    expect([...counts.values()].filter((n) => n > 1)).toEqual([]);
    expect(new Set(delivered)).toEqual(new Set(accepted));
    expect(delivered).toHaveLength(ACCEPTED);
    // the crash did hit messages the relay had taken without the worker hearing it: not sent again
    expect(await sending.recoveredAsSent(api.projectId)).toBeGreaterThan(0);
  }, 120_000);
});

import {
  createTestDatabase,
  distributedEnv,
  eventually,
  freePort,
  migrateApps,
  ServiceProcess,
  startDnsServer,
  startKafka,
  startRedis,
  startSmtpSink,
  testReport,
  type KafkaBroker,
  type SmtpSink,
  type TestDatabase,
  type TestDnsServer,
} from '@herald/testing';
import { addsUp, campaignIn, createCampaign, recipientsOf, statsOf } from './campaigns-helpers.js';
import { csv, newProject, type TestProjectApi } from './contacts-helpers.js';
import { createSegment, where } from './segments-helpers.js';
import { SendingDb, verifiedDomain } from './sending-helpers.js';

const RECIPIENTS = 5_000;
/** An email whose hand-off a SIGKILL may have cut, as sending's recovery records it (docs/sending.md). */
const IN_DOUBT = /^(Recovered after a worker stopped|The relay's answer was lost)/;

/**
 * Exactly once through crashes (issue 22, item 6): the campaigns and sending processes are killed
 * (SIGKILL) in the middle of a 5,000-recipient campaign and started again. Every recipient ends in
 * one final state (the ledger adds up, all sent), and no address receives two copies: the intake
 * key `campaign:<id>:<contactId>` makes a batch handed over again a duplicate, and sending's own
 * delivery never sends twice across its crash (an email whose hand-off the kill cut is recorded in
 * doubt: the one way an address can miss its copy).
 */
async function crashAndCheck(
  api: TestProjectApi,
  smtp: SmtpSink,
  sending: SendingDb,
  domain: string,
  crash: () => Promise<void>,
): Promise<void> {
  const addresses = Array.from({ length: RECIPIENTS }, (_, i) => `r${i}-${domain}@example.com`);
  const imported = await api.importAndWait(csv(['email'], ...addresses.map((a) => [a])));
  expect(imported).toMatchObject({ status: 'completed', imported: RECIPIENTS });
  const everyone = await createSegment(api, { name: 'all', filters: where('email', 'contains', '@') });
  await eventually(
    async () =>
      (await api.get<{ total: number }>(`/segments/${everyone.id}/contacts?pageSize=1`)).body.total === RECIPIENTS
        ? true
        : undefined,
    { timeoutMs: 120_000, message: 'segments never saw every contact' },
  );
  const ours = (address: string) => address.endsWith(`-${domain}@example.com`);
  const c = await createCampaign(api, {
    name: 'Big',
    subject: 'Hello {{email}}',
    body: '<p>Hi {{email}}</p>',
    from: `news@${domain}`,
    audienceType: 'ALL',
  });
  expect((await api.post(`/campaigns/${c.id}/send`)).status).toBe(200);
  await smtp.waitFor({ where: (m) => ours(m.to[0]!), count: RECIPIENTS / 5 }, 120_000);
  await crash();
  const atCrash = smtp.messages.filter((m) => ours(m.to[0]!)).length;
  expect(atCrash).toBeLessThan(RECIPIENTS); // the crash really came mid-way

  await campaignIn(api, c.id, 'SENT', 240_000);
  const stats = await statsOf(api, c.id);
  expect(stats).toMatchObject({ recipients: RECIPIENTS, sent: RECIPIENTS, skipped: 0, failed: 0 });
  expect(addsUp(stats)).toBe(true);
  const delivered = smtp.messages.filter((m) => ours(m.to[0]!)).map((m) => m.to[0]!);
  const copies = new Map<string, number>();
  for (const a of delivered) copies.set(a, (copies.get(a) ?? 0) + 1);
  expect([...copies.entries()].filter(([, n]) => n > 1)).toEqual([]);
  // At most once at the relay: sending was killed too, so an email whose hand-off was recorded just
  // before the kill may never have reached it (docs/sending.md, "Never twice"). Every address is
  // reached, but those recorded as in doubt; any other missing one is a loss.
  const reached = new Set(delivered);
  expect(delivered.filter((a) => !addresses.includes(a))).toEqual([]);
  const missing = addresses.filter((a) => !reached.has(a));
  if (missing.length > 0) {
    const { rows: inDoubt } = await sending.query(
      `SELECT to_email FROM sending.emails WHERE project_id = $1 AND to_email = ANY($2::varchar[]) AND status = 'sent' AND error ~ $3`,
      [api.projectId, missing, IN_DOUBT.source],
    );
    expect(new Set((inDoubt as { to_email: string }[]).map((r) => r.to_email))).toEqual(new Set(missing));
    testReport(`campaigns crash: ${missing.length} emails in doubt after the kill`);
  }
  const rows = await recipientsOf(api, c.id, 'status=sent');
  expect(rows).toHaveLength(RECIPIENTS);
  expect(new Set(rows.map((r) => r.emailId)).size).toBe(RECIPIENTS);
}

describe('a campaign survives crashes, exactly once (standalone)', () => {
  let db: TestDatabase;
  let dns: TestDnsServer;
  let smtp: SmtpSink;
  let sending: SendingDb;
  let herald: ServiceProcess;
  let port: number;
  const env = () => ({
    DATABASE_URL: db.url,
    INTERNAL_JWT_SECRET: 'campaigns-crash-internal-secret-0123456789abcdef',
    RATE_LIMIT_PER_MINUTE: '100000',
    DNS_SERVERS: dns.address,
    SMTP_URL: smtp.url,
    APP_URL: `http://127.0.0.1:${port}`,
    JOB_LEASE_MS: '2000',
    DELIVERY_LEASE_MS: '2000',
  });

  beforeAll(async () => {
    [db, dns, smtp] = await Promise.all([createTestDatabase(), startDnsServer(), startSmtpSink({ replyDelayMs: 5 })]);
    port = await freePort();
    herald = new ServiceProcess('standalone', port, env());
    await herald.start();
    sending = new SendingDb(db.url);
  }, 90_000);

  afterAll(async () => {
    await herald?.stop();
    await sending?.end();
    await smtp?.stop();
    await dns?.stop();
    await db?.drop();
  }, 60_000);

  it('killed (SIGKILL) mid-campaign and restarted: 5,000 recipients each get one copy and every ledger row ends sent', async () => {
    const api = await newProject(herald.url);
    await verifiedDomain(api, dns, sending, 'crash-one.example.test');
    await crashAndCheck(api, smtp, sending, 'crash-one.example.test', async () => {
      await herald.kill();
      herald = new ServiceProcess('standalone', port, env());
      await herald.start({ timeoutMs: 120_000 });
    });
  }, 600_000);
});

describe('a campaign survives crashes, exactly once (campaigns, sending and contacts as their own processes over Kafka)', () => {
  let db: TestDatabase;
  let kafka: KafkaBroker;
  let redis: { url: string; stop(): Promise<void> };
  let dns: TestDnsServer;
  let smtp: SmtpSink;
  let sending: SendingDb;
  const processes: ServiceProcess[] = [];
  let gateway: ServiceProcess;
  let campaigns: ServiceProcess;
  let sendingProcess: ServiceProcess;
  const envs = new Map<ServiceProcess, Record<string, string>>();

  beforeAll(async () => {
    [db, kafka, redis, dns, smtp] = await Promise.all([
      createTestDatabase(),
      startKafka(),
      startRedis(),
      startDnsServer(),
      startSmtpSink({ replyDelayMs: 5 }),
    ]);
    const env = distributedEnv(db.url, kafka.brokers, {
      DKIM_ENCRYPTION_KEY: 'distributed-test-dkim-encryption-key-0123456789',
      LINK_SECRET: 'distributed-test-link-secret-0123456789abcdef',
      DNS_SERVERS: dns.address,
      JOB_LEASE_MS: '2000',
    });
    const apps = ['gateway', 'contacts', 'domains', 'segments', 'sending', 'campaigns'];
    await migrateApps(apps, env);
    const ports = Object.fromEntries(await Promise.all(apps.map(async (a) => [a, await freePort()] as const)));
    const url = (a: string) => `http://127.0.0.1:${ports[a]}`;
    const upstreams = {
      CONTACTS_URL: url('contacts'),
      DOMAINS_URL: url('domains'),
      SEGMENTS_URL: url('segments'),
      SENDING_URL: url('sending'),
      CAMPAIGNS_URL: url('campaigns'),
      GATEWAY_URL: url('gateway'),
      WORKFLOWS_URL: 'http://127.0.0.1:9',
      ANALYTICS_URL: 'http://127.0.0.1:9',
      WEBHOOKS_URL: 'http://127.0.0.1:9',
    };
    const make = (app: string, extra: Record<string, string> = {}) => {
      const p = new ServiceProcess(app, ports[app]!, { ...env, ...upstreams, ...extra });
      envs.set(p, { ...env, ...upstreams, ...extra });
      processes.push(p);
      return p;
    };
    const contacts = make('contacts');
    const domains = make('domains');
    const segments = make('segments');
    sendingProcess = make('sending', {
      APP_URL: url('gateway'),
      SMTP_URL: smtp.url,
      DELIVERY_LEASE_MS: '2000',
    });
    campaigns = make('campaigns');
    gateway = make('gateway', { REDIS_URL: redis.url, RATE_LIMIT_PER_MINUTE: '100000' });
    await Promise.all(
      [contacts, domains, segments, sendingProcess, campaigns].map((p) => p.start({ timeoutMs: 120_000 })),
    );
    await gateway.start({ timeoutMs: 120_000 });
    sending = new SendingDb(db.url);
  }, 300_000);

  afterAll(async () => {
    await Promise.all(processes.map((p) => p.stop()));
    await sending?.end();
    await Promise.all([kafka?.stop(), redis?.stop(), smtp?.stop(), dns?.stop()]);
    await db?.drop();
  }, 90_000);

  /** SIGKILL, then a new process of the same app on the same port and settings. */
  async function restart(p: ServiceProcess): Promise<ServiceProcess> {
    await p.kill();
    const again = new ServiceProcess(p.app, p.port, envs.get(p)!);
    envs.set(again, envs.get(p)!);
    processes.push(again);
    await again.start({ timeoutMs: 120_000 });
    return again;
  }

  it('campaigns and sending killed (SIGKILL) mid-campaign and restarted: 5,000 recipients each get one copy and every ledger row ends sent', async () => {
    const api = await newProject(gateway.url);
    await verifiedDomain(api, dns, sending, 'crash-two.example.test');
    await crashAndCheck(api, smtp, sending, 'crash-two.example.test', async () => {
      await Promise.all([campaigns.kill(), sendingProcess.kill()]);
      [campaigns, sendingProcess] = await Promise.all([restart(campaigns), restart(sendingProcess)]);
    });
  }, 900_000);
});

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
import { newProject, type TestProjectApi } from './contacts-helpers.js';
import { SendingDb, verifiedDomain } from './sending-helpers.js';
import { buildWorkflow, executions } from './workflows-helpers.js';

/** A process (re)start on a loaded 2-core machine: its readiness is waited for generously. */
const ready = { timeoutMs: 90_000 };
/** An email whose hand-off a SIGKILL may have cut, as sending's recovery records it (docs/sending.md). */
const IN_DOUBT = /^(Recovered after a worker stopped|The relay's answer was lost)/;

/**
 * Exactly-once effects across crashes (issue 23, "Crash test"): 1,000 executions of
 * SEND_EMAIL → DELAY → SEND_EMAIL; the process is killed (SIGKILL) while the first emails are
 * being sent and again while the second ones are, and restarted each time: every execution completes
 * with exactly one email per step, no address receives one twice, and an email missing at the relay
 * is one whose hand-off the kill cut (sending is in the killed process: docs/sending.md).
 */
describe('workflows survive SIGKILL in both phases (standalone)', () => {
  const N = 1000;
  let db: TestDatabase;
  let dns: TestDnsServer;
  let smtp: SmtpSink;
  let sending: SendingDb;
  let herald: ServiceProcess;

  beforeAll(async () => {
    db = await createTestDatabase();
    dns = await startDnsServer();
    smtp = await startSmtpSink({ replyDelayMs: 5 });
    herald = new ServiceProcess('standalone', await freePort(), {
      DATABASE_URL: db.url,
      INTERNAL_JWT_SECRET: 'wf-crash-test-internal-secret-0123456789abcdef',
      RATE_LIMIT_PER_MINUTE: '1000000',
      DNS_SERVERS: dns.address,
      SMTP_URL: smtp.url,
      DELIVERY_LEASE_MS: '2000',
    });
    await herald.start(ready);
    sending = new SendingDb(db.url);
  }, 150_000);

  afterAll(async () => {
    await sending?.end();
    await herald?.stop();
    await smtp?.stop();
    await dns?.stop();
    await db?.drop();
  }, 60_000);

  const subjects = (subject: string) => smtp.messages.filter((m) => m.subject === subject);

  it('one email per execution and step, none twice; a missing one is recorded in doubt at the kill', async () => {
    const api: TestProjectApi = await newProject(herald.url);
    const domain = `crash-${Date.now().toString(36)}.example.test`;
    await verifiedDomain(api, dns, sending, domain);
    const tpl = async (subject: string) =>
      (
        await api.post<{ id: string }>('/templates', {
          name: subject,
          subject,
          body: `<p>${subject}</p>`,
          from: `wf@${domain}`,
        })
      ).body.id;
    const w = await buildWorkflow(api, {
      eventName: 'crash',
      steps: [
        ['SEND_EMAIL', { templateId: await tpl('first') }],
        ['DELAY', { amount: 8, unit: 'seconds' }],
        ['SEND_EMAIL', { templateId: await tpl('second') }],
      ],
    });
    for (let i = 0; i < N; i += 50)
      await Promise.all(
        Array.from({ length: Math.min(50, N - i) }, (_, k) =>
          api.track({ email: `c${i + k}@crash.example.com`, event: 'crash' }),
        ),
      );

    await eventually(() => subjects('first').length >= 50, { timeoutMs: 60_000, intervalMs: 20 });
    expect(subjects('first').length).toBeLessThan(N);
    await herald.kill();
    await herald.start(ready);

    await eventually(() => subjects('second').length >= 50, { timeoutMs: 90_000, intervalMs: 20 });
    expect(subjects('second').length).toBeLessThan(N);
    await herald.kill();
    await herald.start(ready);

    // every execution completes and sending has nothing left to deliver (generous deadlines: alone
    // this takes ~30 s; beside another crash test on a 2-core CI machine, minutes)
    const settled = async () => {
      const completed = (await api.get<{ total: number }>(`/workflows/${w.id}/executions?status=COMPLETED`)).body.total;
      const { rows } = await sending.query(
        `SELECT count(*)::int AS n FROM sending.emails WHERE project_id = $1 AND status IN ('queued', 'sending')`,
        [api.projectId],
      );
      return completed === N && (rows[0] as { n: number }).n === 0 ? true : undefined;
    };
    await eventually(settled, { timeoutMs: 300_000 }).catch((err: Error) => {
      throw new Error(
        `${err.message}: first ${subjects('first').length}, second ${subjects('second').length} of ${N} at the relay`,
      );
    });
    const { rows: stored } = await sending.query(
      `SELECT to_email, subject, status, error FROM sending.emails WHERE project_id = $1 AND source_key LIKE 'workflow:%'`,
      [api.projectId],
    );
    for (const subject of ['first', 'second']) {
      const delivered = subjects(subject).flatMap((m) => m.to);
      expect(new Set(delivered).size).toBe(delivered.length); // never twice
      const emails = (stored as { to_email: string; subject: string; status: string; error: string | null }[]).filter(
        (e) => e.subject === subject,
      );
      expect(emails).toHaveLength(N); // one email per execution and step: the intake's key
      expect(emails.filter((e) => e.status !== 'sent')).toEqual([]);
      // At most once: the process was killed with sending inside it, so an email whose hand-off was
      // recorded just before the kill may never have reached the relay (docs/sending.md, "Never
      // twice"). Such an email is recorded as in doubt; any other missing one is a loss.
      const reached = new Set(delivered);
      const missing = emails.filter((e) => !reached.has(e.to_email));
      expect(missing.filter((e) => !IN_DOUBT.test(e.error ?? ''))).toEqual([]);
      if (missing.length > 0)
        testReport(`workflows crash: ${missing.length} '${subject}' emails in doubt after the kill`);
    }
    expect(await executions(api, w.id, 'FAILED')).toEqual([]);
  }, 800_000);
});

/**
 * The same with workflows, contacts, domains and sending as their own processes over Kafka: the
 * workflows process is killed in both phases and restarted; the intake's keys and the runtime's
 * transactions still give each email exactly once.
 */
describe('workflows survive SIGKILL in both phases (distributed)', () => {
  const N = 1000;
  let db: TestDatabase;
  let kafka: KafkaBroker;
  let redis: { url: string; stop(): Promise<void> };
  let dns: TestDnsServer;
  let smtp: SmtpSink;
  let sending: SendingDb;
  const processes: ServiceProcess[] = [];
  let workflows: ServiceProcess;
  let gateway: ServiceProcess;

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
    });
    await migrateApps(['gateway', 'contacts', 'domains', 'sending', 'workflows'], env);
    const gatewayPort = await freePort();
    const contacts = new ServiceProcess('contacts', await freePort(), env);
    const domains = new ServiceProcess('domains', await freePort(), env);
    const sendingProcess = new ServiceProcess('sending', await freePort(), {
      ...env,
      CONTACTS_URL: contacts.url,
      DOMAINS_URL: domains.url,
      APP_URL: `http://127.0.0.1:${gatewayPort}`,
      SMTP_URL: smtp.url,
      DELIVERY_LEASE_MS: '2000',
    });
    // no segments process: these workflows' steps name no segment
    const nowhere = 'http://127.0.0.1:9';
    workflows = new ServiceProcess('workflows', await freePort(), {
      ...env,
      CONTACTS_URL: contacts.url,
      SENDING_URL: sendingProcess.url,
      SEGMENTS_URL: nowhere,
    });
    processes.push(contacts, domains, sendingProcess, workflows);
    await Promise.all(processes.map((p) => p.start(ready)));
    gateway = new ServiceProcess('gateway', gatewayPort, {
      ...env,
      REDIS_URL: redis.url,
      RATE_LIMIT_PER_MINUTE: '1000000',
      CONTACTS_URL: contacts.url,
      SENDING_URL: sendingProcess.url,
      DOMAINS_URL: domains.url,
      WORKFLOWS_URL: workflows.url,
      CAMPAIGNS_URL: nowhere,
      SEGMENTS_URL: nowhere,
      ANALYTICS_URL: nowhere,
      WEBHOOKS_URL: nowhere,
    });
    processes.push(gateway);
    await gateway.start(ready);
    sending = new SendingDb(db.url);
  }, 240_000);

  afterAll(async () => {
    await Promise.all(processes.map((p) => p.stop()));
    await sending?.end();
    await Promise.all([kafka?.stop(), redis?.stop(), smtp?.stop(), dns?.stop()]);
    await db?.drop();
  }, 60_000);

  const subjects = (subject: string) => smtp.messages.filter((m) => m.subject === subject);

  it('every contact receives each email exactly once', async () => {
    const api: TestProjectApi = await newProject(gateway.url);
    const domain = `dcrash-${Date.now().toString(36)}.example.test`;
    await verifiedDomain(api, dns, sending, domain);
    const tpl = async (subject: string) =>
      (
        await api.post<{ id: string }>('/templates', {
          name: subject,
          subject,
          body: `<p>${subject}</p>`,
          from: `wf@${domain}`,
        })
      ).body.id;
    const w = await buildWorkflow(api, {
      eventName: 'crash',
      steps: [
        ['SEND_EMAIL', { templateId: await tpl('first') }],
        ['DELAY', { amount: 8, unit: 'seconds' }],
        ['SEND_EMAIL', { templateId: await tpl('second') }],
      ],
    });
    for (let i = 0; i < N; i += 50)
      await Promise.all(
        Array.from({ length: Math.min(50, N - i) }, (_, k) =>
          api.track({ email: `d${i + k}@crash.example.com`, event: 'crash' }),
        ),
      );

    await eventually(() => subjects('first').length >= 50, { timeoutMs: 90_000, intervalMs: 20 });
    expect(subjects('first').length).toBeLessThan(N);
    await workflows.kill();
    await workflows.start(ready);

    await eventually(() => subjects('second').length >= 50, { timeoutMs: 120_000, intervalMs: 20 });
    expect(subjects('second').length).toBeLessThan(N);
    await workflows.kill();
    await workflows.start(ready);

    await eventually(() => subjects('second').length >= N && subjects('first').length >= N, { timeoutMs: 300_000 });
    await eventually(
      async () => (await api.get<{ total: number }>(`/workflows/${w.id}/executions?status=COMPLETED`)).body.total === N,
      {
        timeoutMs: 60_000,
      },
    );
    for (const subject of ['first', 'second']) {
      const to = subjects(subject).flatMap((m) => m.to);
      expect(to).toHaveLength(N);
      expect(new Set(to).size).toBe(N);
    }
  }, 800_000);
});

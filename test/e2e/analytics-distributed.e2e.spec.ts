import { CampaignSending, EmailDelivered, EmailOpened, EmailSent, type EventEnvelope } from '@herald/contracts';
import {
  createTestDatabase,
  distributedEnv,
  eventually,
  freePort,
  migrateApps,
  ServiceProcess,
  startKafka,
  startRedis,
  type KafkaBroker,
  type TestDatabase,
} from '@herald/testing';
import { AnalyticsOutbox } from './analytics-helpers.js';
import { newProject, type TestProjectApi } from './contacts-helpers.js';

/** Sum of a Prometheus counter's samples whose labels include all of `labels`. */
async function counter(metricsUrl: string, name: string, labels: Record<string, string>): Promise<number> {
  const text = await (await fetch(metricsUrl)).text();
  let sum = 0;
  for (const line of text.split('\n')) {
    if (!line.startsWith(`${name}{`)) continue;
    if (Object.entries(labels).every(([k, v]) => line.includes(`${k}="${v}"`))) sum += Number(line.split(' ').pop());
  }
  return sum;
}

/**
 * What only a distributed deployment can show: analytics as its own process over Kafka, with the
 * gateway and contacts, replaying every topic from the start (restarted under a new consumer group,
 * which reads from offset 0) changes no count, the inbox recognising every event. The routes
 * themselves, in both modes, are analytics.e2e.spec.ts's.
 */
describe('activity and analytics across services (distributed, Kafka)', () => {
  let db: TestDatabase;
  let kafka: KafkaBroker;
  let redis: { url: string; stop(): Promise<void> };
  let outbox: AnalyticsOutbox;
  let env: Record<string, string>;
  const processes: ServiceProcess[] = [];
  let analytics: ServiceProcess;
  let api: TestProjectApi;

  beforeAll(async () => {
    [db, kafka, redis] = await Promise.all([createTestDatabase(), startKafka(), startRedis()]);
    env = distributedEnv(db.url, kafka.brokers);
    await migrateApps(['gateway', 'contacts', 'analytics'], env);
    const contacts = new ServiceProcess('contacts', await freePort(), env);
    // analytics asks contacts whether a project's writes are published before answering (read-your-writes)
    analytics = new ServiceProcess('analytics', await freePort(), { ...env, CONTACTS_URL: contacts.url });
    processes.push(contacts, analytics);
    await Promise.all([contacts.start(), analytics.start()]);
    const nowhere = 'http://127.0.0.1:9';
    const gateway = new ServiceProcess('gateway', await freePort(), {
      ...env,
      REDIS_URL: redis.url,
      RATE_LIMIT_PER_MINUTE: '100000',
      CONTACTS_URL: contacts.url,
      ANALYTICS_URL: analytics.url,
      WEBHOOKS_URL: nowhere,
      SEGMENTS_URL: nowhere,
      SENDING_URL: nowhere,
      DOMAINS_URL: nowhere,
      CAMPAIGNS_URL: nowhere,
      WORKFLOWS_URL: nowhere,
    });
    processes.push(gateway);
    await gateway.start();
    outbox = new AnalyticsOutbox(db.url);
    api = await newProject(gateway.url);
  }, 180_000);

  afterAll(async () => {
    await Promise.all(processes.map((p) => p.stop()));
    await outbox?.end();
    await Promise.all([kafka?.stop(), redis?.stop()]);
    await db?.drop();
  }, 60_000);

  it('replaying every topic from the start (a new consumer group) changes no count: tracked events and a campaign send with opens', async () => {
    for (const name of ['signed_up', 'plan_upgraded'])
      expect((await api.track({ email: 'kafka@example.com', event: name })).status).toBeLessThan(300);
    const campaign = { campaignId: 'cmp_kafka', origin: 'campaign' as const, subject: 'Kafka news' };
    const ev = (contract: { create: (a: never) => EventEnvelope }, payload: object, at = new Date()) =>
      contract.create({ projectId: api.projectId, source: 'test', occurredAt: at, payload } as never);
    const now = Date.now();
    const events: EventEnvelope[] = [
      ev(CampaignSending, {
        campaignId: 'cmp_kafka',
        name: 'Kafka news',
        subject: 'Kafka news',
        audienceType: 'ALL',
        at: new Date(now).toISOString(),
        recipients: 2,
      }),
    ];
    for (const n of [1, 2]) {
      const email = { ...campaign, emailId: `eml_k${n}`, contactId: `cnt_k${n}`, email: `k${n}@example.com` };
      events.push(
        ev(EmailSent, email, new Date(now + n)),
        ev(EmailDelivered, email, new Date(now + 100)),
        ev(EmailOpened, email, new Date(now + 60_000)),
      );
    }
    // a second open of the same recipient: counted in total, not in unique
    events.push(
      ev(
        EmailOpened,
        { ...campaign, emailId: 'eml_k1', contactId: 'cnt_k1', email: 'k1@example.com' },
        new Date(now + 120_000),
      ),
    );
    await outbox.publish(...events);

    const stats = await eventually(
      async () => {
        const res = await api.get('/analytics/campaign-stats?campaignId=cmp_kafka');
        // the topics are consumed independently: wait for all of them
        const b = res.body;
        return res.status === 200 && b.totalOpens === 3 && b.delivered === 2 && b.sent === 2 && b.recipients === 2
          ? b
          : undefined;
      },
      { timeoutMs: 30_000, message: 'the campaign events never reached analytics over Kafka' },
    );
    expect(stats).toMatchObject({
      recipients: 2,
      sent: 2,
      delivered: 2,
      uniqueOpens: 2,
      totalOpens: 3,
      rates: { open: 1 },
    });
    // the feed itself, and another project seeing none of it, are analytics.e2e.spec.ts's (both modes)
    await eventually(
      async () => {
        const body = (await api.get('/activity?type=event.tracked')).body;
        return body.data?.length === 2 ? true : undefined;
      },
      { timeoutMs: 30_000, message: 'the tracked events never reached analytics over Kafka' },
    );
    // the first track's contact.created is a topic of its own: applied too before the snapshot below
    await eventually(
      async () => ((await api.get('/activity?type=contact.created')).body.data?.length === 1 ? true : undefined),
      { timeoutMs: 30_000, message: 'contact.created never reached analytics over Kafka' },
    );
    const top = (await api.get('/analytics/top-campaigns?metric=openRate')).body.campaigns;
    expect(top.map((c: { campaignId: string }) => c.campaignId)).toEqual(['cmp_kafka']);

    // replay: analytics comes back under a new consumer group, which reads every topic from the start
    const applied = await outbox.applied();
    const before = await outbox.counts(api.projectId);
    await analytics.stop();
    const replaying = new ServiceProcess('analytics', await freePort(), { ...env, KAFKA_GROUP_PREFIX: 'replay' });
    processes.push(replaying);
    await replaying.start();
    await eventually(
      async () =>
        (await counter(replaying.metricsUrl, 'herald_events_consumed_total', {
          consumer: 'analytics',
          outcome: 'duplicate',
        })) >= applied
          ? true
          : undefined,
      { timeoutMs: 60_000, message: 'the replay never went through every applied event' },
    );
    expect(await outbox.applied()).toBe(applied);
    expect(await outbox.counts(api.projectId)).toEqual(before);
  });
});

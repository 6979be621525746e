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
import { newProject, type TestProjectApi } from './contacts-helpers.js';
import { createSegment, entered, exited, memberIds, SegmentsOutbox, where } from './segments-helpers.js';

/**
 * Segments as its own process over Kafka, stopped and started again: gateway, contacts and segments.
 * The routes, and entry and exit as contacts change, are proven in both modes by segments.e2e (the
 * run's mode); this file adds what only a separate process can show: a segments process stopped
 * while contacts change misses nothing when it is back (its consumer group resumes, the inbox
 * de-duplicates), and its `segment.entered`/`segment.exited` then leave its outbox for Kafka.
 */
describe('segments across services (distributed)', () => {
  let db: TestDatabase;
  let kafka: KafkaBroker;
  let redis: { url: string; stop(): Promise<void> };
  let outbox: SegmentsOutbox;
  const processes: ServiceProcess[] = [];
  let segments: ServiceProcess;
  let api: TestProjectApi;

  beforeAll(async () => {
    [db, kafka, redis] = await Promise.all([createTestDatabase(), startKafka(), startRedis()]);
    const env = distributedEnv(db.url, kafka.brokers);
    await migrateApps(['gateway', 'contacts', 'segments'], env);
    const contacts = new ServiceProcess('contacts', await freePort(), env);
    segments = new ServiceProcess('segments', await freePort(), {
      ...env,
      CONTACTS_URL: contacts.url,
      SEGMENTS_SWEEP_INTERVAL_MS: '1000',
    });
    processes.push(contacts, segments);
    await Promise.all([contacts.start(), segments.start()]);
    const nowhere = 'http://127.0.0.1:9';
    const gateway = new ServiceProcess('gateway', await freePort(), {
      ...env,
      REDIS_URL: redis.url,
      RATE_LIMIT_PER_MINUTE: '100000',
      CONTACTS_URL: contacts.url,
      SEGMENTS_URL: segments.url,
      SENDING_URL: nowhere,
      DOMAINS_URL: nowhere,
      CAMPAIGNS_URL: nowhere,
      WORKFLOWS_URL: nowhere,
      ANALYTICS_URL: nowhere,
      WEBHOOKS_URL: nowhere,
    });
    processes.push(gateway);
    await gateway.start();
    outbox = new SegmentsOutbox(db.url);
    api = await newProject(gateway.url);
  }, 180_000);

  afterAll(async () => {
    await Promise.all(processes.map((p) => p.stop()));
    await outbox?.end();
    await Promise.all([kafka?.stop(), redis?.stop()]);
    await db?.drop();
  }, 60_000);

  it('changes made while the segments process is down are applied when it is back: entry and exit once each', async () => {
    const s = await createSegment(api, {
      name: 'vip',
      filters: where('data.vip', 'equals', true),
      trackMembership: true,
    });
    const a = await api.upsert('down-a@example.com', { vip: false });
    const b = await api.upsert('down-b@example.com', { vip: true });
    await outbox.until(s.id, (e) => entered(e, b.id).length === 1, 30_000);

    await segments.stop();
    await api.patch(`/contacts/${a.id}`, { data: { vip: true } });
    await api.patch(`/contacts/${b.id}`, { data: { vip: false } });
    await segments.start();

    const events = await outbox.until(
      s.id,
      (e) => entered(e, a.id).length === 1 && exited(e, b.id).length === 1,
      30_000,
      'the changes made while segments was down never arrived',
    );
    // exactly once each: b's entry before the stop, then a's entry and b's exit
    expect(events.map((e) => [e.topic, e.payload.contactId]).sort()).toEqual(
      [
        ['segment.entered', b.id],
        ['segment.entered', a.id],
        ['segment.exited', b.id],
      ].sort(),
    );
    expect(await memberIds(api, s.id)).toEqual([a.id]);
    await eventually(
      async () => {
        const { rows } = await outbox.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM segments.outbox WHERE topic LIKE 'segment.%' AND published_at IS NULL`,
        );
        return rows[0]!.n === 0;
      },
      { timeoutMs: 30_000, message: 'segment events never left the outbox' },
    );
  }, 120_000);
});

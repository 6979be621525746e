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
 * Segments as its own process over Kafka (distributed mode): gateway, contacts and segments. The
 * read model is fed by `contact.*` and `event.tracked` from Kafka, and entry and exit follow the
 * contact as in standalone mode; the segments process restarted misses nothing (its consumer group
 * resumes, the inbox de-duplicates), and its `segment.entered`/`segment.exited` leave its outbox.
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

  it('a /v1/track makes the contact enter, a PATCH makes it leave, and the events leave the outbox for Kafka', async () => {
    const signedUp = await createSegment(api, {
      name: 'signed up',
      filters: where('event.signup', 'triggered'),
      trackMembership: true,
    });
    const pro = await createSegment(api, {
      name: 'pro',
      filters: where('data.plan', 'equals', 'pro'),
      trackMembership: true,
    });
    const contact = await api.upsert('dist-seg@example.com', { plan: 'pro' });
    expect((await api.track({ email: 'dist-seg@example.com', event: 'signup' })).status).toBe(200);
    const events = await outbox.until(signedUp.id, (e) => entered(e, contact.id).length === 1, 15_000);
    expect(events[0]!.payload).toMatchObject({
      contactId: contact.id,
      email: 'dist-seg@example.com',
      reason: 'change',
    });
    await outbox.until(pro.id, (e) => entered(e, contact.id).length === 1, 15_000);
    await api.patch(`/contacts/${contact.id}`, { data: { plan: 'free' } });
    await outbox.until(pro.id, (e) => exited(e, contact.id).length === 1, 15_000);
    expect(await memberIds(api, signedUp.id)).toEqual([contact.id]);
    expect(await memberIds(api, pro.id)).toEqual([]);
    await eventually(
      async () => {
        const { rows } = await outbox.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM segments.outbox WHERE topic LIKE 'segment.%' AND published_at IS NULL`,
        );
        return rows[0]!.n === 0;
      },
      { timeoutMs: 15_000, message: 'segment events never left the outbox' },
    );
  }, 60_000);

  it('changes made while the segments process is down are applied when it is back: entry and exit once each', async () => {
    const s = await createSegment(api, {
      name: 'vip',
      filters: where('data.vip', 'equals', true),
      trackMembership: true,
    });
    const a = await api.upsert('down-a@example.com', { vip: false });
    const b = await api.upsert('down-b@example.com', { vip: true });
    await outbox.until(s.id, (e) => entered(e, b.id).length === 1, 15_000);

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
  }, 90_000);
});

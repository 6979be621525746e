import { randomUUID } from 'node:crypto';
import { Kafka, logLevel } from 'kafkajs';
import {
  createTestDatabase,
  distributedEnv,
  eventually,
  freePort,
  migrateApps,
  ServiceProcess,
  startKafka,
  type KafkaBroker,
  type TestDatabase,
} from '@herald/testing';
import { asProject, countedTotal, expectConverged, trackMany } from './pipeline-load.js';

/**
 * The whole pipe in distributed mode: contacts (producer, outbox) and analytics (consumer, inbox)
 * run as separate OS processes against a Kafka wire-protocol broker and one PostgreSQL.
 */
describe('event pipeline across separate processes over Kafka', () => {
  let db: TestDatabase;
  let kafka: KafkaBroker;
  let contacts: ServiceProcess;
  let analytics: ServiceProcess;

  beforeAll(async () => {
    db = await createTestDatabase();
    kafka = await startKafka();
    const env = distributedEnv(db.url, kafka.brokers, { DATABASE_POOL_SIZE: '5' });
    await migrateApps(['contacts', 'analytics'], env);
    contacts = new ServiceProcess('contacts', await freePort(), env);
    analytics = new ServiceProcess('analytics', await freePort(), env);
    await Promise.all([contacts.start(), analytics.start()]);
  }, 120_000);

  afterAll(async () => {
    await Promise.all([contacts?.stop(), analytics?.stop()]);
    await kafka?.stop();
    await db?.drop();
  }, 60_000);

  it('loses no event and applies none twice when the producer and the consumer are killed mid-stream', async () => {
    const auth = asProject(`prj_${randomUUID().slice(0, 8)}`);
    const total = 400;
    let consumerKilled = false;
    let producerKilled = false;
    let consumerRestart: Promise<void> | undefined;

    await trackMany(
      () => contacts,
      auth,
      total,
      8,
      async (done) => {
        if (!consumerKilled && done >= total / 4) {
          consumerKilled = true;
          await eventually(async () => (await countedTotal(analytics, auth)) > 0, {
            message: 'analytics never consumed',
          });
          await analytics.kill();
          consumerRestart = analytics.start();
        }
        if (!producerKilled && done >= total / 2) {
          producerKilled = true;
          await contacts.kill();
          await contacts.start();
        }
      },
    );
    await consumerRestart;

    await expectConverged(contacts, analytics, auth, db.url, total);
  }, 180_000);

  it('dead-letters poison messages to <topic>.dlq with the error and keeps consuming the partition', async () => {
    const projectId = `prj_${randomUUID().slice(0, 8)}`;
    const client = new Kafka({ clientId: 'test', brokers: kafka.brokers, logLevel: logLevel.NOTHING });
    const producer = client.producer();
    await producer.connect();
    const base = {
      type: 'event.tracked',
      version: 1,
      occurredAt: new Date().toISOString(),
      source: 'test',
      key: 'cnt_poison',
    };
    const payload = {
      eventRecordId: 'evt_x',
      contactId: 'cnt_poison',
      email: 'p@example.com',
      name: 'poison',
      data: {},
    };
    await producer.send({
      topic: 'event.tracked',
      messages: [
        // not JSON at all
        { key: 'cnt_poison', value: '{not json' },
        // breaks the contract (no email): dead-lettered without retries
        {
          key: 'cnt_poison',
          value: JSON.stringify({
            ...base,
            eventId: randomUUID(),
            projectId,
            payload: { ...payload, email: undefined },
          }),
        },
        // valid contract, but the handler can never apply it (project id too long for the column): retried, then dead-lettered
        {
          key: 'cnt_poison',
          value: JSON.stringify({ ...base, eventId: randomUUID(), projectId: 'p'.repeat(60), payload }),
        },
        // a good message behind them on the same partition
        {
          key: 'cnt_poison',
          value: JSON.stringify({
            ...base,
            eventId: randomUUID(),
            projectId,
            payload: { ...payload, name: 'after-poison' },
          }),
        },
      ],
    });
    await producer.disconnect();

    await eventually(async () => (await countedTotal(analytics, asProject(projectId))) === 1, {
      timeoutMs: 30_000,
      message: 'the message after the poison was not applied',
    });

    const dlq: { error: string; consumer: string }[] = [];
    const consumer = client.consumer({
      groupId: `test-dlq-${randomUUID()}`,
      sessionTimeout: 6000,
      maxWaitTimeInMs: 100,
    });
    await consumer.connect();
    await consumer.subscribe({ topic: 'event.tracked.dlq', fromBeginning: true });
    await consumer.run({
      eachMessage: async ({ message }) => {
        const env = JSON.parse(message.value!.toString()) as { deadLetter: { error: string; consumer: string } };
        dlq.push(env.deadLetter);
      },
    });
    await eventually(() => dlq.length >= 3, {
      timeoutMs: 30_000,
      message: 'dead letters did not reach event.tracked.dlq',
    });
    await consumer.disconnect();
    expect(dlq.every((d) => d.consumer === 'analytics')).toBe(true);
    expect(dlq.map((d) => d.error).join('\n')).toMatch(/undecodable/);
    expect(dlq.map((d) => d.error).join('\n')).toMatch(/invalid event: payload.email/);
    expect(dlq.map((d) => d.error).join('\n')).toMatch(/value too long/);
  }, 120_000);
});

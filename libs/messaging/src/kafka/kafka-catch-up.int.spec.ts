import { startKafka, type KafkaBroker } from '@herald/testing';
import type { Kafka } from 'kafkajs';
import { createKafka } from './kafka-client.js';
import { ConsumerProgress } from './consumer-progress.js';
import { KafkaCatchUp } from './kafka-catch-up.js';

/**
 * Distributed mode's half of read-your-writes over the Kafka wire protocol (the mock cluster, or
 * KAFKA_BROKERS): a reader is current once its group has applied every partition of the topics up to
 * their end offsets, as this process applies them or as the group committed them at the broker.
 */
describe('KafkaCatchUp against a Kafka broker', () => {
  let broker: KafkaBroker;
  let kafka: Kafka;
  const topic = `ryw.catch-up.${Date.now().toString(36)}`;
  let ends: { partition: number; end: number }[];

  beforeAll(async () => {
    broker = await startKafka();
    kafka = createKafka({ brokers: broker.brokers, clientId: 'catch-up-spec' });
    await broker.createTopic(topic, 3);
    const producer = kafka.producer({ allowAutoTopicCreation: true });
    await producer.connect();
    await producer.send({
      topic,
      acks: -1,
      messages: Array.from({ length: 12 }, (_, i) => ({ key: `k${i}`, value: String(i) })),
    });
    await producer.disconnect();
    const admin = kafka.admin();
    await admin.connect();
    ends = (await admin.fetchTopicOffsets(topic))
      .map((o) => ({ partition: o.partition, end: Number(o.high) }))
      .filter((o) => o.end > 0);
    await admin.disconnect();
    expect(ends.length).toBeGreaterThan(0);
  }, 60_000);

  afterAll(async () => {
    await broker?.stop();
  });

  it('is not current until every partition is applied up to its end offset, then is', async () => {
    const progress = new ConsumerProgress();
    const catchUp = new KafkaCatchUp(kafka, progress, 'ryw-local');
    try {
      progress.assign('reader', { [topic]: ends.map((e) => e.partition) });
      const started = Date.now();
      expect(await catchUp.await('reader', [topic], Date.now() + 300)).toBe(false);
      expect(Date.now() - started).toBeLessThan(5000);
      const [last, ...others] = ends;
      for (const e of others) progress.applied('reader', topic, e.partition, e.end - 1);
      let answered: boolean | undefined;
      const waiting = catchUp.await('reader', [topic], Date.now() + 10_000).then((current) => (answered = current));
      await new Promise((resolve) => setImmediate(resolve));
      expect(answered).toBeUndefined(); // the last partition is not applied yet: still waiting
      progress.applied('reader', topic, last!.partition, last!.end - 1);
      expect(await waiting).toBe(true);
    } finally {
      await catchUp.close();
    }
  }, 60_000);

  it("trusts the group's committed offsets at the broker for partitions this process has not applied (another replica's)", async () => {
    const progress = new ConsumerProgress();
    const catchUp = new KafkaCatchUp(kafka, progress, 'ryw-remote');
    // another replica of the group: it applies the topic and commits, this process applies nothing
    const replica = kafka.consumer({ groupId: 'ryw-remote-reader', sessionTimeout: 6000, heartbeatInterval: 600 });
    try {
      expect(await catchUp.await('reader', [topic], Date.now() + 200)).toBe(false);
      await replica.connect();
      await replica.subscribe({ topics: [topic], fromBeginning: true });
      await replica.run({ eachMessage: async () => undefined });
      expect(await catchUp.await('reader', [topic], Date.now() + 30_000)).toBe(true);
    } finally {
      await replica.disconnect();
      await catchUp.close();
    }
  }, 60_000);

  it('is current at once for topics nobody has published to', async () => {
    const catchUp = new KafkaCatchUp(kafka, new ConsumerProgress(), 'ryw-empty');
    try {
      await broker.createTopic(`${topic}.empty`, 2);
      expect(await catchUp.await('reader', [`${topic}.empty`], Date.now() + 5000)).toBe(true);
      expect(await catchUp.await('reader', [], Date.now())).toBe(true);
    } finally {
      await catchUp.close();
    }
  }, 60_000);
});

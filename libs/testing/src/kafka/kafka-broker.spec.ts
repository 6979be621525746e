import { randomUUID } from 'node:crypto';
import { Kafka, logLevel, type Consumer, type KafkaMessage } from 'kafkajs';
import { startKafka, waitForKafka, type KafkaBroker } from './kafka-broker.js';

// Group timings. The librdkafka mock delays a group's FIRST join by a fixed 3 s and any later
// (re)join by sessionTimeout - 1 s, so a short sessionTimeout keeps handovers fast; it must stay
// above 3 s or members time out during that first join. Real brokers reject sessions below
// group.min.session.timeout.ms (6 s by default; the testcontainers provider lowers it to 1 s).
// maxWaitTimeInMs bounds the long-poll Fetch that consumer.disconnect() waits for (default 5 s).
const consumerTimings = (provider: KafkaBroker['provider']) => ({
  sessionTimeout: provider === 'external' ? 6_000 : 4_000,
  rebalanceTimeout: 3_000,
  heartbeatInterval: 300,
  maxWaitTimeInMs: 200,
});

interface Received {
  key: string;
  value: string;
  partition: number;
}

async function until(what: string, condition: () => boolean, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

describe('startKafka() broker', () => {
  let broker: KafkaBroker;
  let kafka: Kafka;
  const consumers: Consumer[] = [];

  beforeAll(async () => {
    broker = await startKafka();
    await waitForKafka(broker.brokers);
    kafka = new Kafka({ clientId: 'kafka-broker-spec', brokers: broker.brokers, logLevel: logLevel.NOTHING });
  });

  afterEach(async () => {
    await Promise.all(consumers.splice(0).map((c) => c.disconnect().catch(() => {})));
  });

  afterAll(async () => {
    await broker?.stop();
  });

  const topicName = (label: string) => `spec-${label}-${randomUUID().slice(0, 8)}`;

  async function produce(topic: string, messages: Array<{ key: string; value: string }>): Promise<void> {
    const producer = kafka.producer({ allowAutoTopicCreation: true });
    await producer.connect();
    try {
      await producer.send({ topic, messages });
    } finally {
      await producer.disconnect();
    }
  }

  async function consume(groupId: string, topic: string, sink: Received[], autoCommit = true): Promise<Consumer> {
    const consumer = kafka.consumer({ groupId, ...consumerTimings(broker.provider) });
    consumers.push(consumer);
    await consumer.connect();
    await consumer.subscribe({ topics: [topic], fromBeginning: true });
    await consumer.run({
      autoCommit,
      eachMessage: async ({ partition, message }: { partition: number; message: KafkaMessage }) => {
        sink.push({ key: message.key!.toString(), value: message.value!.toString(), partition });
      },
    });
    return consumer;
  }

  it('reports the provider and its bootstrap brokers', () => {
    expect(['external', 'mock', 'testcontainers']).toContain(broker.provider);
    expect(broker.brokers.length).toBeGreaterThan(0);
  });

  it('delivers 50 keyed messages to a consumer group in per-key order', async () => {
    const topic = topicName('order');
    const keys = ['a', 'b', 'c', 'd', 'e'];
    const sent = Array.from({ length: 50 }, (_, i) => ({ key: keys[i % keys.length]!, value: String(i) }));
    await produce(topic, sent);

    const received: Received[] = [];
    await consume('G', topic, received);
    await until('50 messages', () => received.length >= 50);

    expect(received).toHaveLength(50);
    for (const key of keys) {
      const got = received.filter((m) => m.key === key);
      expect(got.map((m) => m.value)).toEqual(sent.filter((m) => m.key === key).map((m) => m.value));
      expect(new Set(got.map((m) => m.partition)).size).toBe(1); // one key -> one partition
    }
    if (broker.provider !== 'external') {
      // Auto-created on first Metadata request: the mock's fixed default is 4 partitions (and the
      // testcontainers broker is configured to match).
      const admin = kafka.admin();
      await admin.connect();
      try {
        const { topics } = await admin.fetchTopicMetadata({ topics: [topic] });
        expect(topics[0]!.partitions).toHaveLength(4);
      } finally {
        await admin.disconnect();
      }
    }
  });

  it('resumes a consumer group after its committed offsets', async () => {
    const topic = topicName('resume');
    const group = `G-resume-${randomUUID().slice(0, 8)}`;
    // The same keys in both batches: every partition holding a first-batch message also holds later
    // second-batch messages, so any re-delivered first-batch message would arrive before them.
    const batch = (n: number) => Array.from({ length: 10 }, (_, i) => ({ key: `k${i}`, value: `b${n}-${i}` }));

    await produce(topic, batch(1));
    const first: Received[] = [];
    const c1 = await consume(group, topic, first, false);
    await until('first batch', () => first.length >= 10);
    // Commit the next offset to read (last + 1) for every partition, explicitly.
    const admin = kafka.admin();
    await admin.connect();
    try {
      const ends = await admin.fetchTopicOffsets(topic);
      await c1.commitOffsets(ends.map(({ partition, offset }) => ({ topic, partition, offset })));
      await c1.disconnect();
      const committed = await admin.fetchOffsets({ groupId: group, topics: [topic] });
      const total = committed[0]!.partitions.reduce((sum, p) => sum + Math.max(0, Number(p.offset)), 0);
      expect(total).toBe(10);
    } finally {
      await admin.disconnect();
    }

    await produce(topic, batch(2));
    const second: Received[] = [];
    await consume(group, topic, second);
    await until('second batch', () => second.length >= 10);

    expect(first.map((m) => m.value).sort()).toEqual(
      batch(1)
        .map((m) => m.value)
        .sort(),
    );
    expect(second.map((m) => m.value).sort()).toEqual(
      batch(2)
        .map((m) => m.value)
        .sort(),
    );
  });

  it('delivers every message to each of two consumer groups', async () => {
    const topic = topicName('fanout');
    await broker.createTopic(topic, 3);
    const sent = Array.from({ length: 20 }, (_, i) => ({ key: `k${i % 7}`, value: String(i) }));
    await produce(topic, sent);

    const a: Received[] = [];
    const b: Received[] = [];
    await Promise.all([consume(`GA-${topic}`, topic, a), consume(`GB-${topic}`, topic, b)]);
    await until('both groups', () => a.length >= 20 && b.length >= 20);

    const values = sent.map((m) => m.value).sort();
    expect(a.map((m) => m.value).sort()).toEqual(values);
    expect(b.map((m) => m.value).sort()).toEqual(values);

    const admin = kafka.admin();
    await admin.connect();
    try {
      const { topics } = await admin.fetchTopicMetadata({ topics: [topic] });
      expect(topics[0]!.partitions).toHaveLength(3); // createTopic()'s explicit partition count
    } finally {
      await admin.disconnect();
    }
  });
});

import {
  startKafka,
  startKafkaProxy,
  startNetLink,
  type KafkaBroker,
  type KafkaProxy,
  type NetLink,
} from '@herald/testing';
import { Kafka, logLevel } from 'kafkajs';
import { closeConnectionOnRequestTimeout } from './request-timeout-fix.js';

/**
 * A Kafka connection that died without a word (libs/testing's NetLink: `partition()` leaves it open
 * at both ends and drops its bytes; `heal()` lets new connections through, the dead ones stay dead):
 * once a request on it times out the connection is closed, so the retry connects again and the
 * message is delivered, instead of every retry timing out on the same dead connection.
 */
const mockOnly = process.env.KAFKA_BROKERS ? describe.skip : describe;

mockOnly('a Kafka request timed out closes its connection', () => {
  let broker: KafkaBroker;
  let proxy: KafkaProxy | undefined;
  const links: NetLink[] = [];

  beforeAll(async () => {
    broker = await startKafka();
    for (const [i] of broker.brokers.entries())
      links.push(
        await startNetLink(() => {
          const b = proxy!.brokers[i]!;
          return { host: '127.0.0.1', port: Number(b.slice(b.lastIndexOf(':') + 1)) };
        }),
      );
    proxy = await startKafkaProxy({
      upstream: broker.brokers,
      createTopic: broker.createTopic.bind(broker),
      advertise: links.map((l) => `${l.host}:${l.port}`),
    });
    closeConnectionOnRequestTimeout();
  }, 60_000);
  afterAll(async () => {
    await Promise.all(links.map((l) => l.stop()));
    await proxy?.stop();
    await broker?.stop();
  });

  it('delivers through a new connection after the one it used went silent', async () => {
    const kafka = new Kafka({
      clientId: 'timeout-spec',
      brokers: links.map((l) => `${l.host}:${l.port}`),
      requestTimeout: 1500,
      connectionTimeout: 1000,
      retry: { initialRetryTime: 100, retries: 4 },
      logLevel: logLevel.NOTHING,
    });
    const topic = `timeout-spec-${Date.now().toString(36)}`;
    await broker.createTopic(topic, 1);
    const producer = kafka.producer({ allowAutoTopicCreation: false });
    await producer.connect();
    try {
      await producer.send({ topic, acks: -1, messages: [{ value: 'before' }] });
      links.forEach((l) => l.partition());
      links.forEach((l) => l.heal()); // the producer's connections stay dead; new ones pass
      const sent = await producer.send({ topic, acks: -1, messages: [{ value: 'after' }] });
      expect(sent[0]?.errorCode).toBe(0);
      expect(links.reduce((n, l) => n + l.counts().dead, 0)).toBeGreaterThan(0);
    } finally {
      await producer.disconnect().catch(() => undefined);
    }
  }, 60_000);
});

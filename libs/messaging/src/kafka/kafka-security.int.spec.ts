import { loadConfig, KafkaClientConfig, kafkaSecurityOf, type KafkaSecuritySettings } from '@herald/core';
import {
  eventually,
  makeTestCertificates,
  startKafka,
  startKafkaProxy,
  testPassword,
  type KafkaBroker,
  type KafkaProxy,
  type TestCertificates,
} from '@herald/testing';
import type { Kafka } from 'kafkajs';
import { createKafka } from './kafka-client.js';

/**
 * TLS and SASL over the Kafka wire protocol. librdkafka's mock cluster has neither listener, so a
 * loopback proxy (libs/testing/src/kafka/kafka-proxy.ts) terminates TLS and answers SaslHandshake /
 * SaslAuthenticate in front of it, checking PLAIN and SCRAM credentials; the clients are Herald's own
 * (`createKafka` with the settings' security), doing real TLS handshakes and SCRAM exchanges.
 */
const mockOnly = process.env.KAFKA_BROKERS ? describe.skip : describe;

async function roundTrip(kafka: Kafka, topic: string): Promise<void> {
  const producer = kafka.producer({ allowAutoTopicCreation: true });
  await producer.connect();
  await producer.send({ topic, acks: -1, messages: [{ key: 'contact-1', value: `hello ${topic}` }] });
  await producer.disconnect();
  const consumer = kafka.consumer({ groupId: `security-spec-${topic}`, sessionTimeout: 6000, maxWaitTimeInMs: 100 });
  const seen: string[] = [];
  try {
    await consumer.connect();
    await consumer.subscribe({ topic, fromBeginning: true });
    await consumer.run({ eachMessage: async ({ message }) => void seen.push(String(message.value)) });
    await eventually(() => seen.includes(`hello ${topic}`), { message: `message consumed back from ${topic}` });
  } finally {
    await consumer.disconnect();
  }
}

const client = (brokers: string[], security: KafkaSecuritySettings) =>
  createKafka({ brokers, clientId: 'security-spec', security });

mockOnly('Kafka TLS and SASL through a loopback TLS/SASL proxy in front of the mock broker', () => {
  let broker: KafkaBroker;
  let certs: TestCertificates;
  const proxies: KafkaProxy[] = [];
  const users = { herald: testPassword() };
  const run = Date.now().toString(36);

  beforeAll(async () => {
    broker = await startKafka();
    certs = makeTestCertificates();
  }, 60_000);

  afterAll(async () => {
    await Promise.all(proxies.map((p) => p.stop()));
    await broker?.stop();
  });

  const proxy = async (options: Omit<Parameters<typeof startKafkaProxy>[0], 'upstream'>) => {
    const p = await startKafkaProxy({ upstream: broker.brokers, ...options });
    proxies.push(p);
    return p;
  };
  const serverTls = () => ({ key: certs.read(certs.serverKeyFile), cert: certs.read(certs.serverCertFile) });

  it('publishes and consumes over TLS with a private CA and a client certificate (mutual TLS), from the settings', async () => {
    const p = await proxy({ tls: { ...serverTls(), ca: certs.read(certs.caFile) } });
    const config = loadConfig(KafkaClientConfig, {
      KAFKA_BROKERS: p.brokers.join(','),
      KAFKA_SSL: 'true',
      KAFKA_SSL_CA_FILE: certs.caFile,
      KAFKA_SSL_CERT_FILE: certs.clientCertFile,
      KAFKA_SSL_KEY_FILE: certs.clientKeyFile,
    });
    await roundTrip(client(p.brokers, kafkaSecurityOf(config)), `security.tls.${run}`);
  }, 60_000);

  it('a broker certificate not signed by the configured CA is refused (verification is on by default)', async () => {
    const p = await proxy({ tls: serverTls() });
    const admin = createKafka({
      brokers: p.brokers,
      clientId: 'security-spec',
      security: { ssl: { rejectUnauthorized: true } },
    }).admin({ retry: { retries: 0 } });
    await expect(admin.connect()).rejects.toThrow(/self[- ]signed|unable to (get|verify)|certificate/i);
  }, 30_000);

  it.each(['plain', 'scram-sha-256', 'scram-sha-512'] as const)(
    'publishes and consumes with SASL %s over TLS',
    async (mechanism) => {
      const p = await proxy({
        tls: serverTls(),
        sasl: { mechanisms: [mechanism.toUpperCase() as 'PLAIN'], users },
      });
      const config = loadConfig(KafkaClientConfig, {
        KAFKA_BROKERS: p.brokers.join(','),
        KAFKA_SSL_CA_FILE: certs.caFile,
        KAFKA_SASL_MECHANISM: mechanism,
        KAFKA_SASL_USERNAME: 'herald',
        KAFKA_SASL_PASSWORD: users.herald,
      });
      await roundTrip(client(p.brokers, kafkaSecurityOf(config)), `security.${mechanism}.${run}`);
      expect(p.refusals()).toBe(0);
    },
    60_000,
  );

  it('publishes and consumes with SASL PLAIN without TLS (SASL_PLAINTEXT)', async () => {
    const p = await proxy({ sasl: { mechanisms: ['PLAIN'], users } });
    await roundTrip(
      client(p.brokers, { sasl: { mechanism: 'plain', username: 'herald', password: users.herald } }),
      `security.sasl-plaintext.${run}`,
    );
  }, 60_000);

  it.each(['plain', 'scram-sha-256', 'scram-sha-512'] as const)(
    'a wrong password is refused with SASL %s, and the error says authentication failed',
    async (mechanism) => {
      const p = await proxy({ tls: serverTls(), sasl: { mechanisms: [mechanism.toUpperCase() as 'PLAIN'], users } });
      const admin = client(p.brokers, {
        ssl: { caFile: certs.caFile, rejectUnauthorized: true },
        sasl: { mechanism, username: 'herald', password: 'not-the-password' },
      }).admin({ retry: { retries: 0 } });
      await expect(admin.connect()).rejects.toThrow(/SASL .*authentication failed/i);
      expect(p.refusals()).toBeGreaterThan(0);
    },
    30_000,
  );
});

/**
 * Against a real cluster: KAFKA_BROKERS with its KAFKA_SSL* / KAFKA_SASL_* settings (docs/operations.md,
 * "Kafka in production"); skipped when no security setting is given.
 */
const secured = process.env.KAFKA_BROKERS && Object.keys(process.env).some((k) => /^KAFKA_(SSL|SASL)/.test(k));
(secured ? describe : describe.skip)('Kafka TLS/SASL against the cluster of KAFKA_BROKERS', () => {
  it('publishes and consumes with the configured security', async () => {
    const config = loadConfig(KafkaClientConfig, process.env);
    const brokers = config.KAFKA_BROKERS.split(',');
    await roundTrip(client(brokers, kafkaSecurityOf(config)), `herald.security-check.${Date.now().toString(36)}`);
  }, 60_000);
});

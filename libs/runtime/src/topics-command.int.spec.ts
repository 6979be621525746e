import { heraldTopics } from '@herald/messaging';
import {
  makeTestCertificates,
  startKafka,
  startKafkaProxy,
  testPassword,
  type KafkaBroker,
  type KafkaProxy,
} from '@herald/testing';
import { runTopicsCommand } from './topics-command.js';

/**
 * `main.js topics [--check]` over the Kafka wire protocol: the mock cluster behind the loopback proxy,
 * which answers CreateTopics (the mock has no such API) and requires TLS and SASL SCRAM-SHA-512, so
 * the command goes through the same security settings as the services.
 */
const mockOnly = process.env.KAFKA_BROKERS ? describe.skip : describe;

mockOnly('the topics command creates and checks every topic Herald uses', () => {
  const brokers: KafkaBroker[] = [];
  const proxies: KafkaProxy[] = [];
  const certs = makeTestCertificates();
  const password = testPassword();
  let stderr: string[] = [];
  let write: typeof process.stderr.write;

  beforeEach(() => {
    stderr = [];
    write = process.stderr.write.bind(process.stderr);
    process.stderr.write = ((chunk: string) => stderr.push(String(chunk)) > 0) as typeof process.stderr.write;
  });
  afterEach(() => {
    process.stderr.write = write;
  });
  afterAll(async () => {
    await Promise.all(proxies.map((p) => p.stop()));
    await Promise.all(brokers.map((b) => b.stop()));
  });

  async function cluster(): Promise<{ broker: KafkaBroker; env: Record<string, string> }> {
    const broker = await startKafka();
    brokers.push(broker);
    const proxy = await startKafkaProxy({
      upstream: broker.brokers,
      tls: { key: certs.read(certs.serverKeyFile), cert: certs.read(certs.serverCertFile) },
      sasl: { mechanisms: ['SCRAM-SHA-512'], users: { herald: password } },
      createTopic: (topic, partitions) => broker.createTopic(topic, partitions),
    });
    proxies.push(proxy);
    const env = {
      KAFKA_BROKERS: proxy.brokers.join(','),
      KAFKA_SSL_CA_FILE: certs.caFile,
      KAFKA_SASL_MECHANISM: 'scram-sha-512',
      KAFKA_SASL_USERNAME: 'herald',
      KAFKA_SASL_PASSWORD: password,
      KAFKA_TOPIC_PARTITIONS: '3',
      KAFKA_REPLICATION_FACTOR: '1',
      LOG_LEVEL: 'silent',
    };
    return { broker, env };
  }

  it('check fails naming the missing topics; create makes them all; check then passes', async () => {
    const { env } = await cluster();
    expect(await runTopicsCommand('gateway', ['--check'], env)).toBe(1);
    expect(stderr).toEqual(expect.arrayContaining(['topic email.sent is missing (wants 3 partitions)\n']));
    expect(stderr).toEqual(expect.arrayContaining(['topic email.sent.dlq is missing (wants 1 partitions)\n']));
    expect(stderr).toHaveLength(heraldTopics().length);

    stderr = [];
    expect(await runTopicsCommand('gateway', [], env)).toBe(0);
    expect(await runTopicsCommand('gateway', ['--check'], env)).toBe(0);
    expect(stderr).toEqual([]);
  }, 120_000);

  it('check names the one absent topic and a topic with fewer partitions than configured', async () => {
    const { broker, env } = await cluster();
    for (const topic of heraldTopics())
      if (topic !== 'email.clicked.dlq') await broker.createTopic(topic, topic === 'event.tracked' ? 2 : 3);
    expect(await runTopicsCommand('gateway', ['--check'], env)).toBe(1);
    expect(stderr.sort()).toEqual([
      'topic email.clicked.dlq is missing (wants 1 partitions)\n',
      'topic event.tracked has 2 partitions, fewer than the 3 configured\n',
    ]);
    // creating adds the absent topic but never alters an existing one: still refused for event.tracked
    stderr = [];
    expect(await runTopicsCommand('gateway', [], env)).toBe(1);
    expect(stderr).toEqual(['topic event.tracked has 2 partitions, fewer than the 3 configured\n']);
    stderr = [];
    expect(
      await runTopicsCommand('gateway', ['--check'], { ...env, KAFKA_TOPIC_PARTITIONS_OVERRIDES: 'event.tracked=2' }),
    ).toBe(0);
  }, 120_000);

  it('an unknown argument is refused with the usage', async () => {
    expect(await runTopicsCommand('gateway', ['--dry-run'], {})).toBe(2);
    expect(stderr.join('')).toMatch(/usage: main.js topics \[--check\]/);
  });
});

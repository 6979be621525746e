/**
 * A Kafka cluster that can go away and come back with its data: librdkafka's mock cluster (or
 * KAFKA_BROKERS) behind the suite's Kafka-protocol proxy (libs/testing), which points every broker
 * address the clients learn at itself. `away()` closes the proxy and every connection through it;
 * `back()` listens again on the same ports. The brokers behind it keep their topics, messages and
 * committed offsets, as a real cluster does across an outage (stopping the mock itself would lose them).
 */
import { startKafka, startKafkaProxy, type KafkaProxy } from '@herald/testing';

export interface AwayableKafka {
  /** What the services are given as KAFKA_BROKERS: the proxy's addresses. */
  brokers: string[];
  away(): Promise<void>;
  back(): Promise<void>;
  stop(): Promise<void>;
}

export async function startAwayableKafka(): Promise<AwayableKafka> {
  const cluster = await startKafka();
  const options = { upstream: cluster.brokers, createTopic: cluster.createTopic.bind(cluster) };
  let proxy: KafkaProxy | undefined = await startKafkaProxy(options);
  const brokers = proxy.brokers;
  const ports = brokers.map((b) => Number(b.slice(b.lastIndexOf(':') + 1)));
  return {
    brokers,
    async away() {
      await proxy?.stop();
      proxy = undefined;
    },
    async back() {
      proxy ??= await startKafkaProxy({ ...options, ports });
    },
    async stop() {
      await proxy?.stop();
      await cluster.stop();
    },
  };
}

import { eventually, startKafka, type KafkaBroker } from '@herald/testing';
import { Kafka, logLevel } from 'kafkajs';
import { startFaultHerald, type FaultHerald } from './herald.js';
import { LoadDriver } from './load.js';
import { runFaultSteps, selectSteps, type FaultStep } from './phases.js';

/**
 * Scenario 2's second half (issue 44): faults inside the Kafka cluster, injected by librdkafka's
 * mock cluster (three brokers; tools/kafka-mock's commands) under the steady load, in turn:
 *  - every partition's leader moved to another broker (clients get NOT_LEADER_OR_FOLLOWER and
 *    must find the new leader);
 *  - request errors: produce requests refused (NOT_LEADER_OR_FOLLOWER, REQUEST_TIMED_OUT — a write
 *    the broker may have kept, so a retry can store it twice — NOT_ENOUGH_REPLICAS), fetches refused,
 *    offset commits answered NOT_COORDINATOR, heartbeats REBALANCE_IN_PROGRESS;
 *  - a broker down for FAULTS_CLUSTER_S seconds (its connections cut, new ones refused) and its
 *    partitions' leadership moved to the others, as a controller's failover does; then back.
 * Invariants: nothing acknowledged lost, no email twice (a message stored twice is applied once:
 * each consumer's inbox), none stuck; the API answers again and the backlog drains within 60 s.
 */
const DOWN_S = Number(process.env.FAULTS_CLUSTER_S ?? 20);
const BROKERS = 3;

/** Kafka API keys and error codes of the injected faults. */
const API = { produce: 0, fetch: 1, offsetCommit: 8, heartbeat: 12 } as const;
const ERROR = {
  notLeader: 6,
  requestTimedOut: 7,
  notCoordinator: 16,
  notEnoughReplicas: 19,
  rebalanceInProgress: 27,
} as const;

describe('faults inside the Kafka cluster (leaders moved, request errors, a broker down) under load', () => {
  let kafka: KafkaBroker;
  let herald: FaultHerald;
  let load: LoadDriver;

  beforeAll(async () => {
    kafka = await startKafka({ brokerCount: BROKERS });
    if (!kafka.inject) throw new Error('this scenario injects faults into the mock cluster: unset KAFKA_BROKERS');
    herald = await startFaultHerald({ brokers: kafka.brokers });
  }, 600_000);
  afterAll(async () => {
    await load?.stop();
    await herald?.stop().catch(() => undefined);
    await kafka?.stop();
  }, 120_000);

  /** Every partition of every topic Herald uses, with its leader now. */
  const partitions = async (): Promise<{ topic: string; partition: number; leader: number }[]> => {
    const admin = new Kafka({ clientId: 'faults-cluster', brokers: kafka.brokers, logLevel: logLevel.NOTHING }).admin();
    await admin.connect();
    try {
      const { topics } = await admin.fetchTopicMetadata();
      return topics
        .filter((t) => !t.name.startsWith('__'))
        .flatMap((t) => t.partitions.map((p) => ({ topic: t.name, partition: p.partitionId, leader: p.leader })));
    } finally {
      await admin.disconnect();
    }
  };
  const inject = (command: string) => kafka.inject!(command);
  /** Broker ids of the mock are 1…BROKERS. */
  const otherThan = (id: number) => (id % BROKERS) + 1;

  const steps = (): FaultStep[] =>
    selectSteps(
      [
        {
          name: 'every leader moved to another broker',
          seconds: 15,
          fault: async () => {
            for (const p of await partitions())
              await inject(`leader ${p.topic} ${p.partition} ${otherThan(Math.max(1, p.leader))}`);
          },
        },
        {
          name: 'request errors (produce, fetch, offset commit, heartbeat)',
          seconds: 15,
          fault: async () => {
            await inject(`errors ${API.produce} ${ERROR.notLeader} 10`);
            await inject(`errors ${API.produce} ${ERROR.requestTimedOut} 10`);
            await inject(`errors ${API.produce} ${ERROR.notEnoughReplicas} 10`);
            await inject(`errors ${API.fetch} ${ERROR.notLeader} 20`);
            await inject(`errors ${API.offsetCommit} ${ERROR.notCoordinator} 10`);
            await inject(`errors ${API.heartbeat} ${ERROR.rebalanceInProgress} 5`);
          },
        },
        {
          name: `broker 2 down ${DOWN_S} s, its leaders failed over`,
          seconds: DOWN_S,
          fault: async () => {
            await inject('down 2');
            for (const p of await partitions()) if (p.leader === 2) await inject(`leader ${p.topic} ${p.partition} 3`);
          },
          heal: () => inject('up 2'),
        },
      ],
      process.env.FAULTS_CLUSTER_ONLY,
    );

  it('loses nothing acknowledged, sends nothing twice, and recovers from each within 60 s', async () => {
    load = new LoadDriver({ url: herald.topology.url, key: herald.api.key, from: herald.from, tag: 'cluster' });
    load.start();
    await eventually(() => load.ledger.length >= 20, { timeoutMs: 60_000, message: 'the load never got going' });
    const { rows, whole } = await runFaultSteps('Kafka cluster', herald, load, steps());
    expect({ lost: whole.lost, stuck: whole.stuck, duplicated: whole.duplicated }).toEqual({
      lost: [],
      stuck: [],
      duplicated: [],
    });
    expect(rows.filter((r) => !r.passed).map((r) => `${r.scenario}: ${r.note ?? ''}`)).toEqual([]);
  }, 3_600_000);
});

import {
  eventually,
  startKafka,
  startKafkaProxy,
  startNetLink,
  testServerUrl,
  type KafkaBroker,
  type KafkaProxy,
  type NetLink,
} from '@herald/testing';
import { startFaultHerald, type FaultHerald } from './herald.js';
import { LoadDriver } from './load.js';
import type { LedgerEntry } from './oracle.js';
import { runFaultSteps, selectSteps, type FaultStep } from './phases.js';

/**
 * Scenario 6 of issue 44: network faults between every service and PostgreSQL, and between every
 * service and Kafka (libs/testing's NetLink: a TCP link of the tests' own on each path; the Kafka proxy
 * advertises the links, so every broker connection goes through one), under the steady load, in
 * turn: 200 ms of latency each way, every connection reset, then a half-open network (connections
 * silently dead, never closed) for FAULTS_NET_S seconds. Invariants: those of the kill scenario
 * (nothing acknowledged lost, no email twice, none stuck); the API answers again within 60 s of
 * the network healing; and the backlog drains within 60 s of the last fault: no consumer stays stuck
 * on a connection that died under it.
 */
const FAULT_S = Number(process.env.FAULTS_NET_S ?? 20);
const LATENCY_MS = 200;

describe('network faults between the services and PostgreSQL or Kafka, under load', () => {
  let herald: FaultHerald;
  let load: LoadDriver;
  let kafka: KafkaBroker;
  let kafkaProxy: KafkaProxy | undefined;
  let pgLink: NetLink;
  const kafkaLinks: NetLink[] = [];

  beforeAll(async () => {
    const server = new URL(testServerUrl());
    pgLink = await startNetLink(() => ({ host: server.hostname, port: Number(server.port || 5432) }));
    kafka = await startKafka();
    for (const [i] of kafka.brokers.entries())
      kafkaLinks.push(
        await startNetLink(() => {
          const b = kafkaProxy!.brokers[i]!;
          return { host: '127.0.0.1', port: Number(b.slice(b.lastIndexOf(':') + 1)) };
        }),
      );
    kafkaProxy = await startKafkaProxy({
      upstream: kafka.brokers,
      createTopic: kafka.createTopic.bind(kafka),
      advertise: kafkaLinks.map((l) => `${l.host}:${l.port}`),
    });
    const before = process.env.HERALD_TEST_DATABASE_URL;
    const linked = new URL(server);
    linked.hostname = pgLink.host;
    linked.port = String(pgLink.port);
    process.env.HERALD_TEST_DATABASE_URL = linked.toString();
    herald = await startFaultHerald({ brokers: kafkaLinks.map((l) => `${l.host}:${l.port}`) }).finally(() => {
      if (before === undefined) delete process.env.HERALD_TEST_DATABASE_URL;
      else process.env.HERALD_TEST_DATABASE_URL = before;
    });
  }, 600_000);
  afterAll(async () => {
    await load?.stop();
    await herald?.stop().catch(() => undefined);
    await Promise.all([pgLink, ...kafkaLinks].filter(Boolean).map((l) => l.stop()));
    await kafkaProxy?.stop();
    await kafka?.stop();
  }, 120_000);

  /**
   * The faults in turn (FAULTS_NET_ONLY=<words>: those whose name holds one of them): for each of
   * PostgreSQL and Kafka, latency, a reset, then the half-open network.
   */
  const steps = (): FaultStep[] => {
    const links: [string, NetLink[]][] = [
      ['PostgreSQL', [pgLink]],
      ['Kafka', kafkaLinks],
    ];
    const all = links.flatMap(([target, ls]) => [
      {
        name: `${target} +${LATENCY_MS} ms each way, ${FAULT_S} s`,
        seconds: FAULT_S,
        fault: () => ls.forEach((l) => l.latency(LATENCY_MS)),
        heal: () => ls.forEach((l) => l.latency(0)),
      },
      { name: `${target} connections reset`, seconds: 5, fault: () => ls.forEach((l) => l.reset()) },
      {
        name: `${target} half-open ${FAULT_S} s`,
        seconds: FAULT_S,
        fault: () => ls.forEach((l) => l.partition()),
        heal: () => ls.forEach((l) => l.heal()),
      },
    ]);
    return selectSteps(all, process.env.FAULTS_NET_ONLY);
  };

  it('loses nothing acknowledged, sends nothing twice, answers again within 60 s and leaves no consumer stuck', async () => {
    load = new LoadDriver({ url: herald.topology.url, key: herald.api.key, from: herald.from, tag: 'net' });
    load.start();
    await eventually(() => load.ledger.length >= 20, { timeoutMs: 60_000, message: 'the load never got going' });
    const { rows, whole, drainedMs } = await runFaultSteps('network', herald, load, steps());
    const unanswered = load.ledger.filter((e: LedgerEntry) => e.status === null).length;
    console.log(
      `network faults: ${load.ledger.length} requests, ${unanswered} without an answer within 10 s, ` +
        `backlog drained ${Math.round(drainedMs / 1000)} s after the load stopped; links: ` +
        [pgLink, ...kafkaLinks].map((l) => JSON.stringify(l.counts())).join(' '),
    );
    expect({ lost: whole.lost, stuck: whole.stuck, duplicated: whole.duplicated }).toEqual({
      lost: [],
      stuck: [],
      duplicated: [],
    });
    expect(rows.filter((r) => !r.passed).map((r) => `${r.scenario}: ${r.note ?? ''}`)).toEqual([]);
  }, 3_600_000);
});

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
import { errorRate, judge, recoveryMs, within, type LedgerEntry } from './oracle.js';
import { recordRow, rowFrom } from './report.js';

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
const STUCK_LIMIT_MS = 60_000;

interface Phase {
  name: string;
  at: number;
  healedAt: number;
}

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
  const steps = () => {
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
    const only = (process.env.FAULTS_NET_ONLY ?? '').split(/[ ,]+/).filter(Boolean);
    return only.length ? all.filter((st) => only.some((w) => st.name.toLowerCase().includes(w.toLowerCase()))) : all;
  };

  /** Every request of the last 3 s answered 2xx: the API is back (or the deadline says it is not). */
  const answeringAgain = () =>
    eventually(
      () => {
        const recent = load.ledger.filter((e) => e.startedAt >= Date.now() - 3_000 && e.endedAt > 0);
        return recent.length >= 10 && recent.every((e) => e.status !== null && e.status < 300);
      },
      { timeoutMs: STUCK_LIMIT_MS + 30_000, intervalMs: 250, message: 'every answer 2xx again' },
    ).catch(() => undefined); // judged by the phase's recovery: none

  it('loses nothing acknowledged, sends nothing twice, answers again within 60 s and leaves no consumer stuck', async () => {
    load = new LoadDriver({ url: herald.topology.url, key: herald.api.key, from: herald.from, tag: 'net' });
    load.start();
    await eventually(() => load.ledger.length >= 20, { timeoutMs: 60_000, message: 'the load never got going' });
    const phases: Phase[] = [];
    for (const step of steps()) {
      const at = Date.now();
      await step.fault();
      await load.answeredSince(at, step.seconds * load.rate);
      await step.heal?.();
      const healedAt = Date.now();
      phases.push({ name: step.name, at, healedAt });
      await answeringAgain();
      console.log(`${step.name}: ${Math.round((Date.now() - healedAt) / 1000)} s to answer again after the heal`);
    }
    await load.stop();
    // the load has stopped after the API answered again: what is left is the consumers' backlog
    const drainedMs = await herald.settle(load.ledger);
    const state = await herald.finalState();
    const rows = phases.map((p, i) => {
      const end = phases[i + 1]?.at ?? Infinity;
      const window = within(load.ledger, p.at, end);
      const recovered = recoveryMs(window, p.healedAt, end);
      const v = judge(window, state);
      const tooSlow = recovered !== null && recovered > STUCK_LIMIT_MS;
      const row = rowFrom(
        `network: ${p.name}`,
        v,
        {
          recoveryMs: recovered === null ? null : recovered + (p.healedAt - p.at),
          errorRate: errorRate(within(load.ledger, p.at, p.healedAt + 1000)),
        },
        { note: tooSlow ? [`answered again ${Math.round(recovered / 1000)} s after the network healed`] : [] },
      );
      return { ...row, passed: row.passed && !tooSlow };
    });
    const last = rows[rows.length - 1]!;
    if (drainedMs > STUCK_LIMIT_MS)
      rows[rows.length - 1] = {
        ...last,
        passed: false,
        note: [last.note, `backlog drained ${Math.round(drainedMs / 1000)} s after the load stopped`]
          .filter(Boolean)
          .join('; '),
      };
    rows.forEach((r) => {
      recordRow(r);
      console.log(JSON.stringify(r));
    });
    const whole = judge(load.ledger, state);
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

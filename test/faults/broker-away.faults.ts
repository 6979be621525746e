import { eventually } from '@herald/testing';
import { startAwayableKafka, type AwayableKafka } from './broker.js';
import { startFaultHerald, type FaultHerald } from './herald.js';
import { LoadDriver } from './load.js';
import { errorRate, judge, within } from './oracle.js';
import { recordRow, rowFrom } from './report.js';

/**
 * Scenario 2 of issue 44: the Kafka cluster away for FAULTS_OUTAGE_S (default 30 s) under the steady
 * load, then back with its data. Invariant: nothing acknowledged is lost (each service's outbox holds
 * its events until the cluster is back), no email twice, and the backlog drains — every acknowledged
 * email final and every acknowledged tracked event carried to segments — within twice the outage.
 * The row's recovery is from the cluster's return to the backlog drained.
 */
const OUTAGE_S = Number(process.env.FAULTS_OUTAGE_S ?? 30);

describe('the Kafka cluster away under load', () => {
  let kafka: AwayableKafka;
  let herald: FaultHerald;
  let load: LoadDriver;

  beforeAll(async () => {
    kafka = await startAwayableKafka();
    herald = await startFaultHerald({ brokers: kafka.brokers });
  }, 600_000);
  afterAll(async () => {
    await load?.stop();
    await herald?.stop();
    await kafka?.stop();
  }, 120_000);

  it(`loses nothing acknowledged during a ${OUTAGE_S} s outage and drains the backlog within twice the outage`, async () => {
    load = new LoadDriver({ url: herald.topology.url, key: herald.api.key, from: herald.from, tag: 'broker' });
    load.start();
    await eventually(() => load.ledger.length >= 20, { timeoutMs: 60_000, message: 'the load never got going' });
    const at = Date.now();
    await kafka.away();
    await load.answeredSince(at, OUTAGE_S * load.rate);
    const backAt = Date.now();
    await kafka.back();
    await load.answeredSince(backAt, 5 * load.rate);
    await load.stop();
    await herald.settle(load.ledger, Math.max(180_000, 4 * OUTAGE_S * 1000));
    const drainedMs = Date.now() - backAt;
    const v = judge(load.ledger, await herald.finalState());
    const withinBound = drainedMs <= 2 * (backAt - at);
    recordRow(
      rowFrom(
        `Kafka away ${Math.round((backAt - at) / 1000)} s`,
        v,
        { recoveryMs: drainedMs, errorRate: errorRate(within(load.ledger, at, backAt)) },
        withinBound ? {} : { note: [`backlog drained in ${Math.round(drainedMs / 1000)} s, over twice the outage`] },
      ),
    );
    expect({ lost: v.lost, stuck: v.stuck, duplicated: v.duplicated }).toEqual({ lost: [], stuck: [], duplicated: [] });
    expect(withinBound).toBe(true);
  }, 3_600_000);
});

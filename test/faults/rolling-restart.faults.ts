import { writeFileSync } from 'node:fs';
import { SERVICES, UPSTREAMS, urlVariableOf } from '@herald/core';
import { eventually, freePort, ServiceProcess } from '@herald/testing';
import { Balancer, type Probe } from './balancer.js';
import { campaignSize, startCampaign, type RunningCampaign } from './campaign.js';
import { startFaultHerald, type FaultHerald } from './herald.js';
import { LoadDriver } from './load.js';
import { errorRate, isAcknowledged, judge, recoveryMs, within } from './oracle.js';
import { recordRow, rowFrom } from './report.js';

/**
 * Scenario 7 of issue 44: a rolling restart of every service in turn under the steady load, as a
 * Kubernetes rolling update does it. Each service runs two instances behind a balancer of its own
 * (test/faults/balancer.ts: round-robin over the instances whose /health/ready answers 200, as
 * kube-proxy over a Service's ready endpoints); every service reaches the others, and the load the
 * gateway, through the balancers only. A roll of one service: a new instance is started and waited
 * ready (the balancer sends it connections), then the oldest gets SIGTERM and is waited out.
 * Invariant: the judge's (nothing acknowledged lost, stuck or sent twice) and fewer than 0.1 % of the
 * requests over the whole roll answered otherwise than 2xx (a refusal, a 5xx or no answer).
 */
const MAX_ERROR_RATE = 0.001;
/** Seconds of load after an old instance has exited, before the next service's roll. */
const GAP_S = Number(process.env.FAULTS_GAP_S ?? 5);
const START_DEADLINE_MS = 300_000;
/** The balancers' readiness probe: deploy/k8s's (3 s timeout, 2 failures), every second instead of 5. */
const PROBE: Probe = { periodMs: Number(process.env.FAULTS_PROBE_MS ?? 1000), timeoutMs: 3000, failures: 2 };
/**
 * SHUTDOWN_DRAIN_MS of every instance: the balancers' time to see readiness fail (two failed probes,
 * each up to its timeout on a loaded machine), as deploy/k8s's preStop sleep is the endpoints'.
 */
const DRAIN_MS = PROBE.failures * PROBE.periodMs + PROBE.timeoutMs;

interface Roll {
  service: string;
  /** When the new instance was spawned, when the old got SIGTERM, and when it had exited (with its code). */
  at: number;
  termAt: number;
  exitedAt: number;
  code: number | null;
}

describe('rolling restart of each service under load', () => {
  const balancers = new Map<string, Balancer>();
  /** Each service's running instances, oldest first. */
  const instances = new Map<string, ServiceProcess[]>();
  let herald: FaultHerald;
  let load: LoadDriver;

  beforeAll(async () => {
    for (const s of SERVICES) balancers.set(s.name, await Balancer.start(s.name, PROBE));
    const peers = {
      ...Object.fromEntries(UPSTREAMS.map((name) => [urlVariableOf(name), balancers.get(name)!.url])),
      GATEWAY_URL: balancers.get('gateway')!.url,
    };
    herald = await startFaultHerald({
      // readiness fails at SIGTERM and the process serves on while the balancers' next probes see it
      env: { APP_URL: balancers.get('gateway')!.url, SHUTDOWN_DRAIN_MS: String(DRAIN_MS) },
      serviceEnv: Object.fromEntries(SERVICES.map((s) => [s.name, peers])),
      // the services reach each other through the balancers: the first instances behind them before any request
      onTopology: async (topology) => {
        for (const s of SERVICES) {
          const first = topology.processOf(s.name);
          instances.set(s.name, [first]);
          balancers.get(s.name)!.add(first.port);
        }
        await Promise.all(SERVICES.map((s) => balancers.get(s.name)!.untilReady(instances.get(s.name)![0]!.port)));
      },
    });
    // the second instances, started together as a rollout's new replicas would be
    await Promise.all(SERVICES.map((s) => addInstance(s.name, instances.get(s.name)![0]!)));
  }, 900_000);
  afterAll(async () => {
    await load?.stop();
    await Promise.allSettled([...instances.values()].flat().map((p) => p.stop()));
    await herald?.stop();
    await Promise.allSettled([...balancers.values()].map((b) => b.stop()));
  }, 180_000);

  /** Starts a new instance of `service` (`like`'s variables, a port of its own) and waits until its balancer sends it connections. */
  async function addInstance(service: string, like: ServiceProcess): Promise<void> {
    const proc = new ServiceProcess(service, await freePort(), like.env);
    instances.get(service)!.push(proc);
    await proc.start({ timeoutMs: START_DEADLINE_MS });
    balancers.get(service)!.add(proc.port);
    await balancers.get(service)!.untilReady(proc.port);
  }

  it('loses nothing, sends nothing twice and answers all but 0.1 % of the requests 2xx', async () => {
    load = new LoadDriver({
      url: balancers.get('gateway')!.url,
      key: herald.api.key,
      from: herald.from,
      tag: 'rolling',
    });
    load.start();
    const campaign: RunningCampaign | undefined =
      campaignSize() > 0 ? await startCampaign(herald, campaignSize(), balancers.get('gateway')!.url) : undefined;
    await eventually(() => load.ledger.length >= 20, { timeoutMs: 60_000, message: 'the load never got going' });
    const rolls: Roll[] = [];
    for (const s of SERVICES) {
      const at = Date.now();
      const [old] = instances.get(s.name)!;
      await addInstance(s.name, old!);
      const termAt = Date.now();
      const code = await old!.stop();
      // an instance that did not stop cleanly: its last output kept for the reader of the table
      if (code !== 0) writeFileSync(`test-results/rolling-restart-${s.name}.log`, old!.output);
      balancers.get(s.name)!.remove(old!.port);
      instances.set(s.name, instances.get(s.name)!.slice(1));
      const exitedAt = Date.now();
      rolls.push({ service: s.name, at, termAt, exitedAt, code });
      await load.answeredSince(exitedAt, GAP_S * load.rate);
    }
    const rollEnd = Date.now();
    await load.stop();
    const stats = await campaign?.finished();
    await herald.settle(load.ledger);
    const state = await herald.finalState();
    const rows = rolls.map((r, i) => {
      const end = rolls[i + 1]?.at ?? rollEnd;
      const window = within(load.ledger, r.at, end);
      const rate = errorRate(window);
      const failed = window.filter((e) => !isAcknowledged(e));
      const row = rowFrom(
        `rolling restart ${r.service}`,
        judge(window, state),
        { recoveryMs: recoveryMs(window, r.at, end), errorRate: rate },
        {
          note: [
            `${window.length} requests, SIGTERM to exit ${r.exitedAt - r.termAt} ms, exit code ${r.code}`,
            ...failed
              .slice(0, 3)
              .map(
                (e) => `${e.kind} ${e.status ?? 'no answer'} at ${e.startedAt - r.termAt} ms of SIGTERM: ${e.error}`,
              ),
          ],
        },
      );
      const passed = row.passed && rate < MAX_ERROR_RATE && r.code === 0;
      recordRow({ ...row, passed });
      return { ...row, passed };
    });
    if (campaign) {
      const c = await campaign.ledger();
      const cv = judge(c.entries, state);
      recordRow(
        rowFrom(
          `campaign through the roll (${campaign.addresses.length})`,
          { ...cv, acknowledged: campaign.addresses.length },
          {},
          {
            lost: c.unsent.length,
            duplicated: c.twice.length,
            note: [`sent ${stats?.sent} of ${stats?.recipients}`],
          },
        ),
      );
      expect({ lost: cv.lost, stuck: cv.stuck, duplicated: cv.duplicated, unsent: c.unsent, twice: c.twice }).toEqual({
        lost: [],
        stuck: [],
        duplicated: [],
        unsent: [],
        twice: [],
      });
    }
    const roll = within(load.ledger, rolls[0]!.at, rollEnd);
    const whole = judge(load.ledger, state);
    expect({ lost: whole.lost, stuck: whole.stuck, duplicated: whole.duplicated }).toEqual({
      lost: [],
      stuck: [],
      duplicated: [],
    });
    expect(rolls.map((r) => [r.service, r.code])).toEqual(rolls.map((r) => [r.service, 0]));
    expect(rows.filter((r) => !r.passed).map((r) => `${r.scenario}: ${r.note ?? ''}`)).toEqual([]);
    expect(errorRate(roll)).toBeLessThan(MAX_ERROR_RATE);
  }, 3_600_000);
});

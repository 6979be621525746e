import { SERVICES } from '@herald/core';
import { eventually } from '@herald/testing';
import { campaignSize, startCampaign, type RunningCampaign } from './campaign.js';
import { startFaultHerald, type FaultHerald } from './herald.js';
import { LoadDriver } from './load.js';
import { errorRate, judge, recoveryMs, within } from './oracle.js';
import { recordRow, rowFrom } from './report.js';

/**
 * Scenario 1 of issue 44: kill −9 of each service in turn under a steady load (/v1/send and
 * /v1/track at FAULTS_RATE), each started again at once. Profile short (default): one kill per
 * service; long: a kill every 30 s for 5 minutes, the services in turn. Invariant: nothing
 * acknowledged is lost, no email reaches the relay twice, none is stuck; an email the kill left in
 * doubt is counted and listed, never resent.
 */
const LONG = process.env.FAULTS_PROFILE === 'long';
/** Seconds of load between a service's restart and the next kill: the window in which a kill's effects show. */
const GAP_S = LONG ? 30 : Number(process.env.FAULTS_GAP_S ?? 5);
const KILLS = LONG ? 10 : SERVICES.length;

describe('kill -9 of each service in turn under load', () => {
  let herald: FaultHerald;
  let load: LoadDriver;

  beforeAll(async () => {
    herald = await startFaultHerald();
  }, 600_000);
  afterAll(async () => {
    await load?.stop();
    await herald?.stop();
  }, 120_000);

  it('loses nothing acknowledged, sends nothing twice, leaves nothing stuck', async () => {
    load = new LoadDriver({ url: herald.topology.url, key: herald.api.key, from: herald.from, tag: 'kill' });
    load.start();
    // a campaign running through the kills (FAULTS_CAMPAIGN recipients), besides the steady load
    const campaign: RunningCampaign | undefined = campaignSize() > 0 ? await startCampaign(herald) : undefined;
    const campaignAt = Date.now();
    await eventually(() => load.ledger.length >= 20, { timeoutMs: 60_000, message: 'the load never got going' });
    const kills: { service: string; at: number; readyAt: number }[] = [];
    for (let i = 0; i < KILLS; i++) {
      const service = SERVICES[i % SERVICES.length]!.name;
      const at = Date.now();
      await herald.topology.restart(service, 'SIGKILL');
      const readyAt = Date.now();
      kills.push({ service, at, readyAt });
      await load.answeredSince(readyAt, GAP_S * load.rate);
    }
    await load.stop();
    const stats = await campaign?.finished();
    await herald.settle(load.ledger);
    const state = await herald.finalState();
    if (campaign) {
      const c = await campaign.ledger();
      const cv = judge(c.entries, state);
      recordRow(
        rowFrom(
          `campaign through the kills (${campaign.addresses.length})`,
          { ...cv, acknowledged: campaign.addresses.length },
          {},
          {
            lost: c.unsent.length,
            duplicated: c.twice.length,
            note: [
              `sent ${stats?.sent} of ${stats?.recipients}, ${Math.round((Date.now() - campaignAt) / 1000)} s`,
              ...c.unsent.slice(0, 3).map((a) => `${a}: no email`),
              ...c.twice.slice(0, 3).map((a) => `${a}: two emails`),
            ],
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
    const verdicts = kills.map((k, i) => {
      const end = kills[i + 1]?.at ?? Infinity;
      const window = within(load.ledger, k.at, end);
      const v = judge(window, state);
      const httpRecovery = recoveryMs(window, k.at, end);
      const row = rowFrom(`kill -9 ${k.service}`, v, {
        recoveryMs: httpRecovery === null ? null : Math.max(httpRecovery, k.readyAt - k.at),
        errorRate: errorRate(within(load.ledger, k.at, k.readyAt + 1000)),
      });
      recordRow(row);
      return row;
    });
    const whole = judge(load.ledger, state);
    expect({ lost: whole.lost, stuck: whole.stuck, duplicated: whole.duplicated }).toEqual({
      lost: [],
      stuck: [],
      duplicated: [],
    });
    expect(verdicts.every((v) => v.recoveryMs !== null)).toBe(true);
  }, 3_600_000);
});

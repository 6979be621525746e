import { LeaseKeeper, leaseRenewalPeriodMs, type Ticker } from './lease-keeper.js';

/** A LeaseKeeper on a recorded store and a manual ticker: `tick()` is one period passing. */
function setup(leaseMs: number, failing = false) {
  const renewals: { ids: string[]; leaseMs: number }[] = [];
  const store = {
    renewLeases: async (ids: string[], ms: number) => {
      if (failing) throw new Error('database down');
      renewals.push({ ids: [...ids].sort(), leaseMs: ms });
    },
  };
  const ticks: { ms: number; tick: () => void; stopped: boolean }[] = [];
  const ticker: Ticker = (ms, tick) => {
    const t = { ms, tick, stopped: false };
    ticks.push(t);
    return () => (t.stopped = true);
  };
  return { keeper: new LeaseKeeper(store, leaseMs, ticker), renewals, ticks };
}

describe('LeaseKeeper: leases of the emails in flight never expire while their worker lives', () => {
  it('renews three times per lease, but at most twice a second', () => {
    expect(leaseRenewalPeriodMs(60_000)).toBe(20_000);
    expect(leaseRenewalPeriodMs(3_001)).toBe(1_000);
    expect(leaseRenewalPeriodMs(900)).toBe(500);
  });

  it('once started, each period renews the lease of every email held, for a whole lease', async () => {
    const { keeper, renewals, ticks } = setup(60_000);
    keeper.start();
    expect(ticks.map((t) => t.ms)).toEqual([20_000]);
    keeper.hold(['eml_b', 'eml_a']);
    ticks[0]!.tick();
    await new Promise((resolve) => setImmediate(resolve));
    expect(renewals).toEqual([{ ids: ['eml_a', 'eml_b'], leaseMs: 60_000 }]);
  });

  it('renews nothing while no email is held, and no longer renews an email released', async () => {
    const { keeper, renewals } = setup(60_000);
    await keeper.renew();
    keeper.hold(['eml_a', 'eml_b']);
    keeper.release(['eml_a']);
    await keeper.renew();
    keeper.release(['eml_b']);
    await keeper.renew();
    expect(renewals).toEqual([{ ids: ['eml_b'], leaseMs: 60_000 }]);
  });

  it('a failed renewal is not thrown: the next period tries again', async () => {
    const { keeper } = setup(60_000, true);
    keeper.hold(['eml_a']);
    await expect(keeper.renew()).resolves.toBeUndefined();
  });

  it('starts one ticker however often started, and stopping stops it', () => {
    const { keeper, ticks } = setup(60_000);
    keeper.start();
    keeper.start();
    expect(ticks).toHaveLength(1);
    keeper.stop();
    expect(ticks[0]!.stopped).toBe(true);
    keeper.stop();
  });
});

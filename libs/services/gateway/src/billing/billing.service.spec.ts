import { DomainError } from '@herald/core';
import type { DataSource, EntityManager } from 'typeorm';
import type { BillingClock } from '../shared/billing-clock.js';
import type { BillingAccount, BillingLimits, BillingUsage } from './billing.entities.js';
import type { Period } from './billing-rules.js';
import { BillingService } from './billing.service.js';
import type { BillingStore } from './billing.store.js';

const NOW = new Date('2026-05-10T12:00:00Z');
const clock: BillingClock = { now: () => NOW, fromReal: (t) => t };

interface World {
  suspended?: boolean;
  caps?: Partial<BillingLimits>;
  account?: Partial<BillingAccount>;
  usage?: Partial<BillingUsage>[];
  /** Whether the store reserves (the row had room). */
  room?: boolean;
}

/** The service over stores answering from `world`. */
function serviceWith(world: World) {
  const reserved: { projectId: string; category: string; period: Period; count: number; cap: number }[] = [];
  // a member of every project (requireMembership reads the membership through the manager)
  const m = { findOneBy: async () => ({ role: 'OWNER' }) } as unknown as EntityManager;
  const db = { manager: m } as unknown as DataSource;
  const store = {
    limits: async () => (world.caps ? (world.caps as BillingLimits) : null),
    admissionOf: async () => ({
      suspension: world.suspended ? { reason: 'bounce_rate', suspendedAt: new Date('2026-05-09T00:00:00Z') } : null,
      caps: { transactional: null, campaign: null, workflow: null, ...world.caps },
    }),
    account: async () => (world.account ? (world.account as BillingAccount) : null),
    usageOf: async () => (world.usage ?? []) as BillingUsage[],
    usage: async () => ((world.usage ?? [])[0] as BillingUsage | undefined) ?? null,
    reserve: async (projectId: string, category: string, period: Period, count: number, cap: number) => {
      reserved.push({ projectId, category, period, count, cap });
      return world.room ?? true;
    },
  } as unknown as BillingStore;
  return { billing: new BillingService(db, clock, store), reserved };
}

const refusal = (p: Promise<unknown>) =>
  p.then(
    () => null,
    (e: unknown) => e as DomainError,
  );

describe('BillingService: admission and consumption', () => {
  it('a suspended project is refused whatever its cap, naming the rate, and nothing is reserved', async () => {
    const { billing, reserved } = serviceWith({ suspended: true, caps: { transactional: 5 } });
    const refused = await refusal(billing.admission('prj_a', 'transactional', 1));
    expect(refused).toMatchObject({ code: 'PROJECT_SENDING_SUSPENDED', kind: 'forbidden' });
    expect(refused!.message).toContain('bounce rate');
    const uncapped = serviceWith({ suspended: true });
    expect(await refusal(uncapped.billing.admission('prj_a', 'transactional', 1))).toMatchObject({
      code: 'PROJECT_SENDING_SUSPENDED',
    });
    expect([reserved, uncapped.reserved]).toEqual([[], []]);
  });

  it('without a cap a send is admitted and nothing is reserved', async () => {
    const { billing, reserved } = serviceWith({ caps: { transactional: null, campaign: 3 } });
    expect(await billing.admission('prj_a', 'transactional', 1_000)).toEqual({ allowed: true });
    expect(reserved).toEqual([]);
  });

  it("a send that fits is reserved in the period of the provider's subscription when it holds now", async () => {
    const period = { start: new Date('2026-04-15T00:00:00Z'), end: new Date('2026-05-15T00:00:00Z') };
    const { billing, reserved } = serviceWith({
      caps: { campaign: 10 },
      account: { periodStart: period.start, periodEnd: period.end },
    });
    expect(await billing.admission('prj_a', 'campaign', 4)).toEqual({ allowed: true });
    expect(reserved).toEqual([{ projectId: 'prj_a', category: 'campaign', period, count: 4, cap: 10 }]);
  });

  it('a reservation the store refuses answers 429 with the larger of sent and admitted and the reset time', async () => {
    const { billing } = serviceWith({ caps: { transactional: 5 }, room: false, usage: [{ used: 2, admitted: 5 }] });
    const refused = await refusal(billing.admission('prj_a', 'transactional', 1));
    expect(refused).toMatchObject({ code: 'BILLING_LIMIT_EXCEEDED', kind: 'limited' });
    expect(refused!.message).toContain('(5 of 5)');
    expect(refused!.message).toContain('2026-06-01T00:00:00.000Z');
  });

  it('more than the cap at once is refused without reserving anything', async () => {
    const { billing, reserved } = serviceWith({ caps: { workflow: 3 } });
    expect(await refusal(billing.admission('prj_a', 'workflow', 4))).toMatchObject({ code: 'BILLING_LIMIT_EXCEEDED' });
    expect(reserved).toEqual([]);
  });

  it("consumption shows the period's counts, admitted and caps per sending category, and the contacts gauge uncapped", async () => {
    const may = new Date('2026-05-01T00:00:00Z');
    const { billing } = serviceWith({
      caps: { transactional: 100, campaign: null, workflow: 7 },
      usage: [
        { category: 'transactional', periodStart: may, used: 4, admitted: 6 },
        { category: 'events', periodStart: may, used: 12, admitted: 0 },
        { category: 'contacts', periodStart: new Date(0), used: 30, admitted: 0 },
      ],
    });
    const view = await billing.consumption('usr_1', 'prj_a');
    expect([view.periodStart, view.periodEnd]).toEqual(['2026-05-01T00:00:00.000Z', '2026-06-01T00:00:00.000Z']);
    expect(
      Object.fromEntries(Object.entries(view.categories).map(([k, l]) => [k, [l.used, l.admitted, l.cap]])),
    ).toEqual({
      transactional: [4, 6, 100],
      campaign: [0, 0, null],
      workflow: [0, 0, 7],
      events: [12, undefined, null],
      contacts: [30, undefined, null],
    });
  });
});

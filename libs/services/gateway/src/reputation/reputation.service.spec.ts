import type { EventEnvelope } from '@herald/contracts';
import type { DomainError } from '@herald/core';
import type { Outbox } from '@herald/messaging';
import type { DataSource, EntityManager } from 'typeorm';
import { GatewaySettings } from '../gateway.settings.js';
import type { ProjectMail } from '../projects/project-mail.js';
import type { BillingClock } from '../shared/billing-clock.js';
import type { WindowCounts } from './reputation-rules.js';
import { ReputationService } from './reputation.service.js';
import type { ReputationStore } from './reputation.store.js';
import type { SendingSuspension } from './sending-suspension.entity.js';

const NOW = new Date('2026-05-20T12:00:00Z');
const clock: BillingClock = { now: () => NOW, fromReal: (t) => t };
const quiet: WindowCounts = { sends: 500, bounces: 0, complaints: 0 };

interface World {
  active?: Partial<SendingSuspension> | null;
  week?: WindowCounts;
  last?: WindowCounts;
  /** Whether the store records the suspension (none active yet). */
  recorded?: boolean;
  role?: string;
}

/** The service over a store answering from `world`; what it recorded, published and emailed, in order. */
function serviceWith(world: World) {
  const suspensions: Partial<SendingSuspension>[] = [];
  const lifts: unknown[][] = [];
  const windowsAsked: { since: Date; lastSends: number }[] = [];
  const published: EventEnvelope[] = [];
  const notices: string[] = [];
  const m = { findOneBy: async () => ({ role: world.role ?? 'OWNER' }) } as unknown as EntityManager;
  const db = { manager: m, transaction: (fn: (tx: EntityManager) => unknown) => fn(m) } as unknown as DataSource;
  const store = {
    active: async () => (world.active ? (world.active as SendingSuspension) : null),
    windows: async (_m: EntityManager, _p: string, since: Date, lastSends: number) => {
      windowsAsked.push({ since, lastSends });
      return { since: world.week ?? quiet, last: world.last ?? quiet };
    },
    suspend: async (_m: EntityManager, s: SendingSuspension) => (suspensions.push(s), world.recorded ?? true),
    lift: async (...args: unknown[]) => void lifts.push(args.slice(1)),
    recent: async () => [],
    byDomain: async () => [],
  } as unknown as ReputationStore;
  const outbox = { add: async (_m: EntityManager, e: EventEnvelope) => void published.push(e) } as unknown as Outbox;
  const mail = {
    notifyOwners: async (_m: EntityManager, projectId: string, subject: string) =>
      void notices.push(`${projectId}: ${subject}`),
  } as unknown as ProjectMail;
  const reputation = new ReputationService(db, new GatewaySettings(), clock, outbox, mail, store);
  return { reputation, m, suspensions, lifts, windowsAsked, published, notices };
}

const refusal = (p: Promise<unknown>) =>
  p.then(
    () => null,
    (e: unknown) => e as DomainError,
  );

describe('ReputationService: suspensions from the rates', () => {
  it('a breach records the suspension, publishes project.sending.suspended and emails the owners', async () => {
    const { reputation, m, suspensions, windowsAsked, published, notices } = serviceWith({
      last: { sends: 1000, bounces: 10, complaints: 4 },
    });
    await reputation.evaluate(m, 'prj_a');
    expect(windowsAsked).toEqual([{ since: new Date('2026-05-13T12:00:00Z'), lastSends: 1000 }]);
    expect(suspensions).toEqual([
      expect.objectContaining({
        projectId: 'prj_a',
        reason: 'complaint_rate',
        sends: 1000,
        complaintRate: 0.004,
        bounceRate: 0.01,
        suspendedAt: NOW,
      }),
    ]);
    expect(published.map((e) => [e.type, e.payload])).toEqual([
      [
        'project.sending.suspended',
        {
          suspensionId: suspensions[0]!.id,
          reason: 'complaint_rate',
          bounceRate: 0.01,
          complaintRate: 0.004,
          at: NOW.toISOString(),
        },
      ],
    ]);
    expect(notices).toEqual(['prj_a: Herald: sending is suspended for your project']);
  });

  it('a breach another transaction recorded first publishes and emails nothing', async () => {
    const { reputation, m, published, notices } = serviceWith({
      week: { sends: 200, bounces: 40, complaints: 0 },
      recorded: false,
    });
    await reputation.evaluate(m, 'prj_a');
    expect([published, notices]).toEqual([[], []]);
  });

  it('nothing is judged while a suspension is active, and rates under the thresholds record nothing', async () => {
    const active = serviceWith({ active: { id: 'sus_1' }, week: { sends: 200, bounces: 100, complaints: 0 } });
    await active.reputation.evaluate(active.m, 'prj_a');
    expect([active.windowsAsked, active.suspensions]).toEqual([[], []]);
    const fine = serviceWith({ week: { sends: 1000, bounces: 60, complaints: 2 } }); // warnings only
    await fine.reputation.evaluate(fine.m, 'prj_a');
    expect(fine.suspensions).toEqual([]);
  });

  it('an OWNER lifts the active suspension: recorded and published; with none, PROJECT_NOT_SUSPENDED', async () => {
    const { reputation, lifts, published } = serviceWith({
      active: { id: 'sus_1', projectId: 'prj_a', reason: 'bounce_rate', suspendedAt: NOW, liftedAt: null },
    });
    expect(await reputation.lift('usr_owner', 'prj_a')).toMatchObject({
      id: 'sus_1',
      liftedAt: NOW.toISOString(),
      liftedBy: 'usr_owner',
    });
    expect(lifts).toEqual([['sus_1', NOW, 'usr_owner']]);
    expect(published.map((e) => [e.type, e.payload])).toEqual([
      [
        'project.sending.resumed',
        { suspensionId: 'sus_1', reason: 'lifted', at: NOW.toISOString(), liftedBy: 'usr_owner' },
      ],
    ]);
    expect(await refusal(serviceWith({}).reputation.lift('usr_owner', 'prj_a'))).toMatchObject({
      code: 'PROJECT_NOT_SUSPENDED',
    });
    expect(
      await refusal(serviceWith({ role: 'ADMIN', active: { id: 'sus_2' } }).reputation.lift('usr_admin', 'prj_a')),
    ).toMatchObject({
      code: 'INSUFFICIENT_ROLE',
    });
  });
});

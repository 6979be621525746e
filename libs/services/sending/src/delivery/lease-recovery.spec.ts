import type { EmailLifecycleV1, EventEnvelope } from '@herald/contracts';
import type { EntityManager } from 'typeorm';
import type { Email } from '../emails/email.entity.js';
import { LeaseRecovery, recoveryPeriodMs } from './lease-recovery.js';

const recoveredEmail = {
  id: 'eml_1',
  projectId: 'prj_1',
  contactId: 'cnt_1',
  toEmail: 'a@example.com',
  fromEmail: 'news@example.test',
  subject: 'Hi',
  templateId: null,
  origin: 'api',
  messageId: 'msg-1@example.test',
} as unknown as Email;

/** A LeaseRecovery on a scripted store and a manual clock; records what was published. */
function setup(leaseMs: number) {
  const clock = { now: 1_000_000 };
  const published: EventEnvelope<EmailLifecycleV1>[][] = [];
  let recoveries = 0;
  const m = {} as EntityManager;
  const store = {
    transaction: <T>(work: (m: EntityManager) => Promise<T>) => work(m),
    recoverExpired: async () => {
      recoveries++;
      return { requeued: 2, sent: [recoveredEmail] };
    },
  };
  const history = {
    publish: async (_m: EntityManager, events: EventEnvelope<EmailLifecycleV1>[]) => void published.push(events),
  };
  const recovery = new LeaseRecovery(store, history, leaseMs, () => clock.now);
  return { recovery, clock, published, recoveries: () => recoveries };
}

describe('LeaseRecovery: a stopped worker’s emails are recovered at the start, then periodically', () => {
  it('looks twice per lease, but at least every five seconds', () => {
    expect(recoveryPeriodMs(60_000)).toBe(5000);
    expect(recoveryPeriodMs(4000)).toBe(2000);
  });

  it('recovers on the first loop, then not again until its period has passed', async () => {
    const { recovery, clock, recoveries } = setup(4000);
    await recovery.recoverIfDue();
    expect(recoveries()).toBe(1);
    clock.now += 2000;
    await recovery.recoverIfDue();
    expect(recoveries()).toBe(1);
    clock.now += 1;
    await recovery.recoverIfDue();
    expect(recoveries()).toBe(2);
  });

  it('an email recovered as sent gets its email.sent with its Message-ID; a requeued one gets no event', async () => {
    const { recovery, published } = setup(60_000);
    await recovery.recover();
    expect(published).toHaveLength(1);
    expect(published[0]!.map((e) => [e.type, e.projectId, e.payload.emailId, e.payload.messageId])).toEqual([
      ['email.sent', 'prj_1', 'eml_1', 'msg-1@example.test'],
    ]);
  });
});

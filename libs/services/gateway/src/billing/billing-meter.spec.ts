import type { EmailLifecycleV1, EventEnvelope } from '@herald/contracts';
import type { Outbox } from '@herald/messaging';
import type { EntityManager } from 'typeorm';
import type { ProjectMail } from '../projects/project-mail.js';
import type { BillingClock } from '../shared/billing-clock.js';
import { BillingMeter, type MeteredEvent } from './billing-meter.js';
import type { BillingLimits } from './billing.entities.js';
import type { Period } from './billing-rules.js';
import type { BillingStore } from './billing.store.js';
import type { MeteredEmailStore, MeteredSend } from './metered-email.store.js';

const m = {} as EntityManager;
/** The billing clock runs an hour ahead of real time. */
const HOUR = 3_600_000;
const clock: BillingClock = { now: () => new Date(), fromReal: (real) => new Date(real.getTime() + HOUR) };
const iso = (p: Period) => [p.start.toISOString(), p.end.toISOString()];

/** The stores, the outbox and the owners' mail as the meter uses them: what they were asked, in order. */
function meterWith(options: { known?: string[]; caps?: Partial<BillingLimits>; noticed?: boolean } = {}) {
  const recorded: { sends: MeteredSend[]; bounced: boolean }[] = [];
  const complaints: MeteredSend[] = [];
  const added: { projectId: string; metered: string; n: number; period: string[] }[] = [];
  const used = new Map<string, number>();
  const notices: { projectId: string; subject: string }[] = [];
  const published: EventEnvelope[] = [];
  const emailStore = {
    record: async (_m: EntityManager, sends: MeteredSend[], bounced: boolean) => {
      recorded.push({ sends, bounced });
      return sends.map((s) => s.emailId).filter((id) => !options.known?.includes(id));
    },
    complaint: async (_m: EntityManager, send: MeteredSend) => void complaints.push(send),
  } as unknown as MeteredEmailStore;
  const store = {
    account: async () => null,
    limits: async () => (options.caps ? (options.caps as BillingLimits) : null),
    add: async (_m: EntityManager, projectId: string, metered: string, n: number, period: Period) => {
      added.push({ projectId, metered, n, period: iso(period) });
      const key = `${projectId}|${metered}|${period.start.toISOString()}`;
      used.set(key, (used.get(key) ?? 0) + n);
      return used.get(key)!;
    },
    markNotice: async () => options.noticed !== true,
  } as unknown as BillingStore;
  const mail = {
    notifyOwners: async (_m: EntityManager, projectId: string, subject: string) =>
      void notices.push({ projectId, subject }),
  } as unknown as ProjectMail;
  const outbox = { add: async (_m: EntityManager, e: EventEnvelope) => void published.push(e) } as unknown as Outbox;
  const meter = new BillingMeter(outbox, mail, clock, store, emailStore);
  return { meter, recorded, complaints, added, notices, published };
}

const event = (projectId: string, emailId: string, origin: string | undefined, at: string): MeteredEvent => ({
  projectId,
  payload: { emailId, email: 'a@example.com', origin, fromDomain: 'News.Example.COM' } as EmailLifecycleV1,
  at: new Date(at),
});
const MAY = ['2026-05-01T00:00:00.000Z', '2026-06-01T00:00:00.000Z'];
const JUNE = ['2026-06-01T00:00:00.000Z', '2026-07-01T00:00:00.000Z'];

describe('BillingMeter: consumption from events', () => {
  it('records a run once per email, on the billing clock, and counts only the emails new to the store, per project, category and month', async () => {
    const { meter, recorded, added } = meterWith({ known: ['eml_2'] });
    await meter.emails(
      m,
      [
        event('prj_b', 'eml_1', 'workflow', '2026-05-31T23:30:00Z'), // on the billing clock: June
        event('prj_a', 'eml_2', 'campaign', '2026-05-10T00:00:00Z'),
        event('prj_a', 'eml_3', 'api', '2026-05-10T00:00:00Z'),
        event('prj_a', 'eml_3', 'api', '2026-05-11T00:00:00Z'),
        event('prj_a', 'eml_4', undefined, '2026-05-12T00:00:00Z'),
        event('prj_a', '', 'api', '2026-05-12T00:00:00Z'),
      ],
      true,
    );
    expect(recorded).toEqual([
      {
        bounced: true,
        sends: [
          {
            emailId: 'eml_1',
            projectId: 'prj_b',
            category: 'workflow',
            at: new Date('2026-06-01T00:30:00Z'),
            senderDomain: 'news.example.com',
          },
          expect.objectContaining({ emailId: 'eml_2', category: 'campaign' }),
          expect.objectContaining({
            emailId: 'eml_3',
            category: 'transactional',
            at: new Date('2026-05-10T01:00:00Z'),
          }),
          expect.objectContaining({ emailId: 'eml_4', category: 'transactional' }),
        ],
      },
    ]);
    expect(added).toEqual([
      { projectId: 'prj_a', metered: 'transactional', n: 2, period: MAY },
      { projectId: 'prj_b', metered: 'workflow', n: 1, period: JUNE },
    ]);
  });

  it("a run naming no email of Herald's records and counts nothing", async () => {
    const { meter, recorded, added } = meterWith();
    await meter.emails(m, [event('prj_a', '', 'api', '2026-05-10T00:00:00Z')], false);
    expect([recorded, added]).toEqual([[], []]);
  });

  it('crossing 80% then 100% of a cap emails the owners once at each, and publishes billing.limit.reached at 100% only', async () => {
    const { meter, notices, published } = meterWith({ caps: { transactional: 10 } });
    const run = (from: number, n: number) =>
      meter.emails(
        m,
        Array.from({ length: n }, (_, i) => event('prj_a', `eml_${from + i}`, 'api', '2026-05-10T00:00:00Z')),
        false,
      );
    await run(0, 7);
    expect(notices).toEqual([]);
    await run(7, 1);
    await run(8, 2);
    expect(notices.map((n) => n.subject)).toEqual([
      'Herald: 80% of the transactional email cap is used',
      'Herald: the transactional email cap is reached',
    ]);
    expect(published.map((e) => [e.type, e.projectId, e.payload])).toEqual([
      [
        'billing.limit.reached',
        'prj_a',
        { category: 'transactional', cap: 10, used: 10, periodStart: MAY[0], periodEnd: MAY[1] },
      ],
    ]);
  });

  it('a level the store already marked this period emails and publishes nothing', async () => {
    const { meter, notices, published } = meterWith({ caps: { transactional: 1 }, noticed: true });
    await meter.email(m, 'prj_a', event('prj_a', 'eml_1', 'api', '2026-05-10T00:00:00Z').payload, new Date(), false);
    expect([notices, published]).toEqual([[], []]);
  });

  it('a complaint is recorded on the billing clock with its category and sender domain; one naming no email is not', async () => {
    const { meter, complaints } = meterWith();
    const e = event('prj_a', 'eml_9', 'campaign', '2026-05-10T00:00:00Z');
    await meter.complaint(m, 'prj_a', e.payload, e.at);
    await meter.complaint(m, 'prj_a', { ...e.payload, emailId: '' }, e.at);
    expect(complaints).toEqual([
      {
        emailId: 'eml_9',
        projectId: 'prj_a',
        category: 'campaign',
        at: new Date('2026-05-10T01:00:00Z'),
        senderDomain: 'news.example.com',
      },
    ]);
  });

  it('tracked events count in the period each happened in (on the billing clock); contacts in the gauge', async () => {
    const { meter, added } = meterWith();
    await meter.trackedEvents(m, 'prj_a', [
      new Date('2026-05-20T00:00:00Z'),
      new Date('2026-05-31T23:30:00Z'),
      new Date('2026-05-21T00:00:00Z'),
    ]);
    await meter.contacts(m, 'prj_a', -3);
    expect(added).toEqual([
      { projectId: 'prj_a', metered: 'events', n: 2, period: MAY },
      { projectId: 'prj_a', metered: 'events', n: 1, period: JUNE },
      {
        projectId: 'prj_a',
        metered: 'contacts',
        n: -3,
        period: ['1970-01-01T00:00:00.000Z', '9999-12-31T00:00:00.000Z'],
      },
    ]);
  });
});

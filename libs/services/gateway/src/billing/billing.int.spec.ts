import { DomainError } from '@herald/core';
import { Outbox } from '@herald/messaging';
import { createServiceDataSource, migrateServiceSchema } from '@herald/persistence';
import { createTestDatabase, type TestDatabase } from '@herald/testing';
import type { DataSource } from 'typeorm';
import { GATEWAY } from '../consumer.js';
import { gatewaySchema } from '../gateway.module.js';
import type { ProjectMail } from '../projects/project-mail.js';
import type { BillingClock } from '../shared/billing-clock.js';
import { BillingMeter } from './billing-meter.js';
import { BillingService } from './billing.service.js';
import { BillingStore } from './billing.store.js';
import { MeteredEmailStore } from './metered-email.store.js';

/**
 * Consumption, caps and their notices against real PostgreSQL, with the clock injected: the meter
 * writes in the transaction of the event it applies (as the inbox handlers do), the service answers
 * the sending service's admission question.
 */
describe('billing meter and caps (PostgreSQL, injected clock)', () => {
  let db: TestDatabase;
  let ds: DataSource;
  let meter: BillingMeter;
  let billing: BillingService;
  const notices: { projectId: string; subject: string }[] = [];
  // event times are given on this clock already: fromReal is the identity
  const clock: BillingClock & { at: Date } = {
    at: new Date('2026-11-15T12:00:00Z'),
    now: () => clock.at,
    fromReal: (t) => t,
  };
  let seq = 0;

  beforeAll(async () => {
    db = await createTestDatabase();
    ds = await createServiceDataSource(gatewaySchema, db.url, 12).initialize();
    await migrateServiceSchema(ds);
    const outbox = new Outbox(GATEWAY, ds);
    const mail = {
      notifyOwners: async (_m: unknown, projectId: string, subject: string) =>
        void notices.push({ projectId, subject }),
    } as unknown as ProjectMail;
    const store = new BillingStore(ds);
    meter = new BillingMeter(outbox, mail, clock, store, new MeteredEmailStore());
    billing = new BillingService(ds, clock, store);
  });
  afterAll(async () => {
    await ds.destroy();
    await db.drop();
  });

  const project = () => `prj_billing_${++seq}`;
  const sent = (projectId: string, emailId: string, at = clock.now(), bounced = false) =>
    ds.transaction((m) => meter.email(m, projectId, { emailId, email: 'a@example.com', origin: 'api' }, at, bounced));
  /** The transactional count of the clock's calendar month. */
  const used = async (projectId: string): Promise<number> => {
    const rows: { used: number }[] = await ds.query(
      `SELECT used FROM gateway.billing_usage WHERE project_id = $1 AND category = 'transactional' AND period_start = $2`,
      [projectId, new Date(Date.UTC(clock.at.getUTCFullYear(), clock.at.getUTCMonth(), 1))],
    );
    return rows[0]?.used ?? 0;
  };
  const refusal = async (projectId: string, count = 1): Promise<DomainError | null> => {
    try {
      await billing.admission(projectId, 'transactional', count);
      return null;
    } catch (err) {
      return err as DomainError;
    }
  };

  it('an email counts once, whatever arrives for it and however often (sent, bounced, redelivered)', async () => {
    const p = project();
    await sent(p, 'eml_once_1');
    await sent(p, 'eml_once_1');
    await sent(p, 'eml_once_1', clock.now(), true);
    await sent(p, 'eml_once_2', clock.now(), true);
    expect(await used(p)).toBe(2);
  });

  it('a delivered run of events counts each new email once (duplicates in the run, emails already counted)', async () => {
    const p = project();
    await sent(p, 'eml_run_known');
    const e = (emailId: string) => ({ projectId: p, payload: { emailId, email: 'a@example.com' }, at: clock.now() });
    await ds.transaction((m) =>
      meter.emails(m, [e('eml_run_1'), e('eml_run_2'), e('eml_run_1'), e('eml_run_known'), e('')], false),
    );
    expect(await used(p)).toBe(3);
  });

  it('a cap refuses once the period’s usage reaches it, naming the category and the reset, and accepts again in the next period', async () => {
    const p = project();
    await ds.transaction((m) => billing.writeCaps(m, p, { transactional: 2 }, 'usr_test'));
    expect(await refusal(p, 2)).toBeNull();
    expect(await refusal(p, 3)).toMatchObject({ code: 'BILLING_LIMIT_EXCEEDED', kind: 'limited' });
    await sent(p, 'eml_cap_1');
    await sent(p, 'eml_cap_2');
    const refused = await refusal(p);
    expect(refused).toMatchObject({ code: 'BILLING_LIMIT_EXCEEDED', kind: 'limited' });
    expect(refused!.message).toContain('transactional');
    expect(refused!.message).toContain('2026-12-01T00:00:00.000Z');
    expect(refused!.details.retryAfterSeconds).toBe((Date.parse('2026-12-01T00:00:00Z') - clock.at.getTime()) / 1000);

    const before = clock.at;
    clock.at = new Date('2026-12-01T00:00:00Z');
    try {
      expect(await refusal(p)).toBeNull();
      await sent(p, 'eml_cap_3');
      expect(await used(p)).toBe(1);
    } finally {
      clock.at = before;
    }
  });

  it('a burst is held to the cap before any of it is sent: concurrent admissions reserve, and only the cap’s worth pass', async () => {
    const p = project();
    await ds.transaction((m) => billing.writeCaps(m, p, { transactional: 5 }, 'usr_test'));
    const answers = await Promise.all(Array.from({ length: 10 }, () => refusal(p)));
    expect(answers.filter((a) => a === null)).toHaveLength(5);
    expect(answers.filter((a) => a?.code === 'BILLING_LIMIT_EXCEEDED')).toHaveLength(5);
    expect(await used(p)).toBe(0);
    // as the admitted emails are sent, the count catches up with the reservation: still refused
    for (let i = 0; i < 5; i++) await sent(p, `eml_burst_${p}_${i}`);
    expect(await refusal(p)).toMatchObject({ code: 'BILLING_LIMIT_EXCEEDED' });
  });

  it('concurrent sends crossing 80% and 100% email the owners once each and publish billing.limit.reached once', async () => {
    const p = project();
    await ds.transaction((m) => billing.writeCaps(m, p, { transactional: 5 }, 'usr_test'));
    await Promise.all(Array.from({ length: 10 }, (_, i) => sent(p, `eml_race_${p}_${i}`)));
    expect(await used(p)).toBe(10);
    expect(
      notices
        .filter((n) => n.projectId === p)
        .map((n) => n.subject)
        .sort(),
    ).toEqual(['Herald: 80% of the transactional email cap is used', 'Herald: the transactional email cap is reached']);
    const reached: { n: number }[] = await ds.query(
      `SELECT count(*)::int AS n FROM gateway.outbox WHERE topic = 'billing.limit.reached' AND envelope->>'projectId' = $1`,
      [p],
    );
    expect(reached[0]!.n).toBe(1);
  });

  it('without a cap nothing is refused, and a lowered cap refuses at once (the owner answers, not a copy)', async () => {
    const p = project();
    await sent(p, 'eml_nocap_1');
    expect(await refusal(p, 1_000_000)).toBeNull();
    await ds.transaction((m) => billing.writeCaps(m, p, { transactional: 1 }, 'usr_test'));
    expect(await refusal(p)).toMatchObject({ code: 'BILLING_LIMIT_EXCEEDED' });
    await ds.transaction((m) => billing.writeCaps(m, p, { transactional: null }, 'usr_test'));
    expect(await refusal(p)).toBeNull();
  });
});

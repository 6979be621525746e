import type { DomainError } from '@herald/core';
import { Outbox } from '@herald/messaging';
import { createServiceDataSource, migrateServiceSchema } from '@herald/persistence';
import { createTestDatabase, type TestDatabase } from '@herald/testing';
import type { DataSource } from 'typeorm';
import type { BillingClock } from '../shared/billing-clock.js';
import { BillingMeter } from '../billing/billing-meter.js';
import { BillingService } from '../billing/billing.service.js';
import { BillingStore } from '../billing/billing.store.js';
import { MeteredEmailStore } from '../billing/metered-email.store.js';
import { GATEWAY } from '../consumer.js';
import { gatewaySchema } from '../gateway.module.js';
import { GatewaySettings } from '../gateway.settings.js';
import { Membership } from '../projects/membership.entity.js';
import type { ProjectMail } from '../projects/project-mail.js';
import { ReputationService } from './reputation.service.js';
import { ReputationStore } from './reputation.store.js';

/** Sender reputation against real PostgreSQL: complaints past 0.3% suspend once; an OWNER's lift restarts the windows. */
describe('sender reputation (PostgreSQL)', () => {
  let db: TestDatabase;
  let ds: DataSource;
  let meter: BillingMeter;
  let reputation: ReputationService;
  const notices: string[] = [];
  const clock: BillingClock = { now: () => new Date(), fromReal: (t) => t };
  const project = 'prj_reputation_1';

  beforeAll(async () => {
    db = await createTestDatabase();
    ds = await createServiceDataSource(gatewaySchema, db.url, 4).initialize();
    await migrateServiceSchema(ds);
    const outbox = new Outbox(GATEWAY, ds);
    const mail = {
      notifyOwners: async (_m: unknown, projectId: string, subject: string) =>
        void notices.push(`${projectId}: ${subject}`),
    } as unknown as ProjectMail;
    meter = new BillingMeter(outbox, mail, clock, new BillingStore(ds), new MeteredEmailStore());
    reputation = new ReputationService(ds, new GatewaySettings(), clock, outbox, mail, new ReputationStore());
    await ds.getRepository(Membership).insert([
      { projectId: project, userId: 'usr_owner', role: 'OWNER' },
      { projectId: project, userId: 'usr_admin', role: 'ADMIN' },
    ]);
  });
  afterAll(async () => {
    await ds.destroy();
    await db.drop();
  });

  const suspendedEvents = async () =>
    (
      (await ds.query(
        `SELECT count(*)::int AS n FROM gateway.outbox WHERE topic = 'project.sending.suspended' AND envelope->>'projectId' = $1`,
        [project],
      )) as { n: number }[]
    )[0]!.n;

  const complain = (i: number) =>
    ds.transaction(async (m) => {
      await meter.complaint(m, project, { emailId: `eml_rep_${i}`, email: `r${i}@example.com` }, new Date());
      await reputation.evaluate(m, project);
    });
  const refusal = async () => {
    try {
      await new BillingService(ds, clock, new BillingStore(ds)).admission(project, 'transactional', 1);
      return null;
    } catch (err) {
      return (err as DomainError).code;
    }
  };

  it('warns past 0.1% and suspends past 0.3% complaints (1,000 sends), once, with the rates recorded; only an OWNER lifts it, and the windows restart', async () => {
    const sends = Array.from({ length: 1000 }, (_, i) => ({
      projectId: project,
      payload: { emailId: `eml_rep_${i}`, email: `r${i}@example.com`, fromDomain: 'news.example.com' },
      at: new Date(),
    }));
    await ds.transaction((m) => meter.emails(m, sends, false));
    await complain(0);
    await complain(1);
    expect((await reputation.security('usr_admin', project)).status).toBe('warning');
    await complain(2);
    expect(await suspendedEvents()).toBe(0); // 0.3% is the threshold itself: not past it
    await complain(3);
    expect(await suspendedEvents()).toBe(1);
    await complain(4);
    expect(await suspendedEvents()).toBe(1);
    expect(await refusal()).toBe('PROJECT_SENDING_SUSPENDED');
    expect(notices).toEqual([`${project}: Herald: sending is suspended for your project`]);

    const state = await reputation.security('usr_admin', project);
    expect(state).toMatchObject({
      status: 'suspended',
      suspension: { reason: 'complaint_rate', complaintRate: 0.004, sends: 1000, liftedAt: null },
    });
    expect(state.domains).toEqual([
      { domain: 'news.example.com', sends: 1000, bounces: 0, complaints: 5, bounceRate: 0, complaintRate: 0.005 },
    ]);

    await expect(reputation.lift('usr_admin', project)).rejects.toMatchObject({ code: 'INSUFFICIENT_ROLE' });
    const lifted = await reputation.lift('usr_owner', project);
    expect(lifted).toMatchObject({ liftedBy: 'usr_owner' });
    await expect(reputation.lift('usr_owner', project)).rejects.toMatchObject({ code: 'PROJECT_NOT_SUSPENDED' });
    expect(await refusal()).toBeNull();
    await complain(5); // an old email's complaint after the lift: the windows start at the lift
    expect(await refusal()).toBeNull();
    const after = await reputation.security('usr_owner', project);
    expect(after.status).toBe('active');
    expect(after.recentSuspensions[0]).toMatchObject({ liftedBy: 'usr_owner' });
  });
});

import { createServiceDataSource, migrateServiceSchema } from '@herald/persistence';
import { createTestDatabase, type TestDatabase } from '@herald/testing';
import type { DataSource } from 'typeorm';
import { gatewaySchema } from '../gateway-core.module.js';
import { MeteredEmail } from '../shared/metered-email.entity.js';
import { ReputationStore } from './reputation.store.js';

/** Suspensions and the counts reputation is judged on, on PostgreSQL. */
describe('ReputationStore (PostgreSQL)', () => {
  let db: TestDatabase;
  let ds: DataSource;
  const store = new ReputationStore();
  let seq = 0;
  const day = 86_400_000;
  const now = Date.parse('2026-05-20T12:00:00Z');

  beforeAll(async () => {
    db = await createTestDatabase();
    ds = await createServiceDataSource(gatewaySchema, db.url, 2).initialize();
    await migrateServiceSchema(ds);
  });
  afterAll(async () => {
    await ds.destroy();
    await db.drop();
  });

  const suspension = (projectId: string, at: Date) => ({
    id: `sus_${++seq}`,
    projectId,
    reason: 'bounce_rate',
    bounceRate: 0.2,
    complaintRate: 0,
    sends: 100,
    suspendedAt: at,
  });
  /** `n` emails of the project sent `daysAgo`, the first `bounced` bounced and the next `complained` complained. */
  const sent = async (
    projectId: string,
    n: number,
    daysAgo: number,
    marks: { bounced?: number; complained?: number; domain?: string | null } = {},
  ) => {
    const at = new Date(now - daysAgo * day);
    const bounced = marks.bounced ?? 0;
    const complained = marks.complained ?? 0;
    await ds.getRepository(MeteredEmail).insert(
      Array.from({ length: n }, (_, i) => ({
        emailId: `eml_rep_${++seq}`,
        projectId,
        category: 'transactional',
        sentAt: at,
        senderDomain: marks.domain ?? null,
        bouncedAt: i < bounced ? at : null,
        complainedAt: i >= bounced && i < bounced + complained ? at : null,
      })),
    );
  };

  it('records at most one active suspension per project; a lifted one makes room for the next', async () => {
    expect(await store.suspend(ds.manager, suspension('prj_s', new Date(now - 2 * day)))).toBe(true);
    expect(await store.suspend(ds.manager, suspension('prj_s', new Date(now - day)))).toBe(false);
    const active = await ds.transaction((m) => store.active(m, 'prj_s', true));
    expect(active).toMatchObject({ projectId: 'prj_s', liftedAt: null });
    await store.lift(ds.manager, active!.id, new Date(now), 'usr_owner');
    expect(await store.active(ds.manager, 'prj_s')).toBeNull();
    expect(await store.suspend(ds.manager, suspension('prj_s', new Date(now)))).toBe(true);
    const recent = await store.recent(ds.manager, 'prj_s', 10);
    expect(recent.map((s) => [s.suspendedAt.getTime(), s.liftedBy])).toEqual([
      [now, null],
      [now - 2 * day, 'usr_owner'],
    ]);
    expect(await store.recent(ds.manager, 'prj_s', 1)).toHaveLength(1);
  });

  it('counts the week since the instant and the last sends, both from the last lifted suspension on', async () => {
    await sent('prj_w', 4, 10, { bounced: 1 }); // before the week
    await sent('prj_w', 6, 3, { bounced: 2, complained: 1 });
    expect(await store.windows(ds.manager, 'prj_w', new Date(now - 7 * day), 5)).toEqual({
      since: { sends: 6, bounces: 2, complaints: 1 },
      last: { sends: 5, bounces: expect.any(Number), complaints: expect.any(Number) },
    });
    expect((await store.windows(ds.manager, 'prj_w', new Date(now - 7 * day), 100)).last).toEqual({
      sends: 10,
      bounces: 3,
      complaints: 1,
    });
    // a suspension lifted a day ago: the windows start again from there
    const lifted = suspension('prj_w', new Date(now - 2 * day));
    await store.suspend(ds.manager, lifted);
    await store.lift(ds.manager, lifted.id, new Date(now - day), 'usr_owner');
    await sent('prj_w', 2, 0, { complained: 1 });
    expect(await store.windows(ds.manager, 'prj_w', new Date(now - 7 * day), 100)).toEqual({
      since: { sends: 2, bounces: 0, complaints: 1 },
      last: { sends: 2, bounces: 0, complaints: 1 },
    });
  });

  it('counts per sender domain since the instant, most sends first, emails without a domain left out', async () => {
    await sent('prj_d', 3, 1, { domain: 'b.example.com', bounced: 1 });
    await sent('prj_d', 5, 1, { domain: 'a.example.com', complained: 2 });
    await sent('prj_d', 3, 1, { domain: 'c.example.com' });
    await sent('prj_d', 9, 1, { domain: null });
    await sent('prj_d', 7, 30, { domain: 'a.example.com' });
    expect(await store.byDomain(ds.manager, 'prj_d', new Date(now - 7 * day))).toEqual([
      { domain: 'a.example.com', sends: 5, bounces: 0, complaints: 2 },
      { domain: 'b.example.com', sends: 3, bounces: 1, complaints: 0 },
      { domain: 'c.example.com', sends: 3, bounces: 0, complaints: 0 },
    ]);
  });
});

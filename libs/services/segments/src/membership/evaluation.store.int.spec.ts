import { parseFilter } from '@herald/filters';
import { createServiceDataSource, migrateServiceSchema } from '@herald/persistence';
import { createTestDatabase, type TestDatabase } from '@herald/testing';
import type { DataSource, EntityManager } from 'typeorm';
import { ReadModelStore } from '../contacts/read-model.store.js';
import { segmentsSchema } from '../segments.module.js';
import { saveDynamicSegment, saveReadModelContacts } from '../segments/segment-rows.spec-support.js';
import type { Scope } from './evaluation-scope.js';
import { EvaluationStore } from './evaluation.store.js';
import { ProjectContext } from './project-context.js';
import { SegmentsStore } from './segments.store.js';

/** The statements that evaluate filters over the read model, on PostgreSQL. */
describe('EvaluationStore (PostgreSQL)', () => {
  let db: TestDatabase;
  let ds: DataSource;
  let store: EvaluationStore;
  const segments = new SegmentsStore(new ReadModelStore());
  const now = new Date();
  const emailContains = (value: string) => ({
    operator: 'AND' as const,
    conditions: [{ field: 'email', operator: 'contains', value }],
  });

  beforeAll(async () => {
    db = await createTestDatabase();
    ds = await createServiceDataSource(segmentsSchema, db.url, 4).initialize();
    await migrateServiceSchema(ds);
    store = new EvaluationStore(ds);
  });
  afterAll(async () => {
    await ds.destroy();
    await db.drop();
  });

  const context = (projectId: string) => ProjectContext.load(ds.manager, projectId, segments);
  const members = (segmentId: string) =>
    ds
      .query<{ contact_id: string }[]>(
        `SELECT contact_id FROM segments.segment_memberships WHERE segment_id = $1 ORDER BY contact_id`,
        [segmentId],
      )
      .then((rows) => rows.map((r) => r.contact_id));
  /** Reconciles the project's segments (all of them, in one statement) within `scope`; the rows sorted. */
  const reconcile = async (projectId: string, scope: Scope) => {
    const ctx = await context(projectId);
    const all = [...ctx.segments.values()].map((segment) => ({ segment, filter: ctx.filterOf(segment)! }));
    const rows = await ds.transaction((m) => store.reconcile(m, ctx, all, scope, now));
    return rows.sort((a, b) => `${a.segment_id}${a.contact_id}`.localeCompare(`${b.segment_id}${b.contact_id}`));
  };

  describe('reconcile', () => {
    const p = 'prj_eval_reconcile';
    beforeAll(async () => {
      await saveReadModelContacts(ds, p, [
        { contactId: 'c1', email: 'pro-1@example.com' },
        { contactId: 'c2', email: 'pro-2@example.com' },
        { contactId: 'c3', email: 'free-3@example.com' },
      ]);
      await saveDynamicSegment(ds, { id: 'seg_pro', projectId: p, filters: emailContains('pro-') });
      await saveDynamicSegment(ds, { id: 'seg_free', projectId: p, filters: emailContains('free-') });
    });

    it('writes, for every segment at once, the contacts its filter adds (with their address) and removes within the scope, each once', async () => {
      expect(await reconcile(p, { contactIds: ['c1', 'c3'] })).toEqual([
        { entered: true, segment_id: 'seg_free', contact_id: 'c3', email: 'free-3@example.com' },
        { entered: true, segment_id: 'seg_pro', contact_id: 'c1', email: 'pro-1@example.com' },
      ]);
      expect(await reconcile(p, { contactIds: ['c1', 'c3'] })).toEqual([]);
      // c2 was outside the scope
      expect(await members('seg_pro')).toEqual(['c1']);
    });

    it('one contact: its exit when it stops matching, and only its own', async () => {
      await reconcile(p, { contactIds: ['c1', 'c2', 'c3'], span: true });
      await saveReadModelContacts(ds, p, [
        { contactId: 'c1', email: 'free-1@example.com' },
        { contactId: 'c2', email: 'free-2@example.com' },
      ]);
      expect(await reconcile(p, { contactId: 'c1' })).toEqual([
        { entered: true, segment_id: 'seg_free', contact_id: 'c1', email: 'free-1@example.com' },
        { entered: false, segment_id: 'seg_pro', contact_id: 'c1', email: 'free-1@example.com' },
      ]);
      expect([await members('seg_pro'), await members('seg_free')]).toEqual([['c2'], ['c1', 'c3']]);
    });

    it('the exit of a contact no longer in the read model has no address', async () => {
      await ds.query(`DELETE FROM segments.segment_contacts WHERE project_id = $1 AND contact_id = 'c2'`, [p]);
      expect(await reconcile(p, { contactIds: ['c2'] })).toEqual([
        { entered: false, segment_id: 'seg_pro', contact_id: 'c2', email: null },
      ]);
    });
  });

  it('the re-evaluation lock answers whether the project has a dynamic segment, and holds each contact to the commit', async () => {
    await saveDynamicSegment(ds, { id: 'seg_lock', projectId: 'prj_eval_lock', filters: emailContains('@') });
    const held = (m: EntityManager) =>
      m
        .query<{ n: number }[]>(
          `SELECT count(*)::int AS n FROM pg_locks WHERE locktype = 'advisory' AND pid = pg_backend_pid() AND granted`,
        )
        .then(([r]) => r!.n);
    expect(
      await ds.transaction(async (m) => [
        await store.lockForReevaluation(m, 'prj_eval_lock', ['b', 'a']),
        await held(m),
      ]),
    ).toEqual([true, 2]);
    expect(await ds.transaction((m) => store.lockForReevaluation(m, 'prj_eval_none', ['a']))).toBe(false);
  });

  it("a contact locked for its re-evaluation holds off a compute batch's share lock until it commits", async () => {
    const p = 'prj_eval_rows';
    await saveReadModelContacts(ds, p, [
      { contactId: 'r1', email: 'in-1@example.com' },
      { contactId: 'r2', email: 'in-2@example.com' },
    ]);
    await saveDynamicSegment(ds, { id: 'seg_rows', projectId: p, filters: emailContains('in-') });
    const ctx = await context(p);
    const [changer, batch] = [ds.createQueryRunner(), ds.createQueryRunner()];
    try {
      for (const r of [changer, batch]) await r.connect();
      await store.declareDifference(batch.manager, ctx, 'seg_rows', ctx.filterOf(ctx.segments.get('seg_rows')!)!, now);
      const rows = (await store.differenceBatch(batch.manager, 0, 10))!;
      expect(rows).toEqual({ from: 0, to: 10, first: 'r1', last: 'r2' });
      await changer.startTransaction();
      await store.lockContacts(changer.manager, p, ['r2']);
      await batch.startTransaction();
      await batch.query(`SET LOCAL lock_timeout = '200ms'`);
      await expect(store.shareLockDifference(batch.manager, p, rows)).rejects.toMatchObject({
        driverError: { code: '55P03' },
      });
      await batch.rollbackTransaction();
      await changer.commitTransaction();
      await batch.startTransaction();
      await store.shareLockDifference(batch.manager, p, rows);
      await batch.commitTransaction();
      await store.dropDifference(batch.manager);
    } finally {
      for (const r of [changer, batch]) {
        if (r.isTransactionActive) await r.rollbackTransaction();
        await r.release();
      }
    }
  });

  it("a compute's difference holds, numbered in id order, the contacts to enter and to leave, past the commit that wrote it, a batch at a time", async () => {
    const p = 'prj_eval_diff';
    await saveReadModelContacts(ds, p, [
      { contactId: 'd1', email: 'in-1@example.com' },
      { contactId: 'd2', email: 'in-2@example.com' },
      { contactId: 'd3', email: 'out-3@example.com' },
      { contactId: 'd4', email: 'in-4@example.com' },
      { contactId: 'd5', email: 'in-5@example.com' },
    ]);
    await saveDynamicSegment(ds, { id: 'seg_diff', projectId: p, filters: emailContains('in-') });
    await ds.query(
      `INSERT INTO segments.segment_memberships (project_id, segment_id, contact_id) VALUES ($1, 'seg_diff', 'd2'), ($1, 'seg_diff', 'd3')`,
      [p],
    );
    const ctx = await context(p);
    const filter = ctx.filterOf(ctx.segments.get('seg_diff')!)!;
    const runner = ds.createQueryRunner();
    await runner.connect();
    try {
      await runner.startTransaction();
      await store.declareDifference(runner.manager, ctx, 'seg_diff', filter, now);
      await runner.commitTransaction();
      expect(await store.differenceBatch(runner.manager, 0, 2)).toEqual({ from: 0, to: 2, first: 'd1', last: 'd3' });
      expect(await store.differenceBatch(runner.manager, 2, 4)).toEqual({ from: 2, to: 4, first: 'd4', last: 'd5' });
      expect(await store.differenceBatch(runner.manager, 4, 6)).toBeUndefined();
      // a batch's reconciliation reads only its own rows of the difference, not the contacts between them
      await ds.query(
        `INSERT INTO segments.segment_memberships (project_id, segment_id, contact_id) VALUES ($1, 'seg_diff', 'd9')`,
        [p],
      );
      await runner.startTransaction();
      const batch = (await store.differenceBatch(runner.manager, 0, 2))!;
      const rows = await store.reconcile(
        runner.manager,
        ctx,
        [{ segment: { id: 'seg_diff' }, filter }],
        { difference: batch },
        now,
        {
          addresses: false,
        },
      );
      await runner.commitTransaction();
      expect(rows.map((r) => [r.entered, r.contact_id, r.email])).toEqual([
        [true, 'd1', null],
        [false, 'd3', null],
      ]);
      expect(await members('seg_diff')).toEqual(['d1', 'd2', 'd9']);
      // a new difference replaces the one before on the same connection
      await store.declareDifference(runner.manager, ctx, 'seg_diff', filter, now);
      expect(await store.differenceBatch(runner.manager, 0, 10)).toEqual({ from: 0, to: 10, first: 'd4', last: 'd9' });
      await store.dropDifference(runner.manager);
    } finally {
      if (runner.isTransactionActive) await runner.rollbackTransaction();
      await runner.release();
    }
  });

  describe('live answers and audiences', () => {
    const p = 'prj_eval_live';
    beforeAll(async () => {
      await saveReadModelContacts(ds, p, [
        { contactId: 'a1', email: 'vip-1@example.com' },
        { contactId: 'a2', email: 'vip-2@example.com', subscribed: false },
        { contactId: 'a3', email: 'vip-3@example.com' },
        { contactId: 'a4', email: 'std-4@example.com' },
      ]);
      await saveReadModelContacts(ds, 'prj_eval_live_other', [{ contactId: 'a9', email: 'vip-9@example.com' }]);
      await ds.query(
        `INSERT INTO segments.segment_memberships (project_id, segment_id, contact_id) VALUES ($1, 'seg_static', 'a2'), ($1, 'seg_static', 'a4')`,
        [p],
      );
    });
    const vip = parseFilter(emailContains('vip-'), 'filters');

    it("counts the project's contacts a filter matches now, and pages them in contact id order", async () => {
      const ctx = await context(p);
      expect(await store.countMatching(ds.manager, ctx, vip, now)).toBe(3);
      const page = await store.pageMatching(ds.manager, ctx, vip, now, 2, 1);
      expect([page.n, page.rows.map((r) => r.contact_id)]).toEqual([3, ['a2', 'a3']]);
    });

    it.each([
      ['the whole project', () => ({ kind: 'all' as const, projectId: p }), 3, ['a1', 'a2', 'a3', 'a4']],
      [
        'a filter',
        async () => ({ kind: 'filter' as const, ctx: await context(p), filter: vip, now }),
        2,
        ['a1', 'a2', 'a3'],
      ],
      [
        "a segment's stored members",
        () => ({ kind: 'stored' as const, projectId: p, segmentId: 'seg_static' }),
        1,
        ['a2', 'a4'],
      ],
    ])(
      'an audience of %s counts its subscribed contacts and pages all of them after a contact id',
      async (_label, of, subscribed, all) => {
        const audience = await of();
        expect(await store.countSubscribed(ds.manager, audience)).toBe(subscribed);
        const first = await store.audiencePage(ds.manager, audience, undefined, 2);
        const rest = await store.audiencePage(ds.manager, audience, first.at(-1)!.contact_id as string, 2);
        expect([...first, ...rest].map((r) => r.contact_id)).toEqual(all);
      },
    );
  });
});

import { createServiceDataSource, migrateServiceSchema } from '@herald/persistence';
import { createTestDatabase, type TestDatabase } from '@herald/testing';
import type { DataSource, EntityManager } from 'typeorm';
import { ReadModelStore } from '../contacts/read-model.store.js';
import { segmentsSchema } from '../segments.module.js';
import { saveDynamicSegment, saveReadModelContacts } from '../segments/segment-rows.spec-support.js';
import type { Scope } from './evaluation-scope.js';
import { EvaluationStore } from './evaluation.store.js';
import { ProjectContext, ProjectContexts } from './project-context.js';
import { Segment } from './segment.entity.js';
import { SegmentsStore } from './segments.store.js';

/**
 * What a consumer round of the real-time re-evaluation does not redo while the project's segments
 * stay: loading and parsing its context, and planning its reconciliation's statement.
 */
describe('real-time rounds (PostgreSQL)', () => {
  let db: TestDatabase;
  let ds: DataSource;
  const segments = new SegmentsStore(new ReadModelStore());
  const equals = (value: string) => ({
    operator: 'AND' as const,
    conditions: [{ field: 'data.plan', operator: 'equals', value }],
  });

  beforeAll(async () => {
    db = await createTestDatabase();
    ds = await createServiceDataSource(segmentsSchema, db.url, 4).initialize();
    await migrateServiceSchema(ds);
  });
  afterAll(async () => {
    await ds.destroy();
    await db.drop();
  });

  it("a project's context is served from the cache while its definitions stay; a segment created, a definition saved, members stored or a new field type load it again", async () => {
    const p = 'prj_contexts';
    const contexts = new ProjectContexts();
    const load = () => ds.transaction((m) => contexts.load(m, p, segments));
    await saveDynamicSegment(ds, { id: 'seg_a', projectId: p, filters: equals('gold') });
    const first = await load();
    expect([...first.segments.keys()]).toEqual(['seg_a']);
    expect(await load()).toBe(first);
    // counts are not part of it
    await ds.query(`UPDATE segments.segments SET member_count = 5, counted_at = now() WHERE id = 'seg_a'`);
    expect(await load()).toBe(first);
    expect(contexts.loads).toBe(1);

    const changes: [string, () => Promise<unknown>][] = [
      ['a segment created', () => saveDynamicSegment(ds, { id: 'seg_b', projectId: p, filters: equals('pro') })],
      [
        'a definition saved',
        async () => {
          const repo = ds.getRepository(Segment);
          await repo.save({ ...(await repo.findOneByOrFail({ id: 'seg_b' })), filters: equals('team') });
        },
      ],
      ['its members stored', () => ds.query(`UPDATE segments.segments SET materialized = true WHERE id = 'seg_a'`)],
      [
        'a new field type',
        () =>
          ds.query(`INSERT INTO segments.segment_field_types (project_id, field, type) VALUES ($1, 'plan', 'string')`, [
            p,
          ]),
      ],
    ];
    let previous = first;
    for (const [what, change] of changes) {
      await change();
      const next = await load();
      expect([what, next === previous]).toEqual([what, false]);
      expect(await load()).toBe(next);
      previous = next;
    }
    expect(contexts.loads).toBe(5);
    expect(previous.filterOf(previous.segments.get('seg_b')!)).toBeDefined();
    expect(previous.segments.get('seg_a')!.materialized).toBe(true);
    expect(previous.fieldTypes).toEqual(new Map([['plan', 'string']]));
  });

  it("a reconciliation of a consumer's changed contacts runs as a statement prepared on its connection (its text the same at every round); a compute's contiguous batch runs unprepared", async () => {
    const p = 'prj_prepared';
    await saveReadModelContacts(ds, p, [
      { contactId: 'c1', data: { plan: 'gold' } },
      { contactId: 'c2', data: { plan: 'free' } },
    ]);
    await saveDynamicSegment(ds, { id: 'seg_gold', projectId: p, filters: equals('gold') });
    const store = new EvaluationStore(ds);
    const prepared = (m: EntityManager) =>
      m
        .query<{ name: string }[]>(`SELECT name FROM pg_prepared_statements WHERE name LIKE 'herald_tx_%'`)
        .then((rows) => rows.map((r) => r.name));
    // one connection, so that each round sees what the one before prepared
    const single = await createServiceDataSource(segmentsSchema, db.url, 1).initialize();
    const round = (scope: Scope) =>
      single.transaction(async (m) => {
        const ctx = await ProjectContext.load(m, p, segments);
        const segment = ctx.segments.get('seg_gold')!;
        const rows = await store.reconcile(m, ctx, [{ segment, filter: ctx.filterOf(segment)! }], scope, new Date());
        return { rows: rows.map((r) => [r.entered, r.contact_id]), prepared: await prepared(m) };
      });
    try {
      const first = await round({ contactIds: ['c1', 'c2'] });
      expect(first.rows).toEqual([[true, 'c1']]);
      expect(first.prepared).toHaveLength(1);
      const second = await round({ contactIds: ['c2', 'c1'] });
      expect(second).toEqual({ rows: [], prepared: first.prepared });
      const span = await round({ contactIds: ['c1', 'c2'], span: true });
      expect(span.prepared).toEqual(first.prepared);
    } finally {
      await single.destroy();
    }
  });
});

import { createServiceDataSource, migrateServiceSchema } from '@herald/persistence';
import { createTestDatabase, type TestDatabase } from '@herald/testing';
import type { DataSource } from 'typeorm';
import { ReadModelStore } from '../contacts/read-model.store.js';
import { segmentsSchema } from '../segments.module.js';
import { saveDynamicSegment, saveReadModelContacts } from '../segments/segment-rows.spec-support.js';
import { Segment } from './segment.entity.js';
import { SegmentsStore } from './segments.store.js';

/** The SQL of segments and their stored members on PostgreSQL. */
describe('SegmentsStore (PostgreSQL)', () => {
  let db: TestDatabase;
  let ds: DataSource;
  const store = new SegmentsStore(new ReadModelStore());
  const where = { operator: 'AND' as const, conditions: [{ field: 'email', operator: 'contains', value: '@' }] };

  beforeAll(async () => {
    db = await createTestDatabase();
    ds = await createServiceDataSource(segmentsSchema, db.url, 2).initialize();
    await migrateServiceSchema(ds);
  });
  afterAll(async () => {
    await ds.destroy();
    await db.drop();
  });

  const segment = (id: string) => ds.getRepository(Segment).findOneByOrFail({ id });
  const members = (segmentId: string) =>
    ds
      .query<{ contact_id: string }[]>(
        `SELECT contact_id FROM segments.segment_memberships WHERE segment_id = $1 ORDER BY contact_id`,
        [segmentId],
      )
      .then((rows) => rows.map((r) => r.contact_id));
  const storeMembers = (projectId: string, segmentId: string, contactIds: string[]) =>
    ds.query(
      `INSERT INTO segments.segment_memberships (project_id, segment_id, contact_id) SELECT $1, $2, unnest($3::varchar[])`,
      [projectId, segmentId, contactIds],
    );
  const fieldType = (projectId: string, field: string, type: string) =>
    ds.query(`INSERT INTO segments.segment_field_types (project_id, field, type) VALUES ($1, $2, $3)`, [
      projectId,
      field,
      type,
    ]);

  it("loads a project's segments in id order with its field types; a project without segments reads its field types alone", async () => {
    await saveDynamicSegment(ds, { id: 'seg_ctx_b', projectId: 'prj_ctx', filters: where });
    await saveDynamicSegment(ds, { id: 'seg_ctx_a', projectId: 'prj_ctx', filters: where });
    await saveDynamicSegment(ds, { id: 'seg_ctx_other', projectId: 'prj_ctx_other', filters: where });
    await fieldType('prj_ctx', 'data.plan', 'string');
    await fieldType('prj_ctx_none', 'data.age', 'number');

    const loaded = await store.ofProject(ds.manager, 'prj_ctx');
    expect([loaded.segments.map((s) => s.id), Object.fromEntries(loaded.fieldTypes)]).toEqual([
      ['seg_ctx_a', 'seg_ctx_b'],
      { 'data.plan': 'string' },
    ]);
    expect(loaded.segments[0]).toBeInstanceOf(Segment);
    const bare = await store.ofProject(ds.manager, 'prj_ctx_none');
    expect([bare.segments, Object.fromEntries(bare.fieldTypes)]).toEqual([[], { 'data.age': 'number' }]);
  });

  it('adds count deltas to the segments named only, never below zero', async () => {
    for (const id of ['seg_cnt_a', 'seg_cnt_b', 'seg_cnt_c'])
      await saveDynamicSegment(ds, { id, projectId: 'prj_cnt', filters: where, materialized: true });
    await ds.query(`UPDATE segments.segments SET member_count = 2 WHERE project_id = 'prj_cnt'`);
    await ds.transaction((m) =>
      store.adjustCounts(
        m,
        new Map([
          ['seg_cnt_b', 3],
          ['seg_cnt_a', -5],
          ['seg_cnt_c', 0],
        ]),
      ),
    );
    expect(
      (await ds.getRepository(Segment).findBy({ projectId: 'prj_cnt' })).map((s) => [s.id, s.memberCount]),
    ).toEqual(
      expect.arrayContaining([
        ['seg_cnt_a', 0],
        ['seg_cnt_b', 5],
        ['seg_cnt_c', 2],
      ]),
    );
  });

  it('a recount caches the number of stored rows; an unknown segment counts 0', async () => {
    await saveDynamicSegment(ds, { id: 'seg_rc', projectId: 'prj_rc', filters: where, materialized: true });
    await storeMembers('prj_rc', 'seg_rc', ['c1', 'c2', 'c3']);
    expect(await ds.transaction((t) => store.recount(t, 'prj_rc', 'seg_rc'))).toBe(3);
    const s = await segment('seg_rc');
    expect([s.memberCount, s.countedAt]).toEqual([3, expect.any(Date)]);
    expect(await ds.transaction((t) => store.recount(t, 'prj_rc', 'seg_unknown'))).toBe(0);
    // another project's id is unknown
    expect(await ds.transaction((t) => store.recount(t, 'prj_other', 'seg_rc'))).toBe(0);
  });

  it('a cached count is not a change of the segment: its version and updatedAt stay', async () => {
    const before = await saveDynamicSegment(ds, { id: 'seg_cache', projectId: 'prj_cache', filters: where });
    await store.cacheCount(ds.manager, 'seg_cache', 42);
    const after = await segment('seg_cache');
    expect(after).toMatchObject({ memberCount: 42, version: before.version, updatedAt: before.updatedAt });
    expect(after.countedAt).not.toBeNull();
  });

  it('the end of a compute marks the segment materialized and moves members_as_of forward only, unless its version moved', async () => {
    const s = await saveDynamicSegment(ds, { id: 'seg_mat', projectId: 'prj_mat', filters: where });
    const at = new Date(Date.UTC(2026, 0, 1, 12));
    await store.markMaterialized(ds.manager, 'prj_mat', 'seg_mat', s.version + 1, at);
    expect((await segment('seg_mat')).materialized).toBe(false);
    await store.markMaterialized(ds.manager, 'prj_mat', 'seg_mat', s.version, at);
    await store.markMaterialized(ds.manager, 'prj_mat', 'seg_mat', s.version, new Date(at.getTime() - 60_000));
    const after = await segment('seg_mat');
    expect([after.materialized, after.membersAsOf, after.version]).toEqual([true, at, s.version]);
  });

  it("a static segment's members are added and removed once each, its count following", async () => {
    const repo = ds.getRepository(Segment);
    await repo.save(
      repo.create({
        id: 'seg_static',
        projectId: 'prj_static',
        name: 'static',
        type: 'STATIC',
        filters: null,
        materialized: true,
      }),
    );
    expect(await ds.transaction((m) => store.addStaticMembers(m, 'prj_static', 'seg_static', ['c1', 'c2']))).toBe(2);
    expect(await ds.transaction((m) => store.addStaticMembers(m, 'prj_static', 'seg_static', ['c2', 'c3']))).toBe(1);
    expect(await ds.transaction((m) => store.removeStaticMembers(m, 'prj_static', 'seg_static', ['c1', 'c9']))).toBe(1);
    expect(await members('seg_static')).toEqual(['c2', 'c3']);
    expect((await segment('seg_static')).memberCount).toBe(2);
    expect(
      await ds.transaction((m) => store.removeStaticMembers(m, 'prj_static', 'seg_static', ['c2', 'c3', 'c4'])),
    ).toBe(2);
    expect((await segment('seg_static')).memberCount).toBe(0);
  });

  it('a deleted contact leaves every segment it was in (answered in id order, counts untouched), and only its own', async () => {
    await saveDynamicSegment(ds, { id: 'seg_del_b', projectId: 'prj_del', filters: where, trackMembership: true });
    await saveDynamicSegment(ds, { id: 'seg_del_a', projectId: 'prj_del', filters: where, name: 'A' });
    await storeMembers('prj_del', 'seg_del_a', ['gone', 'stays']);
    await storeMembers('prj_del', 'seg_del_b', ['gone']);
    expect(await ds.transaction((m) => store.leaveAll(m, 'prj_del', 'gone'))).toEqual([
      { id: 'seg_del_a', name: 'A', type: 'DYNAMIC', track_membership: false },
      { id: 'seg_del_b', name: 'seg_del_b', type: 'DYNAMIC', track_membership: true },
    ]);
    expect([await members('seg_del_a'), await members('seg_del_b')]).toEqual([['stays'], []]);
    expect(await ds.transaction((m) => store.leaveAll(m, 'prj_del', 'gone'))).toEqual([]);
  });

  it('pages stored members in contact id order with their read-model rows', async () => {
    await saveReadModelContacts(
      ds,
      'prj_page',
      ['c4', 'c2', 'c1', 'c3'].map((contactId) => ({ contactId })),
    );
    await storeMembers('prj_page', 'seg_page', ['c4', 'c2', 'c1']);
    await storeMembers('prj_page', 'seg_page_other', ['c3']);
    const page = (limit: number, offset: number) =>
      store
        .storedMembersPage(ds.manager, 'prj_page', 'seg_page', limit, offset)
        .then((rows) => rows.map((r) => [r.contact_id, r.email]));
    expect(await page(2, 0)).toEqual([
      ['c1', 'c1@example.com'],
      ['c2', 'c2@example.com'],
    ]);
    expect(await page(2, 2)).toEqual([['c4', 'c4@example.com']]);
  });
});

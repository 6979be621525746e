import { createServiceDataSource, migrateServiceSchema } from '@herald/persistence';
import { createTestDatabase, eventually, type TestDatabase } from '@herald/testing';
import type { DataSource, EntityManager } from 'typeorm';
import type { ReadModelStore } from '../contacts/read-model.store.js';
import type { EvaluationStore } from '../membership/evaluation.store.js';
import type { MembershipEngine } from '../membership/membership-engine.js';
import { membershipOn } from '../membership/membership.spec-support.js';
import { SegmentCompute } from '../membership/segment-compute.js';
import { SegmentSweep } from '../membership/segment-sweep.js';
import type { SegmentsStore } from '../membership/segments.store.js';
import { SweepStateStore } from '../membership/sweep-state.store.js';
import { segmentsSchema } from '../segments.module.js';
import { saveDynamicSegment, saveReadModelContacts } from '../segments/segment-rows.spec-support.js';

/**
 * The read model's consumers and membership on PostgreSQL: a compute over more contacts than one
 * batch writes and publishes each entry once; two events of one contact applied at once (each in its
 * transaction, neither seeing the other's write) still end in the membership both imply, and the one
 * that waited holds the contact's row against a compute batch. The read model's own writes (out of
 * order, deletions, field types): contacts/read-model.store.int.spec.ts.
 */
describe('segments read model and membership (PostgreSQL)', () => {
  let db: TestDatabase;
  let ds: DataSource;
  let writer: ReadModelStore;
  let segments: SegmentsStore;
  let evaluation: EvaluationStore;
  let engine: MembershipEngine;
  let compute: SegmentCompute;

  beforeAll(async () => {
    db = await createTestDatabase();
    ds = await createServiceDataSource(segmentsSchema, db.url, 4).initialize();
    await migrateServiceSchema(ds);
    ({ readModel: writer, segments, evaluation, engine, compute } = membershipOn(ds));
  });
  afterAll(async () => {
    await ds.destroy();
    await db.drop();
  });

  /**
   * Until one transaction of this spec's database waits for an advisory lock (a re-evaluation queued
   * behind another of its contact); pg_locks lists the whole server's, other workers' databases too.
   */
  const oneAdvisoryWaiter = (message: string) =>
    eventually(
      async () =>
        (
          await ds.query<{ n: number }[]>(
            `SELECT count(*)::int AS n FROM pg_locks l JOIN pg_database d ON d.oid = l.database
              WHERE d.datname = current_database() AND l.locktype = 'advisory' AND NOT l.granted`,
          )
        )[0]!.n === 1,
      { timeoutMs: 10_000, message },
    );

  it('a compute over more contacts than one batch writes and publishes each entry once', async () => {
    const p = 'prj_compute_int';
    await saveReadModelContacts(
      ds,
      p,
      Array.from({ length: 12001 }, (_, n) => ({
        contactId: `cnt_${String(n + 1).padStart(6, '0')}`,
        data: { even: (n + 1) % 2 === 0 },
      })),
    );
    await saveDynamicSegment(ds, {
      id: 'seg_even',
      projectId: p,
      filters: { operator: 'AND', conditions: [{ field: 'data.even', operator: 'equals', value: true }] },
      trackMembership: true,
    });
    expect(await compute.compute(p, 'seg_even', { fire: true, reason: 'compute' })).toEqual({
      added: 6000,
      removed: 0,
      total: 6000,
    });
    const [{ n }] = await ds.query(
      `SELECT count(DISTINCT envelope->'payload'->>'contactId')::int AS n FROM segments.outbox WHERE topic = 'segment.entered' AND envelope->'payload'->>'segmentId' = 'seg_even'`,
    );
    expect(n).toBe(6000);
    expect(await compute.compute(p, 'seg_even', { fire: true, reason: 'compute' })).toEqual({
      added: 0,
      removed: 0,
      total: 6000,
    });
  });
  it('the sweep computes a dynamic segment not stored yet silently and marks it; a compute whose segment changed meanwhile leaves it unmarked', async () => {
    const p = 'prj_materialize_int';
    await saveReadModelContacts(
      ds,
      p,
      Array.from({ length: 10 }, (_, n) => ({ contactId: `cnt_m${n + 1}`, data: { pro: (n + 1) % 2 === 0 } })),
    );
    // an untracked segment from before every dynamic segment stored its members
    await saveDynamicSegment(ds, {
      id: 'seg_legacy',
      projectId: p,
      filters: { operator: 'AND', conditions: [{ field: 'data.pro', operator: 'equals', value: true }] },
      materialized: false,
    });
    const state = async () =>
      (
        await ds.query<{ materialized: boolean; member_count: number; stored: number; events: number }[]>(
          `SELECT s.materialized, s.member_count,
                  (SELECT count(*)::int FROM segments.segment_memberships ms WHERE ms.segment_id = s.id) AS stored,
                  (SELECT count(*)::int FROM segments.outbox o WHERE o.envelope->'payload'->>'segmentId' = s.id) AS events
             FROM segments.segments s WHERE s.id = 'seg_legacy'`,
        )
      )[0];
    const sweep = new SegmentSweep(
      ds,
      undefined as never,
      compute,
      segments,
      new SweepStateStore(),
      undefined as never,
    );
    await sweep.sweep();
    expect(await state()).toEqual({ materialized: true, member_count: 5, stored: 5, events: 0 });

    // a PATCH of its filter lands while a compute runs (between its difference and its batches)
    await ds.query(`UPDATE segments.segments SET materialized = false WHERE id = 'seg_legacy'`);
    await ds.query(
      `DELETE FROM segments.segment_memberships WHERE segment_id = 'seg_legacy' AND contact_id = 'cnt_m2'`,
    );
    const racing = new SegmentCompute(ds, segments, evaluation, {
      reconcile: async (...args: Parameters<MembershipEngine['reconcile']>) => {
        await ds.query(`UPDATE segments.segments SET version = version + 1 WHERE id = 'seg_legacy'`);
        return engine.reconcile(...args);
      },
    } as MembershipEngine);
    expect(await racing.compute(p, 'seg_legacy', { fire: false, reason: 'compute' })).toEqual({
      added: 1,
      removed: 0,
      total: 5,
    });
    expect((await state())!.materialized).toBe(false);
    // the change's own compute (unraced) marks it
    await compute.compute(p, 'seg_legacy', { fire: false, reason: 'compute' });
    expect((await state())!.materialized).toBe(true);
  });

  it('a batch of tracked events of several contacts enters and exits each contact as its own events imply', async () => {
    const p = 'prj_batch_int';
    await saveReadModelContacts(
      ds,
      p,
      ['a', 'b', 'c'].map((k) => ({ contactId: `cnt_b${k}`, email: `${k}@example.com` })),
    );
    const segment = (id: string, field: string, operator: string) =>
      saveDynamicSegment(ds, {
        id,
        projectId: p,
        filters: { operator: 'AND', conditions: [{ field, operator }] },
        trackMembership: true,
      });
    await segment('seg_b_e0', 'event.e0', 'triggered');
    await segment('seg_b_e1', 'event.e1', 'triggered');
    await segment('seg_b_no_e0', 'event.e0', 'notTriggered');
    for (const id of ['seg_b_e0', 'seg_b_e1', 'seg_b_no_e0'])
      await compute.compute(p, id, { fire: false, reason: 'compute' });
    await ds.transaction(async (m) => {
      await writer.addEvents(m, [
        { projectId: p, contactId: 'cnt_ba', name: 'e0', at: new Date() },
        { projectId: p, contactId: 'cnt_bb', name: 'e1', at: new Date() },
      ]);
      await engine.onContactsChanged(m, [
        { projectId: p, contactId: 'cnt_ba', trace: {}, change: { kind: 'event', name: 'e0' } },
        { projectId: p, contactId: 'cnt_bb', trace: {}, change: { kind: 'event', name: 'e1' } },
        { projectId: p, contactId: 'cnt_bc', trace: {}, change: { kind: 'contact' } },
      ]);
    });
    const members = await ds.query(
      `SELECT segment_id, string_agg(contact_id, ',' ORDER BY contact_id) AS contacts FROM segments.segment_memberships
        WHERE project_id = $1 GROUP BY 1 ORDER BY 1`,
      [p],
    );
    expect(members).toEqual([
      { segment_id: 'seg_b_e0', contacts: 'cnt_ba' },
      { segment_id: 'seg_b_e1', contacts: 'cnt_bb' },
      { segment_id: 'seg_b_no_e0', contacts: 'cnt_bb,cnt_bc' },
    ]);
    const published = await ds.query(
      `SELECT topic, envelope->'payload'->>'segmentId' AS segment, envelope->'payload'->>'contactId' AS contact
         FROM segments.outbox WHERE envelope->>'projectId' = $1 ORDER BY 2, 3`,
      [p],
    );
    expect(published).toEqual([
      { topic: 'segment.entered', segment: 'seg_b_e0', contact: 'cnt_ba' },
      { topic: 'segment.entered', segment: 'seg_b_e1', contact: 'cnt_bb' },
      { topic: 'segment.exited', segment: 'seg_b_no_e0', contact: 'cnt_ba' },
    ]);
  });
  it.each([
    ['the contact first, its event while the contact is uncommitted', 'contact'],
    ['the event first, the contact while the event is uncommitted', 'event'],
  ] as const)(
    'a contact and its tracked event applied at once enter the segment both imply (%s)',
    async (_label, first) => {
      const p = `prj_race_${first}`;
      const contactId = `cnt_race_${first}`;
      await saveDynamicSegment(ds, {
        id: `seg_signed_${first}`,
        projectId: p,
        filters: { operator: 'AND', conditions: [{ field: 'event.signup', operator: 'triggered' }] },
        trackMembership: true,
      });
      const at = new Date(Date.now() - 1000);
      const applyContact = async (m: EntityManager) => {
        await writer.upsertContact(
          m,
          p,
          { contactId, email: `${contactId}@example.com`, subscribed: true, data: {} },
          at,
          true,
        );
        await engine.onContactChanged(m, p, contactId, {}, { kind: 'created' });
      };
      const applyEvent = async (m: EntityManager) => {
        await writer.addEvent(m, p, contactId, 'signup', at);
        await engine.onContactChanged(m, p, contactId, {}, { kind: 'event', name: 'signup' });
      };
      const [early, late] = first === 'contact' ? [applyContact, applyEvent] : [applyEvent, applyContact];
      const open = ds.createQueryRunner();
      await open.connect();
      await open.startTransaction();
      try {
        await early(open.manager);
        const second = ds.transaction(late);
        await oneAdvisoryWaiter('the second re-evaluation never waited for the first');
        await open.commitTransaction();
        await second;
      } finally {
        if (open.isTransactionActive) await open.rollbackTransaction();
        await open.release();
      }
      const members = await ds.query(
        `SELECT contact_id FROM segments.segment_memberships WHERE project_id = $1 AND segment_id = $2`,
        [p, `seg_signed_${first}`],
      );
      expect(members).toEqual([{ contact_id: contactId }]);
    },
  );

  it('a re-evaluation that waited for its contact to be created holds the contact row: a compute batch cannot share-lock it until it commits', async () => {
    const p = 'prj_row_lock';
    const contactId = 'cnt_row_lock';
    await saveDynamicSegment(ds, {
      id: 'seg_row_lock',
      projectId: p,
      filters: { operator: 'AND', conditions: [{ field: 'event.signup', operator: 'triggered' }] },
      trackMembership: true,
    });
    const at = new Date(Date.now() - 1000);
    const [creation, event, batch] = [ds.createQueryRunner(), ds.createQueryRunner(), ds.createQueryRunner()];
    const shareLock = () =>
      batch.query(
        `SELECT 1 FROM segments.segment_contacts WHERE project_id = $1 AND contact_id = $2 FOR SHARE NOWAIT`,
        [p, contactId],
      );
    try {
      for (const r of [creation, event, batch]) await r.connect();
      // the event's re-evaluation starts while the contact's row does not exist yet (the creation is
      // uncommitted) and waits for the creation's advisory lock
      await creation.startTransaction();
      await writer.upsertContact(
        creation.manager,
        p,
        { contactId, email: `${contactId}@example.com`, subscribed: true, data: {} },
        at,
        true,
      );
      await engine.onContactChanged(creation.manager, p, contactId, {}, { kind: 'created' });
      await event.startTransaction();
      const evaluated = (async () => {
        await writer.addEvent(event.manager, p, contactId, 'signup', at);
        await engine.onContactChanged(event.manager, p, contactId, {}, { kind: 'event', name: 'signup' });
      })();
      await oneAdvisoryWaiter('the event re-evaluation never waited for the creation');
      await creation.commitTransaction();
      await evaluated;
      // its row lock was taken after the wait, on the row the creation committed meanwhile
      await expect(shareLock()).rejects.toMatchObject({ driverError: { code: '55P03' } });
      await event.commitTransaction();
      expect(await shareLock()).toEqual([{ '?column?': 1 }]);
    } finally {
      for (const r of [creation, event, batch]) {
        if (r.isTransactionActive) await r.rollbackTransaction();
        await r.release();
      }
    }
  });
});

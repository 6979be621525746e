import { Outbox } from '@herald/messaging';
import { createServiceDataSource, migrateServiceSchema } from '@herald/persistence';
import { createTestDatabase, eventually, type TestDatabase } from '@herald/testing';
import type { DataSource, EntityManager } from 'typeorm';
import { SEGMENTS } from '../consumer.js';
import { MembershipEngine } from '../membership/membership-engine.js';
import { SegmentCompute } from '../membership/segment-compute.js';
import { SegmentSweep } from '../membership/segment-sweep.js';
import { segmentsSchema } from '../segments.module.js';
import { saveDynamicSegment, saveReadModelContacts } from '../segments/segment-rows.spec-support.js';
import { ReadModelWriter } from './read-model.writer.js';

/**
 * The read model on PostgreSQL: contact events applied out of order leave the newest state (a late
 * older update, an update after the deletion, a late creation), and a compute over more contacts
 * than one batch writes and publishes each entry once; two events of one contact applied at once
 * (each in its transaction, neither seeing the other's write) still end in the membership both imply,
 * and the one that waited holds the contact's row against a compute batch.
 */
describe('segments read model and membership (PostgreSQL)', () => {
  let db: TestDatabase;
  let ds: DataSource;
  let writer: ReadModelWriter;
  let engine: MembershipEngine;
  let compute: SegmentCompute;
  const project = 'prj_rm_int';
  const t = (s: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, s));

  beforeAll(async () => {
    db = await createTestDatabase();
    ds = await createServiceDataSource(segmentsSchema, db.url, 4).initialize();
    await migrateServiceSchema(ds);
    writer = new ReadModelWriter();
    engine = new MembershipEngine(ds, new Outbox(SEGMENTS, ds), writer);
    compute = new SegmentCompute(ds, writer, engine);
  });
  afterAll(async () => {
    await ds.destroy();
    await db.drop();
  });

  const row = async (contactId: string) =>
    (
      await ds.query(
        `SELECT email, subscribed, data, created_at, updated_at FROM segments.segment_contacts WHERE project_id = $1 AND contact_id = $2`,
        [project, contactId],
      )
    )[0] as { email: string; data: Record<string, unknown>; created_at: Date; updated_at: Date } | undefined;
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
  const apply = (contactId: string, data: Record<string, unknown>, at: Date, created = false) =>
    ds.transaction((m) =>
      writer.upsertContact(
        m,
        project,
        { contactId, email: `${contactId}@example.com`, subscribed: true, data },
        at,
        created,
      ),
    );

  it('keeps the newest state: an older update delivered late changes nothing', async () => {
    expect(await apply('c1', { plan: 'a' }, t(1), true)).toBe(true);
    expect(await apply('c1', { plan: 'c' }, t(3))).toBe(true);
    expect(await apply('c1', { plan: 'b' }, t(2))).toBe(false);
    expect((await row('c1'))!.data).toEqual({ plan: 'c' });
  });

  it('a late contact.created fixes the creation time and keeps the newer data', async () => {
    await apply('c2', { plan: 'new' }, t(5));
    await apply('c2', { plan: 'old' }, t(4), true);
    const r = (await row('c2'))!;
    expect([r.data, r.created_at.toISOString(), r.updated_at.toISOString()]).toEqual([
      { plan: 'new' },
      t(4).toISOString(),
      t(5).toISOString(),
    ]);
  });

  it('an update delivered after the deletion does not bring the contact back', async () => {
    await apply('c3', { plan: 'a' }, t(1), true);
    await ds.transaction((m) => writer.deleteContact(m, project, 'c3', t(3)));
    expect(await apply('c3', { plan: 'b' }, t(2))).toBe(false);
    expect(await row('c3')).toBeUndefined();
  });

  it('the first non-null value of a key fixes its type', async () => {
    await apply('c4', { score: null, since: '2024-01-02', n: 1 }, t(1), true);
    await apply('c5', { score: 'high', n: 'one' }, t(1), true);
    expect(Object.fromEntries(await writer.fieldTypes(ds.manager, project))).toMatchObject({
      'data.score': 'string',
      'data.since': 'date',
      'data.n': 'number',
    });
  });

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
    const sweep = new SegmentSweep(ds, undefined as never, compute, writer, undefined as never);
    await sweep.sweep();
    expect(await state()).toEqual({ materialized: true, member_count: 5, stored: 5, events: 0 });

    // a PATCH of its filter lands while a compute runs (between its difference and its batches)
    await ds.query(`UPDATE segments.segments SET materialized = false WHERE id = 'seg_legacy'`);
    await ds.query(
      `DELETE FROM segments.segment_memberships WHERE segment_id = 'seg_legacy' AND contact_id = 'cnt_m2'`,
    );
    const racing = new SegmentCompute(ds, writer, {
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
        await engine.onContactChanged(m, p, contactId, {});
      };
      const applyEvent = async (m: EntityManager) => {
        await writer.addEvent(m, p, contactId, 'signup', at);
        await engine.onContactChanged(m, p, contactId, {});
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
      await engine.onContactChanged(creation.manager, p, contactId, {});
      await event.startTransaction();
      const evaluated = (async () => {
        await writer.addEvent(event.manager, p, contactId, 'signup', at);
        await engine.onContactChanged(event.manager, p, contactId, {});
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

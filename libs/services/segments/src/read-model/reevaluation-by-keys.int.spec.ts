import {
  ContactUpdated,
  EventTracked,
  type ContactUpdatedV1,
  type EventEnvelope,
  type EventTrackedV1,
} from '@herald/contracts';
import type { WireGroup } from '@herald/filters';
import type { EventBatchContext } from '@herald/messaging';
import { createServiceDataSource, migrateServiceSchema } from '@herald/persistence';
import { createTestDatabase, type TestDatabase } from '@herald/testing';
import type { DataSource } from 'typeorm';
import type { EvaluationStore } from '../membership/evaluation.store.js';
import type { MembershipEngine } from '../membership/membership-engine.js';
import { membershipOn } from '../membership/membership.spec-support.js';
import { segmentsSchema } from '../segments.module.js';
import { saveDynamicSegment, saveReadModelContacts } from '../segments/segment-rows.spec-support.js';
import { ReadModelHandlers } from './read-model.handlers.js';

/**
 * Re-evaluation by what changed, through the consumers' handlers on PostgreSQL: a change reaches
 * only the dynamic segments that read a key it touched (counted at the evaluation's seam,
 * `EvaluationStore.reconcile`), and membership stays exact for those that do, including a segment
 * created a moment before the change and one that reads another through `segment.<id>`.
 */
describe('segments re-evaluated by the keys a change touched (PostgreSQL)', () => {
  let db: TestDatabase;
  let ds: DataSource;
  let evaluation: EvaluationStore;
  let engine: MembershipEngine;
  let handlers: ReadModelHandlers;
  let evaluated: string[][];

  beforeAll(async () => {
    db = await createTestDatabase();
    ds = await createServiceDataSource(segmentsSchema, db.url, 4).initialize();
    await migrateServiceSchema(ds);
    const wired = membershipOn(ds);
    ({ evaluation, engine } = wired);
    handlers = new ReadModelHandlers(wired.readModel, engine);
    const reconcile = evaluation.reconcile.bind(evaluation);
    evaluation.reconcile = (m, ctx, segments, scope, now) => {
      evaluated.push(segments.map((s) => s.segment.id).sort());
      return reconcile(m, ctx, segments, scope, now);
    };
  });
  beforeEach(() => {
    evaluated = [];
  });
  afterAll(async () => {
    await ds.destroy();
    await db.drop();
  });

  const equals = (field: string, value: unknown): WireGroup =>
    ({ operator: 'AND', conditions: [{ field, operator: 'equals', value }] }) as WireGroup;
  const segment = (projectId: string, id: string, filters: WireGroup) =>
    saveDynamicSegment(ds, { id, projectId, filters, materialized: true });

  const update = (projectId: string, contactId: string, data: Record<string, unknown>, changedKeys?: string[]) =>
    ds.transaction((manager) =>
      handlers.onUpdated(
        [
          ContactUpdated.create({
            projectId,
            source: 'contacts',
            payload: {
              contactId,
              email: `${contactId}@example.com`,
              subscribed: true,
              data,
              ...(changedKeys ? { changedKeys } : {}),
            } as ContactUpdatedV1,
          }) as EventEnvelope<ContactUpdatedV1>,
        ],
        { manager } as EventBatchContext,
      ),
    );
  const track = (projectId: string, contactId: string, name: string) =>
    ds.transaction((manager) =>
      handlers.onTracked(
        [
          EventTracked.create({
            projectId,
            source: 'contacts',
            payload: {
              eventRecordId: `evt_${contactId}_${name}`,
              contactId,
              name,
              email: `${contactId}@example.com`,
              data: {},
            },
          }) as EventEnvelope<EventTrackedV1>,
        ],
        { manager } as EventBatchContext,
      ),
    );
  const members = async (projectId: string) =>
    Object.fromEntries(
      (
        await ds.query<{ segment_id: string; contacts: string }[]>(
          `SELECT segment_id, string_agg(contact_id, ',' ORDER BY contact_id) AS contacts
             FROM segments.segment_memberships WHERE project_id = $1 GROUP BY segment_id`,
          [projectId],
        )
      ).map((r) => [r.segment_id, r.contacts]),
    );
  const allEvaluated = () => evaluated.flat().sort();

  it('a change to data.a evaluates the segments reading data.a (directly or through segment.<id>), not one reading only data.b', async () => {
    const p = 'prj_keys_data';
    await saveReadModelContacts(ds, p, [{ contactId: 'cnt_1', data: { a: 1, b: 1 } }]);
    await segment(p, 'seg_a', equals('data.a', 2));
    await segment(p, 'seg_b', equals('data.b', 1));
    await segment(p, 'seg_ref', { operator: 'AND', conditions: [{ field: 'segment.seg_a', operator: 'isMember' }] });

    await update(p, 'cnt_1', { a: 2, b: 1 }, ['data.a']);

    expect(allEvaluated()).toEqual(['seg_a', 'seg_ref']);
    // seg_b would hold cnt_1 if it had been evaluated: it was not, and nothing else moved it
    expect(await members(p)).toEqual({ seg_a: 'cnt_1', seg_ref: 'cnt_1' });

    evaluated = [];
    await update(p, 'cnt_1', { a: 2, b: 3 }, ['data.b']);
    expect(allEvaluated()).toEqual(['seg_b']);
  });

  it('a segment created a moment before a change reads it at once (the cached index follows the definitions)', async () => {
    const p = 'prj_keys_new';
    await saveReadModelContacts(ds, p, [{ contactId: 'cnt_1', data: { a: 1 } }]);
    await segment(p, 'seg_old', equals('data.b', 1));
    await update(p, 'cnt_1', { a: 2 }, ['data.a']);
    expect(allEvaluated()).toEqual([]);
    // unchanged definitions: the next change is served from the cached index
    const builds = engine.readKeys.builds;
    await update(p, 'cnt_1', { a: 1 }, ['data.a']);
    expect(engine.readKeys.builds).toBe(builds);

    await segment(p, 'seg_new', equals('data.a', 3));
    await update(p, 'cnt_1', { a: 3 }, ['data.a']);
    expect(engine.readKeys.builds).toBe(builds + 1);
    expect(allEvaluated()).toEqual(['seg_new']);
    expect(await members(p)).toEqual({ seg_new: 'cnt_1' });

    // and an updated filter is read at the next change as well
    await ds.query(`UPDATE segments.segments SET filters = $2, version = version + 1 WHERE id = $1`, [
      'seg_old',
      JSON.stringify(equals('data.a', 4)),
    ]);
    evaluated = [];
    await update(p, 'cnt_1', { a: 4 }, ['data.a']);
    expect(allEvaluated()).toEqual(['seg_new', 'seg_old']);
    expect(await members(p)).toEqual({ seg_old: 'cnt_1' });
  });

  it('an update naming a changed key outside the vocabulary evaluates every segment (the safe default)', async () => {
    const p = 'prj_keys_unknown';
    await saveReadModelContacts(ds, p, [{ contactId: 'cnt_1', data: { a: 1, b: 1 } }]);
    await segment(p, 'seg_a', equals('data.a', 2));
    await segment(p, 'seg_b', equals('data.b', 2));
    await update(p, 'cnt_1', { a: 2, b: 2 }, ['a']);
    expect(allEvaluated()).toEqual(['seg_a', 'seg_b']);
    expect(await members(p)).toEqual({ seg_a: 'cnt_1', seg_b: 'cnt_1' });
  });

  it('a tracked event evaluates only the segments reading events of its name', async () => {
    const p = 'prj_keys_event';
    await saveReadModelContacts(ds, p, [{ contactId: 'cnt_1' }]);
    await segment(p, 'seg_buy', { operator: 'AND', conditions: [{ field: 'event.purchase', operator: 'triggered' }] });
    await segment(p, 'seg_data', equals('data.a', 1));
    await track(p, 'cnt_1', 'purchase');
    expect(allEvaluated()).toEqual(['seg_buy']);
    expect(await members(p)).toEqual({ seg_buy: 'cnt_1' });
  });
});

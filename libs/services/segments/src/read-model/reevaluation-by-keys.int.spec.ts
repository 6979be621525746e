import {
  ContactCreated,
  ContactUpdated,
  EventTracked,
  type ContactCreatedV1,
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
  const create = (projectId: string, contactId: string, data: Record<string, unknown>) =>
    ds.transaction((manager) =>
      handlers.onCreated(
        [
          ContactCreated.create({
            projectId,
            source: 'contacts',
            payload: { contactId, email: `${contactId}@example.com`, subscribed: true, data } as ContactCreatedV1,
          }) as EventEnvelope<ContactCreatedV1>,
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

  it('a creation evaluates the segments reading a built-in field or a key the contact holds (its events stored before it included) and those a contact holding nothing matches; the others could not hold it', async () => {
    const p = 'prj_keys_created';
    const where = (field: string, operator: string, value?: unknown): WireGroup =>
      ({ operator: 'AND', conditions: [{ field, operator, ...(value === undefined ? {} : { value }) }] }) as WireGroup;
    await segment(p, 'seg_plan', equals('data.plan', 'pro'));
    await segment(p, 'seg_tier', equals('data.tier', 't1'));
    await segment(p, 'seg_no_tier', where('data.tier', 'notExists'));
    await segment(p, 'seg_signup', where('event.signup', 'triggered'));
    await segment(p, 'seg_paid', where('event.paid', 'triggered'));
    await segment(p, 'seg_unpaid', where('event.paid', 'notTriggered'));
    await segment(p, 'seg_subscribed', where('subscribed', 'equals', true));

    // the event is applied before its contact (another topic): the contact is not there yet to enter
    await track(p, 'cnt_1', 'signup');
    expect(allEvaluated()).toEqual(['seg_signup']);
    expect(await members(p)).toEqual({});

    evaluated = [];
    await create(p, 'cnt_1', { plan: 'pro' });
    expect(allEvaluated()).toEqual(['seg_no_tier', 'seg_plan', 'seg_signup', 'seg_subscribed', 'seg_unpaid']);
    expect(await members(p)).toEqual({
      seg_no_tier: 'cnt_1',
      seg_plan: 'cnt_1',
      seg_signup: 'cnt_1',
      seg_subscribed: 'cnt_1',
      seg_unpaid: 'cnt_1',
    });
  });
});

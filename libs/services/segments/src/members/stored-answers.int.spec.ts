import { createServiceDataSource, migrateServiceSchema } from '@herald/persistence';
import { createTestDatabase, type TestDatabase } from '@herald/testing';
import type { DataSource } from 'typeorm';
import { membershipOn } from '../membership/membership.spec-support.js';
import type { SegmentCompute } from '../membership/segment-compute.js';
import { Segment } from '../membership/segment.entity.js';
import { segmentsSchema } from '../segments.module.js';
import type { SegmentsSettings } from '../segments.settings.js';
import { saveDynamicSegment, saveReadModelContacts } from '../segments/segment-rows.spec-support.js';
import { SegmentsService } from '../segments/segments.service.js';
import { MembersService } from './members.service.js';

/**
 * Which answer a count (`refresh`) and a page give for a segment whose filter changes with time alone:
 * its stored members while their last whole evaluation is at most two sweep intervals old, its
 * filter once the sweep lags (ProjectContext.answersFromStored). Time passing is played by moving a
 * contact out of the window in the read model behind the real-time path's back, as the clock would.
 */
describe('the answers of a segment with a window (PostgreSQL)', () => {
  const settings = { SEGMENTS_SWEEP_INTERVAL_MS: 60_000 } as SegmentsSettings;
  const p = 'prj_window_answers';
  let db: TestDatabase;
  let ds: DataSource;
  let compute: SegmentCompute;
  let segments: SegmentsService;
  let members: MembersService;

  beforeAll(async () => {
    db = await createTestDatabase();
    ds = await createServiceDataSource(segmentsSchema, db.url, 4).initialize();
    await migrateServiceSchema(ds);
    const parts = membershipOn(ds);
    compute = parts.compute;
    segments = new SegmentsService(
      ds,
      undefined as never,
      parts.segments,
      compute,
      undefined as never,
      settings,
      undefined as never, // the evaluation store: only POST /segments/count uses it
    );
    members = new MembersService(ds, parts.segments, parts.evaluation, parts.readModel, undefined as never, settings);
  });
  afterAll(async () => {
    await ds.destroy();
    await db.drop();
  });

  const seen = (contactId: string, hoursAgo: number) =>
    saveReadModelContacts(ds, p, [
      { contactId, data: { seenAt: new Date(Date.now() - hoursAgo * 3_600_000).toISOString() } },
    ]);
  const lastSweep = (ago: string) =>
    ds.query(`UPDATE segments.segments SET members_as_of = now() - $2::interval WHERE id = $1`, ['seg_day', ago]);
  const answers = async () => {
    const count = (await segments.refresh(p, 'seg_day')).memberCount;
    const page = await members.page(p, 'seg_day', 1, 50);
    return { count, total: page.total, listed: page.data.map((c) => c.email) };
  };

  beforeAll(async () => {
    await seen('cnt_a', 1);
    await seen('cnt_b', 2);
    await seen('cnt_old', 48);
    await ds.query(
      `INSERT INTO segments.segment_field_types (project_id, field, type) VALUES ($1, 'seenAt', 'date') ON CONFLICT DO NOTHING`,
      [p],
    );
    await saveDynamicSegment(ds, {
      id: 'seg_day',
      projectId: p,
      filters: { operator: 'AND', conditions: [{ field: 'data.seenAt', operator: 'within', value: 1, unit: 'days' }] },
    });
    expect(await compute.compute(p, 'seg_day', { fire: false, reason: 'compute' })).toEqual({
      added: 2,
      removed: 0,
      total: 2,
    });
  });

  it('a compute records the instant its members were evaluated at', async () => {
    const [row] = await ds.query<{ age: number }[]>(
      `SELECT extract(epoch FROM now() - members_as_of)::float8 AS age FROM segments.segments WHERE id = 'seg_day'`,
    );
    expect(row!.age).toBeGreaterThanOrEqual(0);
    expect(row!.age).toBeLessThan(60);
  });

  it('answers from its stored members while its last sweep is recent, from its filter once the sweep lags (its maintained count kept), and from the stored members again after the next sweep', async () => {
    await seen('cnt_b', 30); // the window closed on b; no sweep since
    await lastSweep('90 seconds');
    expect(await answers()).toEqual({
      count: 2,
      total: 2,
      listed: ['cnt_a@example.com', 'cnt_b@example.com'],
    });

    await lastSweep('121 seconds'); // more than two intervals: the sweep lags
    expect(await answers()).toEqual({ count: 1, total: 1, listed: ['cnt_a@example.com'] });
    // the live answer leaves the maintained count of the stored rows alone
    expect((await ds.getRepository(Segment).findOneByOrFail({ id: 'seg_day' })).memberCount).toBe(2);

    expect(await compute.compute(p, 'seg_day', { fire: true, reason: 'sweep' })).toEqual({
      added: 0,
      removed: 1,
      total: 1,
    });
    await seen('cnt_a', 30); // the window closes on a too, after the sweep
    expect(await answers()).toEqual({ count: 1, total: 1, listed: ['cnt_a@example.com'] });
  });

  it('a refresh caches the count of a segment whose members are not stored yet without counting as a change of the segment', async () => {
    await saveDynamicSegment(ds, {
      id: 'seg_unstored',
      projectId: p,
      filters: { operator: 'AND', conditions: [{ field: 'email', operator: 'contains', value: 'cnt_' }] },
    });
    const repo = ds.getRepository(Segment);
    const before = await repo.findOneByOrFail({ id: 'seg_unstored' });

    expect((await segments.refresh(p, 'seg_unstored')).memberCount).toBe(3);

    const after = await repo.findOneByOrFail({ id: 'seg_unstored' });
    expect(after).toMatchObject({ memberCount: 3, version: before.version, updatedAt: before.updatedAt });
    expect(after.countedAt).not.toBeNull();
  });
});

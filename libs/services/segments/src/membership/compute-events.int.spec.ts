import { SegmentEntered, SegmentExited, type EventEnvelope } from '@herald/contracts';
import { currentTraceparent, startTracing, stopTracing, withSpan } from '@herald/core';
import { outboxChannel } from '@herald/messaging';
import { createServiceDataSource, migrateServiceSchema } from '@herald/persistence';
import { createTestDatabase, eventually, type TestDatabase } from '@herald/testing';
import { InMemorySpanExporter } from '@opentelemetry/sdk-trace';
import pg from 'pg';
import type { DataSource } from 'typeorm';
import { SEGMENTS } from '../consumer.js';
import { segmentsSchema } from '../segments.module.js';
import { saveDynamicSegment, saveReadModelContacts } from '../segments/segment-rows.spec-support.js';
import { membershipOn } from './membership.spec-support.js';
import type { SegmentCompute } from './segment-compute.js';

const UUID_V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

interface OutboxRow {
  event_id: string;
  topic: string;
  message_key: string;
  envelope: EventEnvelope<{ contactId: string; email: string; at: string }>;
}

/**
 * The events of a compute that publishes, built and written to the outbox in SQL by its
 * reconciliation's statement (no envelope through the process): each row as `Outbox.add` would have
 * written the envelope the contract's `create` gives, so the relay publishes it unchanged.
 */
describe("a compute's events built in SQL (PostgreSQL)", () => {
  let db: TestDatabase;
  let ds: DataSource;
  let compute: SegmentCompute;
  const listener = { client: undefined as pg.Client | undefined, payloads: [] as string[] };

  beforeAll(async () => {
    await startTracing({ serviceName: 'test', exporter: new InMemorySpanExporter() });
    db = await createTestDatabase();
    ds = await createServiceDataSource(segmentsSchema, db.url, 4).initialize();
    await migrateServiceSchema(ds);
    ({ compute } = membershipOn(ds));
    listener.client = new pg.Client({ connectionString: db.url });
    await listener.client.connect();
    listener.client.on('notification', (n) => listener.payloads.push(n.payload ?? ''));
    await listener.client.query(`LISTEN ${outboxChannel(SEGMENTS)}`);
  });
  afterAll(async () => {
    await listener.client?.end();
    await ds.destroy();
    await db.drop();
    await stopTracing();
  });

  const outbox = (projectId: string) =>
    ds.query<OutboxRow[]>(
      `SELECT event_id, topic, message_key, envelope FROM segments.outbox WHERE envelope->>'projectId' = $1 ORDER BY id`,
      [projectId],
    );
  /** A tracked segment of the contacts whose address contains `pro-`, with stored members (`members`). */
  const trackedSegment = async (projectId: string, id: string, members: string[], trackMembership = true) => {
    await saveDynamicSegment(ds, {
      id,
      projectId,
      name: 'Pro users',
      trackMembership,
      materialized: true,
      filters: { operator: 'AND', conditions: [{ field: 'email', operator: 'contains', value: 'pro-' }] },
    });
    await ds.query(
      `INSERT INTO segments.segment_memberships (project_id, segment_id, contact_id) SELECT $1, $2, unnest($3::varchar[])`,
      [projectId, id, members],
    );
    await ds.query(`UPDATE segments.segments SET member_count = $2 WHERE id = $1`, [id, members.length]);
  };

  it("writes one envelope per entry and exit, each the contract's for its contact (valid, its reason, time, trace and source), with its own UUIDv7 as the row's id, its contact as key; entries then exits, in contact order", async () => {
    const p = 'prj_sql_events';
    await saveReadModelContacts(ds, p, [
      { contactId: 'c2', email: 'pro-2@example.com' },
      { contactId: 'c1', email: 'pro-1@example.com' },
      { contactId: 'c3', email: 'free-3@example.com' },
    ]);
    // c3 leaves; `gone` (no longer in the read model) leaves unpublished, having no address
    await trackedSegment(p, 'seg_pro', ['c3', 'gone']);
    const trace = { correlationId: 'req_1', causationId: 'evt_1' };
    const started = Date.now();
    const { result, traceparent } = await withSpan('compute', { parent: null }, async () => ({
      result: await compute.compute(p, 'seg_pro', { fire: true, reason: 'compute', trace }),
      traceparent: currentTraceparent(),
    }));
    expect(result).toEqual({ added: 2, removed: 2, total: 2 });
    expect(traceparent).toMatch(/^00-/);

    const rows = await outbox(p);
    expect(rows.map((r) => [r.topic, r.envelope.payload.contactId])).toEqual([
      ['segment.entered', 'c1'],
      ['segment.entered', 'c2'],
      ['segment.exited', 'c3'],
    ]);
    const at = rows[0]!.envelope.payload.at;
    for (const { event_id, topic, message_key, envelope } of rows) {
      const contract = topic === 'segment.entered' ? SegmentEntered : SegmentExited;
      expect(contract.validate(envelope)).toEqual([]);
      const { contactId, email } = envelope.payload;
      expect(envelope).toEqual({
        ...contract.create({
          projectId: p,
          source: SEGMENTS,
          occurredAt: new Date(at),
          payload: { segmentId: 'seg_pro', segmentName: 'Pro users', contactId, email, at, reason: 'compute' },
          ...trace,
          traceparent: traceparent!,
        }),
        eventId: envelope.eventId,
      });
      expect([event_id, message_key]).toEqual([envelope.eventId, contactId]);
      expect(envelope.eventId).toMatch(UUID_V7);
      const ms = parseInt(envelope.eventId.replace(/-/g, '').slice(0, 12), 16);
      expect(ms).toBeGreaterThanOrEqual(started - 1000);
      expect(ms).toBeLessThanOrEqual(Date.now() + 1000);
    }
    expect(new Set(rows.map((r) => r.event_id)).size).toBe(3);
    expect(rows.map((r) => r.envelope.payload.email)).toEqual([
      'pro-1@example.com',
      'pro-2@example.com',
      'free-3@example.com',
    ]);
    // the relay is woken at the commit, once for the batch's events
    await eventually(() => listener.payloads.includes('3'), { timeoutMs: 10_000, message: 'NOTIFY of 3 events' });
  });

  it("moves the segment's count by its entries and exits, and a compute finding nothing to change writes no event", async () => {
    const p = 'prj_sql_events_counts';
    await saveReadModelContacts(ds, p, [{ contactId: 'c1', email: 'pro-1@example.com' }]);
    await trackedSegment(p, 'seg_counts', ['x1', 'x2']);
    expect(await compute.compute(p, 'seg_counts', { fire: true, reason: 'compute' })).toEqual({
      added: 1,
      removed: 2,
      total: 1,
    });
    const [{ member_count }] = await ds.query<[{ member_count: number }]>(
      `SELECT member_count FROM segments.segments WHERE id = 'seg_counts'`,
    );
    expect(member_count).toBe(1);
    expect((await outbox(p)).map((r) => [r.topic, r.envelope.correlationId ?? null])).toEqual([
      ['segment.entered', null],
    ]);
    expect(await compute.compute(p, 'seg_counts', { fire: true, reason: 'compute' })).toEqual({
      added: 0,
      removed: 0,
      total: 1,
    });
    expect(await outbox(p)).toHaveLength(1);
  });

  it('a segment that does not track membership publishes none of its entries and exits', async () => {
    const p = 'prj_sql_events_untracked';
    await saveReadModelContacts(ds, p, [{ contactId: 'c1', email: 'pro-1@example.com' }]);
    await trackedSegment(p, 'seg_untracked', ['x1'], false);
    expect(await compute.compute(p, 'seg_untracked', { fire: true, reason: 'compute' })).toEqual({
      added: 1,
      removed: 1,
      total: 1,
    });
    expect(await outbox(p)).toEqual([]);
  });
});

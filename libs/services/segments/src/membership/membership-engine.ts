import { SegmentEntered, SegmentExited, type EventEnvelope, type SegmentMembershipReason } from '@herald/contracts';
import { compileFilter, type FilterSqlSchema } from '@herald/filters';
import { InjectOutbox, type Outbox } from '@herald/messaging';
import { tableName } from '@herald/persistence';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, EntityManager } from 'typeorm';
import { SEGMENTS } from '../consumer.js';
import { SegmentContact } from '../read-model/read-model.entities.js';
import { ReadModelWriter } from '../read-model/read-model.writer.js';
import { Segment, SegmentMembership } from '../segments/segment.entity.js';
import { filterSqlSchema, ProjectContext } from './project-context.js';

/** Which contacts one reconciliation looks at: one contact, or a range of contact ids `(after, upto]`. */
export type Scope = { contactId: string } | { after: string | null; upto: string | null };

export interface Trace {
  correlationId?: string;
  causationId?: string;
}

export interface ReconcileOptions {
  /** Publish `segment.entered` / `segment.exited` for what changed (false: a silent baseline). */
  fire: boolean;
  reason: SegmentMembershipReason;
  now: Date;
  trace?: Trace;
}

/** Contacts per transaction of a compute: bounds its memory and the length of its locks. */
export const COMPUTE_BATCH = 5000;

/**
 * Keeps the stored membership of tracked dynamic segments equal to their filter, in SQL: the
 * difference between the live filter (`compileFilter`) and `segment_memberships` within a scope is
 * written with `INSERT … ON CONFLICT DO NOTHING RETURNING` and `DELETE … RETURNING`, so that each
 * entry and exit is written, counted and published exactly once however calls overlap (a compute,
 * the sweep and the real-time path over the same contact). Events go through the outbox, in the
 * transaction of the membership change.
 */
@Injectable()
export class MembershipEngine {
  private readonly sql: FilterSqlSchema;
  private readonly contacts: string;
  private readonly memberships: string;
  private readonly segmentsTable: string;

  constructor(
    @InjectDataSource(SEGMENTS) private readonly db: DataSource,
    @InjectOutbox(SEGMENTS) private readonly outbox: Outbox,
    private readonly readModel: ReadModelWriter,
  ) {
    this.sql = filterSqlSchema(db);
    this.contacts = tableName(db, SegmentContact);
    this.memberships = tableName(db, SegmentMembership);
    this.segmentsTable = tableName(db, Segment);
  }

  /** Reconciles one tracked dynamic segment within `scope`. Returns what entered and left. */
  async reconcile(
    m: EntityManager,
    ctx: ProjectContext,
    segment: Segment,
    scope: Scope,
    opts: ReconcileOptions,
  ): Promise<{ added: number; removed: number }> {
    const filter = ctx.filterOf(segment);
    if (!filter) return { added: 0, removed: 0 };
    const head: unknown[] = [ctx.projectId, segment.id];
    let live: string;
    let stored: string;
    if ('contactId' in scope) {
      head.push(scope.contactId);
      live = 'c.contact_id = $3::varchar';
      stored = 'ms.contact_id = $3::varchar';
    } else {
      head.push(scope.after, scope.upto);
      live =
        '($3::varchar IS NULL OR c.contact_id > $3::varchar) AND ($4::varchar IS NULL OR c.contact_id <= $4::varchar)';
      stored =
        '($3::varchar IS NULL OR ms.contact_id > $3::varchar) AND ($4::varchar IS NULL OR ms.contact_id <= $4::varchar)';
    }
    // The scope's contacts first, by the primary key (a range of one batch, or one contact), then the
    // filter on them: OFFSET 0 keeps the planner from pushing the filter into the scan, where it would
    // AND the key range with an index of the filter (the GIN on data: the posting list of every
    // contact matching in the project) — per batch, a cost in the segment's size, so a compute grew
    // with the square of it (bench/segments: 200,000 members took minutes).
    const source = `(SELECT * FROM ${this.contacts} c WHERE c.project_id = $1::varchar AND ${live} OFFSET 0)`;
    const f = compileFilter(filter, {
      projectId: ctx.projectId,
      now: opts.now,
      fieldTypes: ctx.fieldTypes,
      segments: ctx.resolver,
      schema: this.sql,
      params: head,
    });
    const rows: { entered: boolean; contact_id: string; email: string | null }[] = await m.query(
      `WITH live AS MATERIALIZED (
         SELECT c.contact_id, c.email FROM ${source} c WHERE ${f.sql}),
       ins AS (
         INSERT INTO ${this.memberships} (project_id, segment_id, contact_id)
         SELECT $1::varchar, $2::varchar, contact_id FROM live ORDER BY contact_id
         ON CONFLICT (project_id, segment_id, contact_id) DO NOTHING RETURNING contact_id),
       del AS (
         DELETE FROM ${this.memberships} ms
          WHERE ms.project_id = $1::varchar AND ms.segment_id = $2::varchar AND ${stored}
            AND NOT EXISTS (SELECT 1 FROM live l WHERE l.contact_id = ms.contact_id)
         RETURNING ms.contact_id)
       SELECT true AS entered, ins.contact_id, l.email FROM ins JOIN live l USING (contact_id)
       UNION ALL
       SELECT false, del.contact_id, c2.email FROM del
         LEFT JOIN ${this.contacts} c2 ON c2.project_id = $1::varchar AND c2.contact_id = del.contact_id`,
      f.params,
    );
    const added = rows.filter((r) => r.entered).length;
    const removed = rows.length - added;
    if (rows.length === 0) return { added, removed };
    await this.adjustCount(m, segment.id, added - removed);
    if (opts.fire)
      await this.publish(
        m,
        ctx.projectId,
        segment,
        rows.filter((r): r is typeof r & { email: string } => r.email !== null),
        opts,
      );
    return { added, removed };
  }

  /**
   * A read-model consumer changed a contact (in its transaction): re-evaluate it against the
   * project's tracked dynamic segments, in id order (a segment referencing another tracked
   * segment of a smaller id sees its new membership).
   */
  async onContactChanged(m: EntityManager, projectId: string, contactId: string, trace: Trace): Promise<void> {
    const tracked = await m.query<{ id: string }[]>(
      `SELECT id FROM ${this.segmentsTable} WHERE project_id = $1 AND type = 'DYNAMIC' AND track_membership LIMIT 1`,
      [projectId],
    );
    if (tracked.length === 0) return;
    // One re-evaluation of a contact at a time, and each sees the writes of the one before it. The
    // contact's row lock is not enough: two events of one contact applied at once (`contact.created`
    // and `event.tracked` arrive on different topics) each write, and neither sees the other's
    // uncommitted row, so neither would match a filter that needs both. The advisory lock is taken
    // after this transaction's write and held to its commit; the evaluation after it reads a fresh
    // snapshot (READ COMMITTED), so the later of the two sees both writes. The row lock remains
    // for a compute batch, which takes its contacts' rows FOR SHARE.
    await m.query(`SELECT pg_advisory_xact_lock(hashtext($1), hashtext($2))`, [projectId, contactId]);
    await m.query(`SELECT 1 FROM ${this.contacts} WHERE project_id = $1 AND contact_id = $2 FOR UPDATE`, [
      projectId,
      contactId,
    ]);
    const ctx = await ProjectContext.load(m, projectId, this.readModel);
    const now = new Date();
    for (const segment of ctx.segments.values())
      if (segment.type === 'DYNAMIC' && segment.trackMembership)
        await this.reconcile(m, ctx, segment, { contactId }, { fire: true, reason: 'change', now, trace });
  }

  /** `contact.deleted`: every stored membership goes; tracked dynamic segments publish the exit. */
  async onContactDeleted(
    m: EntityManager,
    projectId: string,
    contact: { contactId: string; email: string },
    trace: Trace,
  ): Promise<void> {
    const rows = await m.query<{ segment_id: string }[]>(
      `WITH d AS (DELETE FROM ${this.memberships} WHERE project_id = $1 AND contact_id = $2 RETURNING segment_id) SELECT segment_id FROM d`,
      [projectId, contact.contactId],
    );
    if (rows.length === 0) return;
    const ids = rows.map((r) => r.segment_id).sort();
    const segments = await m.query<{ id: string; name: string; type: string; track_membership: boolean }[]>(
      `SELECT id, name, type, track_membership FROM ${this.segmentsTable} WHERE project_id = $1 AND id = ANY($2::varchar[]) ORDER BY id`,
      [projectId, ids],
    );
    const now = new Date();
    for (const s of segments) {
      await this.adjustCount(m, s.id, -1);
      if (s.type === 'DYNAMIC' && s.track_membership)
        await this.publish(
          m,
          projectId,
          { id: s.id, name: s.name },
          [{ entered: false, contact_id: contact.contactId, email: contact.email }],
          { reason: 'change', now, trace },
        );
    }
  }

  /**
   * Recomputes a tracked dynamic segment over all the project's contacts, in batches of
   * COMPUTE_BATCH contact ids, each its own transaction: its contact rows are locked FOR SHARE
   * first, so a concurrent real-time re-evaluation of one of them waits (or is waited for) and
   * both end on the same state. Returns the entries, exits and the members after.
   */
  async compute(
    projectId: string,
    segmentId: string,
    opts: { fire: boolean; reason: SegmentMembershipReason; trace?: Trace },
  ): Promise<{ added: number; removed: number; total: number } | undefined> {
    let after: string | null = null;
    let added = 0;
    let removed = 0;
    const now = new Date();
    for (;;) {
      const next: string | null | undefined = await this.db.transaction(async (m) => {
        const bound = await m.query<{ contact_id: string }[]>(
          `SELECT contact_id FROM ${this.contacts} WHERE project_id = $1 AND ($2::varchar IS NULL OR contact_id > $2::varchar)
            ORDER BY contact_id OFFSET ${COMPUTE_BATCH - 1} LIMIT 1`,
          [projectId, after],
        );
        const upto = bound[0]?.contact_id ?? null;
        await m.query(
          `SELECT count(*) FROM (SELECT 1 FROM ${this.contacts} WHERE project_id = $1
              AND ($2::varchar IS NULL OR contact_id > $2::varchar) AND ($3::varchar IS NULL OR contact_id <= $3::varchar)
            ORDER BY contact_id FOR SHARE) locked`,
          [projectId, after, upto],
        );
        const ctx = await ProjectContext.load(m, projectId, this.readModel);
        const segment = ctx.segments.get(segmentId);
        if (!segment || segment.type !== 'DYNAMIC' || !segment.trackMembership) return undefined;
        const r = await this.reconcile(m, ctx, segment, { after, upto }, { ...opts, now });
        added += r.added;
        removed += r.removed;
        return upto;
      });
      if (next === undefined) return undefined;
      if (next === null) break;
      after = next;
    }
    const total = await this.recount(this.db.manager, projectId, segmentId);
    return { added, removed, total };
  }

  /** Counts the stored members again and caches the count (the truth after a compute). */
  async recount(m: EntityManager, projectId: string, segmentId: string): Promise<number> {
    const [row] = await m.query<{ n: number }[]>(
      `WITH u AS (UPDATE ${this.segmentsTable} s SET member_count = x.n, counted_at = now()
         FROM (SELECT count(*)::int AS n FROM ${this.memberships} WHERE project_id = $1 AND segment_id = $2) x
        WHERE s.project_id = $1 AND s.id = $2 RETURNING x.n) SELECT n FROM u`,
      [projectId, segmentId],
    );
    return row?.n ?? 0;
  }

  /** Counts the live members of a dynamic segment (no writes). */
  async countLive(m: EntityManager, ctx: ProjectContext, segment: Segment, now = new Date()): Promise<number> {
    const filter = ctx.filterOf(segment);
    if (!filter) return 0;
    const f = compileFilter(filter, {
      projectId: ctx.projectId,
      now,
      fieldTypes: ctx.fieldTypes,
      segments: ctx.resolver,
      schema: this.sql,
    });
    const [row] = await m.query<{ n: number }[]>(
      `SELECT count(*)::int AS n FROM ${this.contacts} c WHERE ${f.sql}`,
      f.params,
    );
    return row?.n ?? 0;
  }

  private async adjustCount(m: EntityManager, segmentId: string, delta: number): Promise<void> {
    if (delta === 0) return;
    await m.query(`UPDATE ${this.segmentsTable} SET member_count = GREATEST(member_count + $2, 0) WHERE id = $1`, [
      segmentId,
      delta,
    ]);
  }

  private async publish(
    m: EntityManager,
    projectId: string,
    segment: { id: string; name: string },
    rows: { entered: boolean; contact_id: string; email: string }[],
    opts: Pick<ReconcileOptions, 'reason' | 'now' | 'trace'>,
  ): Promise<void> {
    const at = opts.now.toISOString();
    const events: EventEnvelope[] = rows.map((r) =>
      (r.entered ? SegmentEntered : SegmentExited).create({
        projectId,
        source: SEGMENTS,
        occurredAt: opts.now,
        payload: {
          segmentId: segment.id,
          segmentName: segment.name,
          contactId: r.contact_id,
          email: r.email,
          at,
          reason: opts.reason,
        },
        ...(opts.trace?.correlationId ? { correlationId: opts.trace.correlationId } : {}),
        ...(opts.trace?.causationId ? { causationId: opts.trace.causationId } : {}),
      }),
    );
    await this.outbox.add(m, ...events);
  }
}

import { SegmentEntered, SegmentExited, type EventEnvelope, type SegmentMembershipReason } from '@herald/contracts';
import { compileFilter, type Filter } from '@herald/filters';
import { InjectOutbox, type Outbox } from '@herald/messaging';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, EntityManager } from 'typeorm';
import { SEGMENTS } from '../consumer.js';
import { ReadModelWriter } from '../read-model/read-model.writer.js';
import { Segment } from '../segments/segment.entity.js';
import { ProjectContext, segmentTables, type SegmentTables } from './project-context.js';
import { dependentsInOrder, readsEvent, storedReads } from './segment-dependencies.js';

/**
 * Which contacts one reconciliation looks at: one contact, or a list of contact ids (`span`: the
 * ids are a contiguous stretch of the id order, as a compute's batches are).
 */
export type Scope = { contactId: string } | { contactIds: string[]; span?: true };

export interface Trace {
  correlationId?: string;
  causationId?: string;
}

/** What changed about a contact: its row or engagement (every segment), or one tracked event. */
export type ContactChange = { kind: 'contact' } | { kind: 'event'; name: string };

export interface ReconcileOptions {
  /** Publish `segment.entered` / `segment.exited` for what changed (false: a silent baseline). */
  fire: boolean;
  reason: SegmentMembershipReason;
  now: Date;
  trace?: Trace;
  /** The trace of each contact's own change, when changes of several contacts are reconciled together. */
  traceOf?: (contactId: string) => Trace | undefined;
}

/** A contact a read-model consumer changed, and how. */
export interface ChangedContact {
  projectId: string;
  contactId: string;
  trace: Trace;
  change: ContactChange;
}

/**
 * Keeps the stored membership of dynamic segments equal to their filter, in SQL: the
 * difference between the live filter (`compileFilter`) and `segment_memberships` within a scope is
 * written with `INSERT … ON CONFLICT DO NOTHING RETURNING` and `DELETE … RETURNING`, so that each
 * entry and exit is written, counted and published exactly once however calls overlap (a compute,
 * the sweep and the real-time path over the same contact). Events go through the outbox, in the
 * transaction of the membership change, for the segments that track membership (the others keep
 * their members for counts, pages and `segment.<id>`, silently).
 */
@Injectable()
export class MembershipEngine {
  private readonly t: SegmentTables;

  constructor(
    @InjectDataSource(SEGMENTS) db: DataSource,
    @InjectOutbox(SEGMENTS) private readonly outbox: Outbox,
    private readonly readModel: ReadModelWriter,
  ) {
    this.t = segmentTables(db);
  }

  /** Reconciles one dynamic segment within `scope`. Returns what entered and left. */
  async reconcile(
    m: EntityManager,
    ctx: ProjectContext,
    segment: Segment,
    scope: Scope,
    opts: ReconcileOptions,
  ): Promise<{ added: number; removed: number }> {
    return this.reconcileMany(m, ctx, [segment], scope, opts);
  }

  /**
   * Reconciles dynamic segments within `scope` in one statement (the scope's contacts read
   * once, each segment's filter over them, one INSERT and one DELETE for all), then their counts in
   * one statement and their events in one outbox statement. The segments must not read each
   * other's membership (one statement does not see its own writes): see `onContactChanged`.
   */
  async reconcileMany(
    m: EntityManager,
    ctx: ProjectContext,
    segments: Segment[],
    scope: Scope,
    opts: ReconcileOptions,
  ): Promise<{ added: number; removed: number }> {
    const withFilter = segments
      .map((segment) => ({ segment, filter: ctx.filterOf(segment) }))
      .filter((x): x is { segment: Segment; filter: Filter } => x.filter !== undefined);
    if (withFilter.length === 0) return { added: 0, removed: 0 };
    const ids = withFilter.map((x) => x.segment.id);
    let params: unknown[] = [ctx.projectId, ids];
    let scoped: string;
    let stored: string;
    if ('contactId' in scope) {
      params.push(scope.contactId);
      scoped = 'c.contact_id = $3::varchar';
      stored = 'ms.contact_id = $3::varchar';
    } else {
      // a compute's contiguous batch also gives its ids' span (min and max in PostgreSQL's collation):
      // the planner then reads the batch by the primary key, not a scan of the project's contacts
      // hashing 5,000 ids; scattered ids (the contacts a consumer batch changed) are looked up one by
      // one in the keys, as their span would cover most of the project and be scanned
      params.push(scope.contactIds);
      const span = (col: string) =>
        scope.span
          ? `${col} = ANY($3::varchar[]) AND ${col} >= (SELECT min(k) FROM unnest($3::varchar[]) k)` +
            ` AND ${col} <= (SELECT max(k) FROM unnest($3::varchar[]) k)`
          : `${col} = ANY($3::varchar[])`;
      scoped = span('c.contact_id');
      stored = span('ms.contact_id');
    }
    // The scope's contacts first, by the primary key (one contact, or one batch of a compute's ids),
    // materialised once for every segment, then each filter on them: the filter never reaches the
    // scan, where the planner would AND the keys with an index of the filter (the GIN on data: the
    // posting list of every contact matching in the project) — per batch, a cost in the segment's size.
    // The entries' addresses come from the contacts' primary key, not from joining `live` (a CTE the
    // planner estimates at one row: it nested-looped ins × live, 5,000 × 5,000 per batch).
    const branches: string[] = [];
    for (const { segment, filter } of withFilter) {
      params.push(segment.id);
      const id = `$${params.length}::varchar`;
      const f = compileFilter(filter, {
        projectId: ctx.projectId,
        now: opts.now,
        fieldTypes: ctx.fieldTypes,
        segments: ctx.resolver,
        schema: this.t.sql,
        params,
        // a consumer's changed contacts: each probes its own records by key, whatever the statistics
        perContact: !('span' in scope && scope.span),
      });
      params = f.params;
      branches.push(`SELECT ${id} AS segment_id, c.contact_id, c.email FROM scoped c WHERE ${f.sql}`);
    }
    const rows: { entered: boolean; segment_id: string; contact_id: string; email: string | null }[] = await m.query(
      `WITH scoped AS MATERIALIZED (
         SELECT * FROM ${this.t.contacts} c WHERE c.project_id = $1::varchar AND ${scoped}),
       live AS MATERIALIZED (${branches.join(' UNION ALL ')}),
       ins AS (
         INSERT INTO ${this.t.memberships} (project_id, segment_id, contact_id)
         SELECT $1::varchar, segment_id, contact_id FROM live ORDER BY segment_id, contact_id
         ON CONFLICT (project_id, segment_id, contact_id) DO NOTHING RETURNING segment_id, contact_id),
       del AS (
         DELETE FROM ${this.t.memberships} ms
          WHERE ms.project_id = $1::varchar AND ms.segment_id = ANY($2::varchar[]) AND ${stored}
            AND NOT EXISTS (SELECT 1 FROM live l WHERE l.segment_id = ms.segment_id AND l.contact_id = ms.contact_id)
         RETURNING ms.segment_id, ms.contact_id)
       SELECT true AS entered, ins.segment_id, ins.contact_id, c1.email FROM ins
         JOIN ${this.t.contacts} c1 ON c1.project_id = $1::varchar AND c1.contact_id = ins.contact_id
       UNION ALL
       SELECT false, del.segment_id, del.contact_id, c2.email FROM del
         LEFT JOIN ${this.t.contacts} c2 ON c2.project_id = $1::varchar AND c2.contact_id = del.contact_id`,
      params,
    );
    const added = rows.filter((r) => r.entered).length;
    const removed = rows.length - added;
    if (rows.length === 0) return { added, removed };
    const delta = new Map<string, number>();
    for (const r of rows) delta.set(r.segment_id, (delta.get(r.segment_id) ?? 0) + (r.entered ? 1 : -1));
    await this.adjustCounts(m, delta);
    if (opts.fire) {
      const events: EventEnvelope[] = [];
      for (const { segment } of withFilter) {
        if (!segment.trackMembership) continue;
        const own = rows.filter(
          (r): r is typeof r & { email: string } => r.segment_id === segment.id && r.email !== null,
        );
        events.push(...this.events(ctx.projectId, segment, own, opts));
      }
      await this.outbox.add(m, ...events);
    }
    return { added, removed };
  }

  /** A read-model consumer changed a contact (in its transaction): `onContactsChanged` for one. */
  async onContactChanged(
    m: EntityManager,
    projectId: string,
    contactId: string,
    trace: Trace,
    change: ContactChange = { kind: 'contact' },
  ): Promise<void> {
    await this.onContactsChanged(m, [{ projectId, contactId, trace, change }]);
  }

  /**
   * A read-model consumer changed contacts (in its transaction): re-evaluate them against their
   * project's dynamic segments, a project at a time. The segments reading no stored membership of a
   * dynamic segment go together in one statement (for changes that are only new tracked events,
   * those whose filter reads events of one of their names); then, one at a time, those that do, each
   * after the segments it reads (no cycles: `checkFilter`), so that it sees their new membership. A contact changed several times is re-evaluated
   * once, on its state after all of them; its entries and exits name the last change as their cause.
   */
  async onContactsChanged(m: EntityManager, changes: ChangedContact[]): Promise<void> {
    if (changes.length === 0) return;
    for (const projectId of [...new Set(changes.map((c) => c.projectId))].sort())
      await this.reevaluate(
        m,
        projectId,
        changes.filter((c) => c.projectId === projectId),
      );
  }

  private async reevaluate(m: EntityManager, projectId: string, changes: ChangedContact[]): Promise<void> {
    const traces = new Map<string, Trace>();
    const eventNames = new Set<string>();
    let anyContact = false;
    for (const c of changes) {
      traces.set(c.contactId, c.trace);
      if (c.change.kind === 'contact') anyContact = true;
      else eventNames.add(c.change.name);
    }
    const contactIds = [...traces.keys()].sort();
    // One re-evaluation of a contact at a time, and each sees the writes of the one before it. The
    // contact's row lock is not enough: two events of one contact applied at once (`contact.created`
    // and `event.tracked` arrive on different topics) each write, and neither sees the other's
    // uncommitted row, so neither would match a filter that needs both. The advisory locks are taken
    // after this transaction's writes, in contact order, and held to its commit; the evaluation after
    // them reads a fresh snapshot (READ COMMITTED), so the later of the two sees both writes. The row
    // locks remain for a compute batch, which takes its contacts' rows FOR SHARE; they are taken in a
    // statement of their own, after the wait, whose snapshot sees a row the one before committed (a
    // statement's snapshot predates its own waits). The first statement also answers whether the
    // project has a dynamic segment: a project without one stops there.
    const [{ dynamic }] = await m.query<[{ dynamic: boolean }]>(
      `SELECT count(pg_advisory_xact_lock(hashtext($1), hashtext(k))) AS locked,
              EXISTS (SELECT 1 FROM ${this.t.segments} WHERE project_id = $1 AND type = 'DYNAMIC') AS dynamic
         FROM (SELECT k FROM unnest($2::varchar[]) k ORDER BY k) ordered`,
      [projectId, contactIds],
    );
    if (!dynamic) return;
    await m.query(
      `SELECT count(*) FROM (SELECT 1 FROM ${this.t.contacts} WHERE project_id = $1 AND contact_id = ANY($2::varchar[])
          ORDER BY contact_id FOR UPDATE) locked`,
      [projectId, contactIds],
    );
    // the project's segments and field types as of now (after the wait, what the one before committed)
    const ctx = await ProjectContext.load(m, projectId, this.readModel);
    const opts: ReconcileOptions = {
      fire: true,
      reason: 'change',
      now: new Date(),
      traceOf: (contactId) => traces.get(contactId),
    };
    const independent: Segment[] = [];
    const reads = new Map<string, Set<string>>();
    for (const segment of ctx.segments.values()) {
      if (segment.type !== 'DYNAMIC') continue;
      const filter = ctx.filterOf(segment);
      if (!filter) continue;
      const stored = storedReads(ctx, filter);
      if (stored.size > 0) reads.set(segment.id, stored);
      // a new event of a name changes only the filters that read events of that name: the others
      // gave the same answer at the contact's last change, and still do
      else if (anyContact || [...eventNames].some((name) => readsEvent(ctx, filter, name))) independent.push(segment);
    }
    const scope: Scope = contactIds.length === 1 ? { contactId: contactIds[0]! } : { contactIds };
    await this.reconcileMany(m, ctx, independent, scope, opts);
    for (const segment of dependentsInOrder(ctx, reads)) await this.reconcile(m, ctx, segment, scope, opts);
  }

  /** `contact.deleted`: every stored membership goes; the segments tracking membership publish the exit. */
  async onContactDeleted(
    m: EntityManager,
    projectId: string,
    contact: { contactId: string; email: string },
    trace: Trace,
  ): Promise<void> {
    const rows = await m.query<{ segment_id: string }[]>(
      `WITH d AS (DELETE FROM ${this.t.memberships} WHERE project_id = $1 AND contact_id = $2 RETURNING segment_id) SELECT segment_id FROM d`,
      [projectId, contact.contactId],
    );
    if (rows.length === 0) return;
    const ids = rows.map((r) => r.segment_id).sort();
    const segments = await m.query<{ id: string; name: string; type: string; track_membership: boolean }[]>(
      `SELECT id, name, type, track_membership FROM ${this.t.segments} WHERE project_id = $1 AND id = ANY($2::varchar[]) ORDER BY id`,
      [projectId, ids],
    );
    const now = new Date();
    await this.adjustCounts(m, new Map(segments.map((s) => [s.id, -1])));
    const exited = [{ entered: false, contact_id: contact.contactId, email: contact.email }];
    await this.outbox.add(
      m,
      ...segments
        .filter((s) => s.type === 'DYNAMIC' && s.track_membership)
        .flatMap((s) => this.events(projectId, s, exited, { reason: 'change', now, trace })),
    );
  }

  /** Adds each segment's delta to its cached count, the rows locked in id order (as every writer does). */
  private async adjustCounts(m: EntityManager, delta: Map<string, number>): Promise<void> {
    const changed = [...delta].filter(([, d]) => d !== 0).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    if (changed.length === 0) return;
    await m.query(
      `WITH d AS (SELECT * FROM unnest($1::varchar[], $2::int[]) AS d(id, delta)),
            locked AS (SELECT s.id FROM ${this.t.segments} s WHERE s.id IN (SELECT id FROM d) ORDER BY s.id FOR UPDATE)
       UPDATE ${this.t.segments} s SET member_count = GREATEST(s.member_count + d.delta, 0)
         FROM d JOIN locked USING (id) WHERE s.id = d.id`,
      [changed.map(([id]) => id), changed.map(([, d]) => d)],
    );
  }

  private events(
    projectId: string,
    segment: { id: string; name: string },
    rows: { entered: boolean; contact_id: string; email: string }[],
    opts: Pick<ReconcileOptions, 'reason' | 'now' | 'trace' | 'traceOf'>,
  ): EventEnvelope[] {
    const at = opts.now.toISOString();
    return rows.map((r) => {
      const trace = opts.traceOf?.(r.contact_id) ?? opts.trace;
      return (r.entered ? SegmentEntered : SegmentExited).create({
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
        ...(trace?.correlationId ? { correlationId: trace.correlationId } : {}),
        ...(trace?.causationId ? { causationId: trace.causationId } : {}),
      });
    });
  }
}

import { SegmentEntered, SegmentExited, type EventEnvelope, type SegmentMembershipReason } from '@herald/contracts';
import type { Filter } from '@herald/filters';
import { InjectOutbox, type Outbox } from '@herald/messaging';
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { SEGMENTS } from '../consumer.js';
import { ReadModelStore } from '../contacts/read-model.store.js';
import { reachOf, touchesOf, type ContactChange } from './change-reach.js';
import type { Scope } from './evaluation-scope.js';
import { EvaluationStore } from './evaluation.store.js';
import type { ReconcileCount } from './events-in-sql.store.js';
import { ProjectContexts, type ProjectContext } from './project-context.js';
import { ReadKeysIndex } from './read-keys-index.js';
import type { Segment } from './segment.entity.js';
import { dependentsInOrder, storedReads } from './segment-dependencies.js';
import { SegmentsStore } from './segments.store.js';

export type { Scope } from './evaluation-scope.js';

export interface Trace {
  correlationId?: string;
  causationId?: string;
}

/** The contact and address of the envelopes built in the process as templates of events built in SQL. */
const TEMPLATE_CONTACT = 'template';
const TEMPLATE_EMAIL = 'template@example.com';

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
  /** The keys each dynamic segment reads, per project (re-derived when a definition changes). */
  readonly readKeys = new ReadKeysIndex();
  /** The projects' contexts, kept while their definitions stay (`ProjectContexts`). */
  readonly contexts = new ProjectContexts();

  constructor(
    @InjectOutbox(SEGMENTS) private readonly outbox: Outbox,
    private readonly segments: SegmentsStore,
    private readonly evaluation: EvaluationStore,
    private readonly readModel: ReadModelStore,
  ) {}

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
    const tracking = withFilter.filter((x) => x.segment.trackMembership);
    if ('difference' in scope)
      return opts.fire && tracking.length > 0
        ? this.reconcilePublishing(m, ctx, withFilter, tracking, scope, opts)
        : this.reconcileCounting(m, ctx, withFilter, scope, opts);
    // a silent reconciliation publishes nothing: its entries need no address
    const rows = await this.evaluation.reconcile(m, ctx, withFilter, scope, opts.now, { addresses: opts.fire });
    const added = rows.filter((r) => r.entered).length;
    const removed = rows.length - added;
    if (rows.length === 0) return { added, removed };
    const delta = new Map<string, number>();
    for (const r of rows) delta.set(r.segment_id, (delta.get(r.segment_id) ?? 0) + (r.entered ? 1 : -1));
    await this.segments.adjustCounts(m, delta);
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

  /** A compute's batch that publishes nothing: its entries and exits counted in SQL, their counts moved. */
  private async reconcileCounting(
    m: EntityManager,
    ctx: ProjectContext,
    withFilter: { segment: Segment; filter: Filter }[],
    scope: Scope,
    opts: ReconcileOptions,
  ): Promise<{ added: number; removed: number }> {
    const counts = await this.evaluation.reconcileCounting(m, ctx, withFilter, scope, opts.now);
    return this.adjusted(m, counts);
  }

  /** Moves each segment's count by its entries and exits; answers them in total. */
  private async adjusted(m: EntityManager, counts: ReconcileCount[]): Promise<{ added: number; removed: number }> {
    await this.segments.adjustCounts(m, new Map(counts.map((c) => [c.segment_id, c.added - c.removed])));
    return {
      added: counts.reduce((n, c) => n + c.added, 0),
      removed: counts.reduce((n, c) => n + c.removed, 0),
    };
  }

  /**
   * A compute's batch that publishes (its contacts share one trace): the events of the tracking
   * segments are built and written to the outbox by the reconciliation's own statement, from each
   * segment's envelopes built here by the contracts for a placeholder contact (`events`: its reason,
   * time, trace and source), each event with its own id, key, contact and address; so that tens of
   * thousands of entries and exits never pass through the process.
   */
  private async reconcilePublishing(
    m: EntityManager,
    ctx: ProjectContext,
    withFilter: { segment: Segment; filter: Filter }[],
    tracking: { segment: Segment }[],
    scope: Scope,
    opts: ReconcileOptions,
  ): Promise<{ added: number; removed: number }> {
    const placeholder = { contact_id: TEMPLATE_CONTACT, email: TEMPLATE_EMAIL };
    const templates = tracking.map(({ segment }) => {
      const [entered, exited] = this.events(
        ctx.projectId,
        segment,
        [
          { ...placeholder, entered: true },
          { ...placeholder, entered: false },
        ],
        opts,
      );
      return { segmentId: segment.id, entered: entered!, exited: exited! };
    });
    const counts = await this.evaluation.reconcilePublishing(m, ctx, withFilter, scope, opts.now, {
      outbox: this.outbox,
      templates,
    });
    return this.adjusted(m, counts);
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
   * project's dynamic segments, a project at a time: only those whose filter reads a key one of the
   * changes touched (`ReadKeysIndex`; a change of unknown keys reaches them all), and, for a
   * creation, those a contact holding nothing they read may match (`mayMatchEmpty`): the others
   * answer for the new contact what they answer for one holding nothing, no.
   * Those reading no stored membership of a dynamic segment go together in one statement; then, one
   * at a time, those that do, each after the segments it reads (no cycles: `checkFilter`), so that it
   * sees their new membership. A contact changed several times is re-evaluated once, on its state
   * after all of them, for the union of their keys; its entries and exits name the last change as
   * their cause.
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
    for (const c of changes) traces.set(c.contactId, c.trace);
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
    if (!(await this.evaluation.lockForReevaluation(m, projectId, contactIds))) return;
    await this.evaluation.lockContacts(m, projectId, contactIds);
    // what the created contacts hold, read after the locks: with what the one before committed
    const created = [...new Set(changes.filter((c) => c.change.kind === 'created').map((c) => c.contactId))];
    const held = created.length > 0 ? await this.readModel.heldKeys(m, projectId, created.sort()) : new Map();
    // the project's segments and field types as of now (after the wait, what the one before committed),
    // from the cache while their stamp stays
    const ctx = await this.contexts.load(m, projectId, this.segments);
    const opts: ReconcileOptions = {
      fire: true,
      reason: 'change',
      now: new Date(),
      traceOf: (contactId) => traces.get(contactId),
    };
    // each segment over only the contacts whose changes touched a key its filter (with the segments
    // it reads) reads, or created ones it may match: for the others it gives the same answer as at
    // their last change, and still does (time alone moves the windows, at the sweep)
    const reach = reachOf(this.readKeys.of(ctx), touchesOf(changes, held));
    const independent: Segment[] = [];
    const reads = new Map<string, Set<string>>();
    for (const segmentId of reach.keys()) {
      const segment = ctx.segments.get(segmentId)!;
      const filter = ctx.filterOf(segment);
      if (!filter) continue;
      const stored = storedReads(ctx, filter);
      if (stored.size > 0) reads.set(segment.id, stored);
      else independent.push(segment);
    }
    const scope: Scope = contactIds.length === 1 ? { contactId: contactIds[0]! } : { contactIds, bySegment: reach };
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
    const segments = await this.segments.leaveAll(m, projectId, contact.contactId);
    if (segments.length === 0) return;
    const now = new Date();
    await this.segments.adjustCounts(m, new Map(segments.map((s) => [s.id, -1])));
    const exited = [{ entered: false, contact_id: contact.contactId, email: contact.email }];
    await this.outbox.add(
      m,
      ...segments
        .filter((s) => s.type === 'DYNAMIC' && s.track_membership)
        .flatMap((s) => this.events(projectId, s, exited, { reason: 'change', now, trace })),
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

import type { EventEnvelope } from '@herald/contracts';
import type { Outbox } from '@herald/messaging';
import type { EntityManager } from 'typeorm';
import type { ReadModelStore } from '../contacts/read-model.store.js';
import type { ReconcileRow, Scope } from './evaluation-scope.js';
import type { EvaluationStore } from './evaluation.store.js';
import type { EventsInSql } from './events-in-sql.store.js';
import { MembershipEngine, type ChangedContact } from './membership-engine.js';
import type { ProjectContext } from './project-context.js';
import type { Segment } from './segment.entity.js';
import type { LeftSegment, SegmentsStore } from './segments.store.js';

/* The membership engine over scripted stores, and builders of its inputs (membership-engine.spec.ts). */

export const m = {} as EntityManager;
export const entered = (segmentId: string, contactId: string): ReconcileRow => ({
  entered: true,
  segment_id: segmentId,
  contact_id: contactId,
  email: `${contactId}@example.com`,
});
export const exited = (segmentId: string, contactId: string, email: string | null = `${contactId}@example.com`) => ({
  ...entered(segmentId, contactId),
  entered: false,
  email,
});

/**
 * The engine over scripted stores: the project's segments, whether it has a dynamic one, what each
 * reconciliation writes; it records what the engine asked of them and what it published.
 */
export function setup(
  segments: Segment[],
  script: {
    dynamic?: boolean;
    rows?: (segmentIds: string[]) => ReconcileRow[];
    left?: LeftSegment[];
    /** What each created contact holds (`ReadModelStore.heldKeys`). */
    held?: Record<string, string[]>;
  } = {},
) {
  const asked: string[] = [];
  const reconciled: { segments: string[]; scope: Scope; now: Date }[] = [];
  const counts: [string, number][][] = [];
  const published: EventEnvelope[] = [];
  const templates: EventsInSql['templates'] = [];
  const evaluation = {
    lockForReevaluation: async (_m: EntityManager, projectId: string, contactIds: string[]) => {
      asked.push(`lock ${projectId} ${contactIds.join(',')}`);
      return script.dynamic ?? true;
    },
    lockContacts: async (_m: EntityManager, projectId: string, contactIds: string[]) => {
      asked.push(`lock rows ${projectId} ${contactIds.join(',')}`);
    },
    reconcile: async (
      _m: EntityManager,
      _ctx: ProjectContext,
      list: { segment: Pick<Segment, 'id'> }[],
      scope: Scope,
      now: Date,
    ) => {
      const ids = list.map((x) => x.segment.id);
      asked.push(`reconcile ${ids.join(',')}`);
      reconciled.push({ segments: ids, scope, now });
      return script.rows?.(ids) ?? [];
    },
    reconcilePublishing: async (
      _m: EntityManager,
      _ctx: ProjectContext,
      list: { segment: Pick<Segment, 'id'> }[],
      scope: Scope,
      now: Date,
      events: EventsInSql,
    ) => {
      const ids = list.map((x) => x.segment.id);
      asked.push(`reconcile publishing ${ids.join(',')}`);
      reconciled.push({ segments: ids, scope, now });
      templates.push(...events.templates);
      const rows = script.rows?.(ids) ?? [];
      return ids.map((id) => ({
        segment_id: id,
        added: rows.filter((r) => r.segment_id === id && r.entered).length,
        removed: rows.filter((r) => r.segment_id === id && !r.entered).length,
      }));
    },
  } as unknown as EvaluationStore;
  let stamps = 0;
  const store = {
    // definitions that move at every round: each round loads its context
    stampOf: async () => String(++stamps),
    ofProject: async (_m: EntityManager, projectId: string) => {
      asked.push(`load ${projectId}`);
      return { segments, fieldTypes: new Map() };
    },
    adjustCounts: async (_m: EntityManager, delta: Map<string, number>) => {
      counts.push([...delta]);
    },
    leaveAll: async (_m: EntityManager, projectId: string, contactId: string) => {
      asked.push(`leave ${projectId} ${contactId}`);
      return script.left ?? [];
    },
  } as unknown as SegmentsStore;
  const outbox = {
    add: async (_m: EntityManager, ...events: EventEnvelope[]) => {
      published.push(...events);
    },
  } as unknown as Outbox;
  const readModel = {
    heldKeys: async (_m: EntityManager, projectId: string, contactIds: string[]) => {
      asked.push(`held ${projectId} ${contactIds.join(',')}`);
      return new Map(Object.entries(script.held ?? {}).filter(([id]) => contactIds.includes(id)));
    },
  } as unknown as ReadModelStore;
  return {
    engine: new MembershipEngine(outbox, store, evaluation, readModel),
    asked,
    reconciled,
    counts,
    published,
    templates,
  };
}

export const change = (contactId: string, extra: Partial<ChangedContact> = {}): ChangedContact => ({
  projectId: 'p',
  contactId,
  trace: { causationId: `evt_${contactId}` },
  change: { kind: 'contact' },
  ...extra,
});
export const published = (events: EventEnvelope[]) =>
  events.map((e) => {
    const payload = e.payload as { segmentId: string; contactId: string; email: string; reason: string };
    return [e.type, payload.segmentId, payload.contactId, payload.email, payload.reason, e.causationId];
  });

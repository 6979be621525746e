import { Topics } from '@herald/contracts';
import { traceparentFor } from '@herald/core';
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { Workflow } from '../definitions/workflow.entity.js';
import { WorkflowStore } from '../definitions/workflow-store.js';
import { ContactFactsStore, type MembershipKey } from './contact-facts.store.js';
import { ExecutionStarter, type StartRequest } from './execution-starter.js';
import { ExecutionsService } from './executions.service.js';
import { ExecutionsStore } from './executions.store.js';
import { RunnerWake } from './runner-wake.js';
import { SeenKeysStore, type SeenKey } from './seen-keys.store.js';

/** An event of a contact under its timeline name: it may resume the contact's waiting executions and start workflows. */
export interface ContactEvent {
  projectId: string;
  /** The event's id: one execution per workflow and event, however often it is delivered. */
  eventId: string;
  correlationId?: string;
  /** The event's W3C trace context: the executions it starts or resumes run in its trace (ADR 0019). */
  traceparent?: string;
  contactId: string;
  email: string;
  name: string;
  /** The event's data: the execution's `event`, or merged into a waiting execution's context. */
  data: Record<string, unknown>;
}

/** A tracked event: its data keys are recorded for GET /workflows/fields, and it is the contact's activity. */
export interface TrackedContactEvent extends ContactEvent {
  occurredAt: string;
}

/** A segment entry or exit: the membership is recorded. */
export interface SegmentContactEvent extends ContactEvent {
  segmentId: string;
}

/** An email's event (`email.*`): of a contact or not (one sent to an address only starts nothing). */
export interface EmailContactEvent extends Omit<ContactEvent, 'contactId'> {
  contactId?: string;
  occurredAt: string;
}

/** The email events kept as the contact's engagement, under their kind. */
const ENGAGEMENT: Record<string, string> = {
  [Topics.EmailSent]: 'sent',
  [Topics.EmailDelivered]: 'delivered',
  [Topics.EmailOpened]: 'opened',
  [Topics.EmailClicked]: 'clicked',
  [Topics.EmailBounced]: 'bounced',
  [Topics.EmailComplained]: 'complained',
};

/** The type a data value gives its key (none for null). */
export const typeOf = (v: unknown): string | undefined =>
  v === null || v === undefined ? undefined : Array.isArray(v) ? 'array' : typeof v === 'object' ? 'object' : typeof v;

/**
 * The keys of tracked events' data, scoped `event:<name>`: the first 100 of each event, one row per
 * project, scope and key (the last value's type), names cut to the columns' 300 characters.
 */
export function eventKeys(events: ContactEvent[]): SeenKey[] {
  const keys = new Map<string, SeenKey>();
  for (const e of events)
    for (const [k, v] of Object.entries(e.data).slice(0, 100)) {
      const type = typeOf(v);
      const scope = `event:${e.name}`.slice(0, 300);
      if (type)
        keys.set(`${e.projectId}\u0000${scope}\u0000${k}`, {
          projectId: e.projectId,
          scope,
          key: k.slice(0, 300),
          type,
        });
    }
  return [...keys.values()];
}

/** The keys of a contact's data, scoped `contact`: the first 100, null values left out. */
export function contactKeys(projectId: string, data: Record<string, unknown>): SeenKey[] {
  return Object.entries(data ?? {})
    .slice(0, 100)
    .map(([k, v]) => ({ projectId, scope: 'contact', key: k.slice(0, 300), type: typeOf(v) }))
    .filter((r): r is SeenKey => r.type !== undefined);
}

const membership = (e: SegmentContactEvent): MembershipKey => ({
  projectId: e.projectId,
  contactId: e.contactId,
  segmentId: e.segmentId,
});

const awaitedKey = (projectId: string, contactId: string, name: string) =>
  `${projectId}\u0001${contactId}\u0001${name}`;
const triggerKey = (projectId: string, name: string) => `${projectId}\u0000${name}`;

/**
 * What contacts' events do to workflows, in the caller's transaction (a consumer's inbox
 * transaction, so an event delivered twice does nothing twice): they resume the contact's executions
 * waiting for them and start the enabled workflows they trigger, and they keep what CONDITION steps
 * and GET /workflows/fields read (activity, segment memberships, data keys). A run of events is
 * applied with a fixed number of statements, whatever its length.
 */
@Injectable()
export class ApplyContactEventsUseCase {
  constructor(
    private readonly workflows: WorkflowStore,
    private readonly executions: ExecutionsStore,
    private readonly facts: ContactFactsStore,
    private readonly seenKeys: SeenKeysStore,
    private readonly starter: ExecutionStarter,
    private readonly executionsService: ExecutionsService,
    private readonly runner: RunnerWake,
  ) {}

  /** Tracked events: the activity and the keys seen with multi-row statements, then `apply`. */
  async tracked(m: EntityManager, events: TrackedContactEvent[]): Promise<void> {
    await this.facts.recordActivity(
      m,
      events.map((e) => ({
        projectId: e.projectId,
        contactId: e.contactId,
        source: 'event' as const,
        name: e.name.slice(0, 255),
        occurredAt: e.occurredAt,
      })),
    );
    await this.seenKeys.record(m, eventKeys(events));
    await this.apply(m, events);
  }

  /** Segment entries: the memberships, then `apply`. */
  async segmentsEntered(m: EntityManager, events: SegmentContactEvent[]): Promise<void> {
    await this.facts.enterSegments(m, events.map(membership));
    await this.apply(m, events);
  }

  /** Segment exits: the memberships go, then `apply`. */
  async segmentsExited(m: EntityManager, events: SegmentContactEvent[]): Promise<void> {
    await this.facts.exitSegments(m, events.map(membership));
    await this.apply(m, events);
  }

  /** Email events of contacts: the engagement activity in one multi-row insert, then `apply`. */
  async emails(m: EntityManager, events: EmailContactEvent[]): Promise<void> {
    const own = events.filter((e): e is EmailContactEvent & { contactId: string } => Boolean(e.contactId));
    if (own.length === 0) return;
    await this.facts.recordActivity(
      m,
      own
        .filter((e) => ENGAGEMENT[e.name])
        .map((e) => ({
          projectId: e.projectId,
          contactId: e.contactId,
          source: 'email' as const,
          name: ENGAGEMENT[e.name]!,
          occurredAt: e.occurredAt,
        })),
    );
    await this.apply(m, own);
  }

  /** A contact's data keys and their types, for GET /workflows/fields. */
  contactData(m: EntityManager, projectId: string, data: Record<string, unknown>): Promise<void> {
    return this.seenKeys.record(m, contactKeys(projectId, data));
  }

  /** A deleted contact: its executions are cancelled, its activity and memberships forgotten. */
  async contactDeleted(m: EntityManager, projectId: string, contactId: string): Promise<void> {
    const active = await this.executions.lockActiveOfContact(m, projectId, contactId);
    await this.executionsService.cancelLocked(m, active, 'the contact was deleted');
    await this.facts.forgetContact(m, projectId, contactId);
  }

  /**
   * Events of contacts, in order: one look for executions waiting on them (each match resumed, the
   * event's data merged into its context), the workflows they trigger once per project and name,
   * then the starts, decided in the events' order.
   */
  async apply(m: EntityManager, events: ContactEvent[]): Promise<void> {
    if (events.length === 0) return;
    const awaited = new Set(
      (await this.executions.awaited(m, events)).map((a) => awaitedKey(a.projectId, a.contactId, a.name)),
    );
    let resumed = 0;
    for (const e of events)
      if (awaited.has(awaitedKey(e.projectId, e.contactId, e.name)))
        resumed += await this.executions.resume(m, e, e.data, traceparentFor(e.traceparent));
    const triggered = await this.triggeredBy(m, events);
    const starts = events.flatMap((e) =>
      (triggered.get(triggerKey(e.projectId, e.name)) ?? []).map((w) => ({ w, req: request(e) })),
    );
    const started = (await this.starter.startMany(m, starts)).filter((r) => r.started).length;
    if (started || resumed) this.wakeSoon();
  }

  /** The enabled workflows each (project, event name) triggers, in one look-up. */
  private async triggeredBy(m: EntityManager, events: ContactEvent[]): Promise<Map<string, Workflow[]>> {
    const distinct = [
      ...new Map(
        events.map((e) => [triggerKey(e.projectId, e.name), { projectId: e.projectId, name: e.name }]),
      ).values(),
    ];
    const out = new Map<string, Workflow[]>();
    for (const w of await this.workflows.triggeredBy(m, distinct)) {
      const k = triggerKey(w.projectId, w.eventName ?? '');
      out.set(k, [...(out.get(k) ?? []), w]);
    }
    return out;
  }

  /** The runner polls; a start or a resume wakes it a few times so the new runs are claimed at once. */
  private wakeSoon(): void {
    for (const ms of [5, 30, 100]) setTimeout(() => this.runner.wake(), ms).unref();
  }
}

/** The start an event asks for: the event's name as the trigger, its data as the execution's `event`. */
function request(e: ContactEvent): StartRequest {
  return {
    contactId: e.contactId,
    email: e.email,
    trigger: e.name,
    triggerEventId: e.eventId,
    event: e.data,
    context: {},
    trace: { causationId: e.eventId, ...(e.correlationId ? { correlationId: e.correlationId } : {}) },
    ...(e.traceparent ? { traceparent: e.traceparent } : {}),
  };
}

import { contractFor, deadLetterTopic, type EventEnvelope } from '@herald/contracts';
import { backoffDelay } from '@herald/core';
import { NO_FLUSH_WAIT, tableName } from '@herald/persistence';
import { v7 as uuidv7 } from 'uuid';
import type { DataSource } from 'typeorm';
import { InboxEntry } from '../entities/inbox-entry.entity.js';
import { DeadLetter } from '../entities/dead-letter.entity.js';
import { messagingMetrics } from '../metrics.js';
import type { Outbox } from '../outbox/outbox.js';
import type { EntityManager } from 'typeorm';
import { consumeSpan } from './consume-span.js';
import { EventBatchContext, EventContext } from './event-context.js';

/** A per-event handler as the transports call it: Nest's wrapped `OnEvent` method. */
export type EventHandlerFn = (envelope: EventEnvelope, ctx: EventContext) => Promise<unknown>;

/** A batch handler as the transports call it: Nest's wrapped `OnEventBatch` method, given a run of consecutive events of its topic. */
export interface EventBatchHandler {
  batch(envelopes: EventEnvelope[], ctx: EventBatchContext): Promise<unknown>;
  /** Takes every event of its topic in a delivered batch in one run (`OnEventBatch` `gather`). */
  gather?: boolean;
}

/**
 * A delivered batch's events in runs of one topic, in order. A topic whose handlers all gather
 * (`OnEventBatch` `gather`) has one run, at the place of its first event; any other topic a run per
 * stretch of consecutive events.
 */
export function topicRuns(
  events: EventEnvelope[],
  handlersFor: (topic: string) => TopicHandler[],
): { topic: string; events: EventEnvelope[] }[] {
  const runs: { topic: string; events: EventEnvelope[] }[] = [];
  const gathered = new Map<string, { topic: string; events: EventEnvelope[] }>();
  const gathers = new Map<string, boolean>();
  for (const e of events) {
    const last = runs[runs.length - 1];
    if (last?.topic === e.type) {
      last.events.push(e);
      continue;
    }
    let gather = gathers.get(e.type);
    if (gather === undefined) {
      const handlers = handlersFor(e.type);
      gather = handlers.length > 0 && handlers.every((h) => typeof h !== 'function' && h.gather === true);
      gathers.set(e.type, gather);
    }
    const open = gather ? gathered.get(e.type) : undefined;
    if (open) {
      open.events.push(e);
      continue;
    }
    const run = { topic: e.type, events: [e] };
    runs.push(run);
    if (gather) gathered.set(e.type, run);
  }
  return runs;
}

export type TopicHandler = EventHandlerFn | EventBatchHandler;

export interface RetryPolicy {
  maxAttempts: number;
  baseDelayMs: number;
  maxDelayMs: number;
}

export type ProcessOutcome = 'processed' | 'duplicate' | 'dead_lettered';

export interface ProcessorLogger {
  warn(msg: string, fields?: Record<string, unknown>): void;
  error(msg: string, fields?: Record<string, unknown>): void;
}

/** Thrown by a handler for an event that can never succeed: no retries, straight to the DLQ. */
export class NonRetryableEventError extends Error {
  override name = 'NonRetryableEventError';
}

export interface DeliveryOptions {
  /**
   * The envelopes come from this deployment's own outbox through the in-process bus: they were
   * built and validated against their contract by `create` in the same build, so only the
   * contract's existence is checked here, not the payload again. Envelopes from a broker, which
   * any deployed version of any service may have written, are always validated (the default).
   */
  trusted?: boolean;
  /**
   * The publisher commits, durably, after this delivery has been applied (the outbox relay marks the
   * events published once the in-process bus returns), so a batch's transaction commits without
   * waiting for the disk (`synchronous_commit = off`): PostgreSQL writes the WAL in order, and the
   * relay's durable commit makes every commit before it durable too (standalone mode: one
   * PostgreSQL for the relay and its consumers). After a crash that loses both,
   * the events are still unpublished and are delivered again (the inbox skips those that survived).
   * Half the disk flushes of a relay round, and the tracked events' own commits wait behind fewer.
   * Never for a broker delivery: the consumer's offset commit is not a PostgreSQL commit.
   */
  durableWithPublisher?: boolean;
}

const DEFAULT_POLICY: RetryPolicy = { maxAttempts: 5, baseDelayMs: 200, maxDelayMs: 5000 };

/**
 * Applies one event for one consumer, exactly once in effect:
 * the inbox row and the handlers' writes commit in one transaction (a redelivered event finds its
 * inbox row and is skipped); failures are retried with exponential backoff and jitter (`backoffDelay`); after the last attempt,
 * or at once for a payload that breaks its contract, the event is recorded in `dead_letters` and
 * published to `<topic>.dlq` through the outbox, and the consumer moves on (a poison message never
 * blocks its partition).
 */
export class EventProcessor {
  private readonly policy: RetryPolicy;
  private readonly inboxTable: string;

  constructor(
    readonly consumer: string,
    private readonly dataSource: DataSource,
    private readonly outbox: Outbox,
    private readonly logger: ProcessorLogger,
    policy: Partial<RetryPolicy> = {},
  ) {
    this.policy = { ...DEFAULT_POLICY, ...policy };
    this.inboxTable = tableName(dataSource, InboxEntry);
  }

  async process(
    envelope: EventEnvelope,
    handlers: TopicHandler[],
    options: DeliveryOptions = {},
  ): Promise<ProcessOutcome> {
    const topic = envelope.type;
    const problems = this.problemsOf(envelope, options);
    if (problems.length > 0) return this.deadLetter(topic, envelope, `invalid event: ${problems.join('; ')}`, 0);

    for (let attempt = 1; ; attempt++) {
      try {
        const applied = await this.dataSource.transaction(async (manager) => {
          const inserted = await manager
            .createQueryBuilder()
            .insert()
            .into(InboxEntry)
            .values({ consumer: this.consumer, eventId: envelope.eventId, topic })
            .orIgnore()
            .returning(['event_id'])
            .execute();
          if ((inserted.raw as unknown[]).length === 0) return false;
          await this.apply([envelope], handlers, manager, attempt);
          return true;
        });
        const outcome: ProcessOutcome = applied ? 'processed' : 'duplicate';
        messagingMetrics.consumed.inc({ consumer: this.consumer, topic, outcome });
        return outcome;
      } catch (err) {
        const message = err instanceof Error ? `${err.name}: ${err.message}` : String(err);
        if (err instanceof NonRetryableEventError || attempt >= this.policy.maxAttempts) {
          return this.deadLetter(topic, envelope, message, attempt);
        }
        messagingMetrics.retries.inc({ consumer: this.consumer, topic });
        const delay = backoffDelay(attempt, { baseMs: this.policy.baseDelayMs, maxMs: this.policy.maxDelayMs });
        this.logger.warn('event handler failed; retrying', {
          consumer: this.consumer,
          topic,
          eventId: envelope.eventId,
          attempt,
          retryInMs: delay,
          err: message,
        });
        await new Promise((r) => setTimeout(r, delay));
      }
    }
  }

  /**
   * Applies several events (in order) in one transaction with one multi-row inbox insert — the
   * fast path for a Kafka batch or an outbox batch. Each run of consecutive events of one topic
   * goes to that topic's batch handlers at once (all of a gathering topic's events: `topicRuns`). If anything in it fails, the transaction rolls
   * back and the events are applied one by one, each with its own retries and dead-lettering.
   */
  async processBatch(
    envelopes: EventEnvelope[],
    handlersFor: (topic: string) => TopicHandler[],
    options: DeliveryOptions = {},
  ): Promise<void> {
    const valid: EventEnvelope[] = [];
    const seen = new Set<string>();
    for (const e of envelopes) {
      const problems = this.problemsOf(e, options);
      if (problems.length > 0) await this.deadLetter(e.type, e, `invalid event: ${problems.join('; ')}`, 0);
      else if (!seen.has(e.eventId)) {
        seen.add(e.eventId);
        valid.push(e);
      }
    }
    if (valid.length === 0) return;
    if (valid.length === 1) {
      await this.process(valid[0]!, handlersFor(valid[0]!.type), options);
      return;
    }
    try {
      const applied = await this.dataSource.transaction(async (manager) => {
        // the commit mode is set in the first statement (no round trip of its own); with no new event there is nothing to commit
        const rows: { event_id: string }[] = await manager.query(
          `INSERT INTO ${this.inboxTable} (consumer, event_id, topic)
           SELECT $1, e, t FROM unnest($2::uuid[], $3::varchar[]) AS x(e, t)
           ON CONFLICT DO NOTHING RETURNING event_id${options.durableWithPublisher ? `, ${NO_FLUSH_WAIT}` : ''}`,
          [this.consumer, valid.map((e) => e.eventId), valid.map((e) => e.type)],
        );
        const fresh = new Set(rows.map((r) => r.event_id));
        const done = valid.filter((e) => fresh.has(e.eventId));
        for (const run of topicRuns(done, handlersFor))
          await this.apply(run.events, handlersFor(run.topic), manager, 1);
        return done;
      });
      const appliedIds = new Set(applied.map((e) => e.eventId));
      for (const e of valid)
        messagingMetrics.consumed.inc({
          consumer: this.consumer,
          topic: e.type,
          outcome: appliedIds.has(e.eventId) ? 'processed' : 'duplicate',
        });
    } catch {
      for (const e of valid) await this.process(e, handlersFor(e.type), options);
    }
  }

  private problemsOf(envelope: EventEnvelope, options: DeliveryOptions): string[] {
    const contract = contractFor(envelope.type, envelope.version);
    if (!contract) return [`no contract for ${envelope.type} version ${String(envelope.version)}`];
    return options.trusted ? [] : contract.validate(envelope);
  }

  /** A run of events of one topic through its handlers: per-event ones event by event, batch ones at once. */
  private async apply(
    run: EventEnvelope[],
    handlers: TopicHandler[],
    manager: EntityManager,
    attempt: number,
  ): Promise<void> {
    for (const handler of handlers) {
      // each in its consumer span (ADR 0019), so that what a handler writes carries its event's trace
      if (typeof handler === 'function') {
        for (const e of run)
          await consumeSpan(this.consumer, [e], attempt, () =>
            handler(e, new EventContext(e, manager, this.consumer, attempt)),
          );
      } else {
        await consumeSpan(this.consumer, run, attempt, () =>
          handler.batch(run, new EventBatchContext(run, manager, this.consumer, attempt)),
        );
      }
    }
  }

  /** For a message that could not even be decoded into an envelope. */
  async deadLetterUndecodable(topic: string, raw: string, error: string): Promise<ProcessOutcome> {
    return this.deadLetter(topic, { raw } as unknown as EventEnvelope, error, 0);
  }

  private async deadLetter(
    topic: string,
    envelope: EventEnvelope,
    error: string,
    attempts: number,
  ): Promise<ProcessOutcome> {
    this.logger.error('event dead-lettered', {
      consumer: this.consumer,
      topic,
      eventId: envelope.eventId,
      attempts,
      err: error,
    });
    const eventId = typeof envelope.eventId === 'string' ? envelope.eventId : null;
    await this.dataSource.transaction(async (manager) => {
      if (eventId && /^[0-9a-f-]{36}$/i.test(eventId)) {
        const inserted = await manager
          .createQueryBuilder()
          .insert()
          .into(InboxEntry)
          .values({ consumer: this.consumer, eventId, topic })
          .orIgnore()
          .returning(['event_id'])
          .execute();
        if ((inserted.raw as unknown[]).length === 0) return; // already applied or dead-lettered
      }
      await manager.insert(DeadLetter, { consumer: this.consumer, topic, eventId, message: envelope, error, attempts });
      const failedAt = new Date().toISOString();
      await this.outbox.add(manager, {
        ...envelope,
        eventId: uuidv7(),
        type: deadLetterTopic(topic),
        key: typeof envelope.key === 'string' ? envelope.key : topic,
        projectId: typeof envelope.projectId === 'string' ? envelope.projectId : '',
        causationId: eventId ?? undefined,
        deadLetter: {
          consumer: this.consumer,
          originalTopic: topic,
          originalEventId: eventId,
          error,
          attempts,
          failedAt,
        },
      } as EventEnvelope);
    });
    messagingMetrics.consumed.inc({ consumer: this.consumer, topic, outcome: 'dead_lettered' });
    return 'dead_lettered';
  }
}

import { context, trace } from '@opentelemetry/api';
import { v7 as uuidv7 } from 'uuid';
import { getMetadataStorage, validateSync, type ValidationError } from 'class-validator';
import type { EventEnvelope } from './envelope.js';
import { cacheValidationMetadata } from './validation-metadata-cache.js';
import { compileValidityCheck, type ValidityCheck } from './validity-check.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Class<T> = new (...args: any[]) => T;

export interface EventContract<P extends object> {
  readonly topic: string;
  readonly version: number;
  readonly payloadClass: Class<P>;
  /** Builds a validated envelope; throws InvalidEventError when the payload breaks the contract. */
  create(args: CreateEventArgs<P>): EventEnvelope<P>;
  /** Validates a received envelope's payload; returns the problems (empty when valid). */
  validate(envelope: EventEnvelope): string[];
}

export interface CreateEventArgs<P> {
  projectId: string;
  payload: P;
  source: string;
  occurredAt?: Date;
  correlationId?: string;
  causationId?: string;
  /** The producing span's W3C trace context (default: the active span's, if any). */
  traceparent?: string;
}

export class InvalidEventError extends Error {
  constructor(
    topic: string,
    readonly problems: string[],
  ) {
    super(`event ${topic} breaks its contract: ${problems.join('; ')}`);
    this.name = 'InvalidEventError';
  }
}

const flatten = (errors: ValidationError[], prefix = ''): string[] =>
  errors.flatMap((e) => {
    const path = prefix ? `${prefix}.${e.property}` : e.property;
    const own = Object.values(e.constraints ?? {}).map((m) => `${path}: ${m}`);
    return [...own, ...flatten(e.children ?? [], path)];
  });

const registry = new Map<string, EventContract<object>>();

/** Declares a versioned event contract. `key` picks the partitioning key from the payload. */
export function defineEvent<P extends object>(def: {
  topic: string;
  version: number;
  payload: Class<P>;
  key: (payload: P, projectId: string) => string;
}): EventContract<P> {
  cacheValidationMetadata();
  const nested = getMetadataStorage()
    .getTargetValidationMetadatas(def.payload, '', true, false)
    .filter((m) => m.type === 'nestedValidation')
    .map((m) => m.propertyName);
  if (nested.length > 0)
    throw new Error(`${def.topic}: payload classes are flat; ${nested.join(', ')} would need nested validation`);
  // resolved at the first event, when every decorator of the payload class has run
  let rules: ValidityCheck | undefined | null = null;
  const problemsOf = (payload: unknown): string[] => {
    if (payload === null || typeof payload !== 'object') return ['payload: must be an object'];
    // payload classes are flat (no nested classes to instantiate), so the payload's own values are
    // validated as an instance of its class without a deep copy through class-transformer
    const instance = Object.assign(Object.create(def.payload.prototype as object) as object, payload);
    if (rules === null) rules = compileValidityCheck(def.payload);
    if (rules?.isValid(instance)) return [];
    return flatten(validateSync(instance, { forbidUnknownValues: false }));
  };
  const contract: EventContract<P> = {
    topic: def.topic,
    version: def.version,
    payloadClass: def.payload,
    create(args) {
      const problems = problemsOf(args.payload);
      if (problems.length > 0) throw new InvalidEventError(def.topic, problems);
      const traceparent = args.traceparent ?? activeTraceparent();
      return {
        eventId: uuidv7(),
        type: def.topic,
        version: def.version,
        projectId: args.projectId,
        occurredAt: (args.occurredAt ?? new Date()).toISOString(),
        key: def.key(args.payload, args.projectId),
        source: args.source,
        ...(args.correlationId ? { correlationId: args.correlationId } : {}),
        ...(args.causationId ? { causationId: args.causationId } : {}),
        ...(traceparent ? { traceparent } : {}),
        payload: { ...args.payload },
      };
    },
    validate(envelope) {
      const problems: string[] = [];
      if (
        typeof envelope.eventId !== 'string' ||
        !/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(envelope.eventId)
      )
        problems.push('eventId: must be a UUID');
      if (typeof envelope.projectId !== 'string' || envelope.projectId.length === 0)
        problems.push('projectId: required');
      if (typeof envelope.occurredAt !== 'string' || Number.isNaN(Date.parse(envelope.occurredAt)))
        problems.push('occurredAt: must be an ISO 8601 timestamp');
      if (envelope.version !== def.version)
        problems.push(`version: expected ${def.version}, got ${String(envelope.version)}`);
      return [...problems, ...problemsOf(envelope.payload).map((p) => `payload.${p}`)];
    },
  };
  registry.set(`${def.topic}@${def.version}`, contract as unknown as EventContract<object>);
  return contract;
}

/**
 * The W3C `traceparent` of the active span, if one is being recorded (ADR 0019): an event created
 * while a request, consumer or job is traced carries its trace. Without a tracer provider the
 * active context is always the empty one, and this is a map look-up.
 */
function activeTraceparent(): string | undefined {
  const sc = trace.getSpanContext(context.active());
  if (!sc || !trace.isSpanContextValid(sc)) return undefined;
  return `00-${sc.traceId}-${sc.spanId}-${(sc.traceFlags & 0xff).toString(16).padStart(2, '0')}`;
}

/** The contract registered for a topic and version, if any. */
export function contractFor(topic: string, version: number): EventContract<object> | undefined {
  return registry.get(`${topic}@${version}`);
}

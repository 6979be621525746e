import {
  context,
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  trace,
  TraceFlags,
  type Attributes,
  type Context,
  type Link,
  type Span,
  type SpanContext,
} from '@opentelemetry/api';

/**
 * Herald's traces (ADR 0019): one W3C `traceparent` string is what crosses every boundary — HTTP
 * headers, the event envelope (so the outbox row stores it and the in-process bus carries it), the
 * Kafka `traceparent` header, the email row the delivery worker claims. These helpers use the
 * OpenTelemetry API only: until `startTracing` registers a tracer provider nothing is recorded,
 * and the hot paths test `tracingEnabled()` (a boolean) before doing any tracing work at all.
 */

export { SpanKind };

const TRACEPARENT = /^00-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})$/;
const NO_TRACE = '0'.repeat(32);
const NO_SPAN = '0'.repeat(16);

let enabled = false;

/** Whether a tracer provider records spans in this process (set by `startTracing`). */
export function tracingEnabled(): boolean {
  return enabled;
}

/** @internal `startTracing`/`stopTracing` only. */
export function setTracingEnabled(on: boolean): void {
  enabled = on;
}

const tracer = () => trace.getTracer('herald');

/** The W3C `traceparent` of a span context (`00-<trace id>-<span id>-<flags>`). */
export function formatTraceparent(sc: SpanContext): string {
  return `00-${sc.traceId}-${sc.spanId}-${(sc.traceFlags & 0xff).toString(16).padStart(2, '0')}`;
}

/** The span context a `traceparent` names, or undefined when it is absent or malformed. */
export function parseTraceparent(value: unknown): SpanContext | undefined {
  if (typeof value !== 'string') return undefined;
  const m = TRACEPARENT.exec(value.trim().toLowerCase());
  if (!m || m[1] === NO_TRACE || m[2] === NO_SPAN) return undefined;
  return { traceId: m[1]!, spanId: m[2]!, traceFlags: parseInt(m[3]!, 16) & TraceFlags.SAMPLED, isRemote: true };
}

/**
 * The `traceparent` of the active span (the request, consumer or job being traced), to be carried by
 * what it writes or calls; undefined when tracing is off or nothing is being traced.
 */
export function currentTraceparent(): string | undefined {
  if (!enabled) return undefined;
  const sc = trace.getSpanContext(context.active());
  return sc && trace.isSpanContextValid(sc) ? formatTraceparent(sc) : undefined;
}

/** A context whose parent is the remote span a `traceparent` names (the root context without one). */
export function contextOf(traceparent: unknown): Context {
  const sc = parseTraceparent(traceparent);
  return sc ? trace.setSpanContext(ROOT_CONTEXT, sc) : ROOT_CONTEXT;
}

export interface SpanOptions {
  kind?: SpanKind;
  attributes?: Attributes;
  /**
   * The parent: a `traceparent` (a message's, a row's) or a context. Default: the active context
   * (the span is a child of whatever is being traced here).
   */
  parent?: string | Context | null;
  /** Contexts this span is caused by but not a child of (a batch of messages of several traces). */
  links?: (string | undefined)[];
}

function parentContext(parent: SpanOptions['parent']): Context {
  if (parent === undefined) return context.active();
  if (parent === null) return ROOT_CONTEXT;
  return typeof parent === 'string' ? contextOf(parent) : parent;
}

/** Starts a span (not made active). Undefined when tracing is off. */
export function startSpan(name: string, options: SpanOptions = {}): Span | undefined {
  if (!enabled) return undefined;
  const links: Link[] = [];
  for (const l of options.links ?? []) {
    const sc = parseTraceparent(l);
    if (sc && links.length < 128) links.push({ context: sc });
  }
  return tracer().startSpan(
    name,
    {
      kind: options.kind ?? SpanKind.INTERNAL,
      ...(options.attributes ? { attributes: options.attributes } : {}),
      ...(links.length > 0 ? { links } : {}),
    },
    parentContext(options.parent),
  );
}

/** Ends a span as failed with `err` (recorded as an exception event). */
export function failSpan(span: Span | undefined, err: unknown): void {
  if (!span) return;
  span.recordException(err instanceof Error ? err : String(err));
  span.setStatus({ code: SpanStatusCode.ERROR, message: err instanceof Error ? err.message : String(err) });
}

/**
 * Runs `fn` in a new active span (so what it writes, calls and publishes carries it), ending it when
 * `fn` settles, as failed if it throws. With tracing off, just runs `fn`.
 */
export function withSpan<T>(name: string, options: SpanOptions, fn: (span?: Span) => Promise<T>): Promise<T> {
  const span = startSpan(name, options);
  if (!span) return fn();
  return context.with(trace.setSpan(parentContext(options.parent), span), async () => {
    try {
      return await fn(span);
    } catch (err) {
      failSpan(span, err);
      throw err;
    } finally {
      span.end();
    }
  });
}

/** Runs `fn` with `span` active (a span started elsewhere, e.g. in an HTTP hook). */
export function runInSpan<T>(span: Span | undefined, fn: () => T, parent?: Context): T {
  if (!span) return fn();
  return context.with(trace.setSpan(parent ?? context.active(), span), fn);
}

/**
 * The `traceparent` work done for one message should carry: the active span's when it belongs to the
 * message's trace (a consumer's span for that message alone), else the message's own (a run of
 * messages of several traces, whose span is a trace of its own). Undefined when tracing is off.
 */
export function traceparentFor(carried: string | undefined | null): string | undefined {
  if (!enabled) return undefined;
  const current = currentTraceparent();
  const own = parseTraceparent(carried);
  if (!own) return current;
  return current && parseTraceparent(current)?.traceId === own.traceId ? current : carried!;
}

/** Runs `fn` with the remote span a `traceparent` names as the active context (what it writes carries it). */
export function inTrace<T>(traceparent: string | undefined | null, fn: () => T): T {
  if (!enabled || !parseTraceparent(traceparent)) return fn();
  return context.with(contextOf(traceparent), fn);
}

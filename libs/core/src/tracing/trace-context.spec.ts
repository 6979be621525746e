import { InMemorySpanExporter } from '@opentelemetry/sdk-trace';
import { currentTraceparent, inTrace, setTracingEnabled, traceparentFor, withSpan } from './trace-context.js';
import { startTracing, stopTracing } from './tracing-setup.js';

const tp = (traceChar: string, spanChar: string) => `00-${traceChar.repeat(32)}-${spanChar.repeat(16)}-01`;

/** The helpers that carry one message's trace through work done for a run of messages (ADR 0019). */
describe('trace context of one message', () => {
  beforeAll(() => startTracing({ serviceName: 'test', exporter: new InMemorySpanExporter() }));
  afterAll(() => stopTracing());

  it("answers the active span's traceparent when it is in the message's trace, else the message's own", async () => {
    const own = tp('a', '1');
    await withSpan('process', { parent: own }, async () => {
      const current = currentTraceparent()!;
      expect(current).not.toBe(own);
      expect(traceparentFor(own)).toBe(current);
    });
    await withSpan('process a run of several traces', { parent: null }, async () => {
      expect(traceparentFor(own)).toBe(own);
      expect(traceparentFor(undefined)).toBe(currentTraceparent());
      expect(traceparentFor('not a traceparent')).toBe(currentTraceparent());
    });
  });

  it('runs a function in the trace a traceparent names, and as it is without one', () => {
    const own = tp('b', '2');
    expect(inTrace(own, () => currentTraceparent())).toBe(own);
    expect(inTrace(null, () => currentTraceparent())).toBeUndefined();
  });

  it('answers nothing with tracing off', () => {
    setTracingEnabled(false);
    try {
      expect(traceparentFor(tp('c', '3'))).toBeUndefined();
      expect(inTrace(tp('c', '3'), () => currentTraceparent())).toBeUndefined();
    } finally {
      setTracingEnabled(true);
    }
  });
});

import { context, propagation, trace } from '@opentelemetry/api';
import type { SpanExporter } from '@opentelemetry/sdk-trace';
import { createLogger } from '../logger.js';
import { setTracingEnabled } from './trace-context.js';
import type { TracingConfig } from './tracing.config.js';

const log = createLogger('tracing');

export interface TracingOptions {
  /** `service.name` of every span of the process. */
  serviceName: string;
  config?: TracingConfig;
  /** Spans go here (tests: an `InMemorySpanExporter`) instead of OTLP; turns traces on by itself. */
  exporter?: SpanExporter;
}

let stop: (() => Promise<void>) | undefined;

/**
 * Starts the process's tracer provider when an OTLP endpoint is configured (or an exporter given):
 * spans batched to the OTLP/HTTP JSON exporter, AsyncLocalStorage as the context manager, the W3C
 * trace-context propagator. Otherwise does nothing — not even loading the SDK — and every span
 * helper of `trace-context.ts` stays a no-op. Call it once, before the application is created.
 */
export async function startTracing(options: TracingOptions): Promise<boolean> {
  const config = options.config;
  const endpoint = config?.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT ?? config?.OTEL_EXPORTER_OTLP_ENDPOINT;
  if (!options.exporter && !endpoint) return false;
  if (stop) await stopTracing();
  const [sdk, { AsyncLocalStorageContextManager }, { W3CTraceContextPropagator }, { resourceFromAttributes }] =
    await Promise.all([
      import('@opentelemetry/sdk-trace'),
      import('@opentelemetry/context-async-hooks'),
      import('@opentelemetry/core'),
      import('@opentelemetry/resources'),
    ]);
  let exporter = options.exporter;
  if (!exporter) {
    const { OTLPTraceExporter } = await import('@opentelemetry/exporter-trace-otlp-http');
    // the exporter reads OTEL_EXPORTER_OTLP_HEADERS, _TIMEOUT, … itself; the URL is the validated one
    exporter = new OTLPTraceExporter({
      url: config?.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT ?? `${endpoint!.replace(/\/+$/, '')}/v1/traces`,
    });
  }
  const provider = new sdk.TracerProvider({
    resource: resourceFromAttributes({ 'service.name': config?.OTEL_SERVICE_NAME ?? options.serviceName }),
    sampler: new sdk.ParentBasedSampler({
      root: new sdk.TraceIdRatioBasedSampler(config?.OTEL_TRACES_SAMPLER_ARG ?? 1),
    }),
    spanProcessors: [
      options.exporter
        ? new sdk.SimpleSpanProcessor({ exporter })
        : new sdk.BatchSpanProcessor({ exporter, scheduledDelayMillis: config?.OTEL_BSP_SCHEDULE_DELAY ?? 5000 }),
    ],
  });
  const contextManager = new AsyncLocalStorageContextManager().enable();
  context.setGlobalContextManager(contextManager);
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  trace.setGlobalTracerProvider(provider);
  setTracingEnabled(true);
  stop = async () => {
    setTracingEnabled(false);
    await provider.shutdown(); // exports what is still batched
    trace.disable();
    propagation.disable();
    context.disable();
  };
  log.info('traces exported', {
    serviceName: config?.OTEL_SERVICE_NAME ?? options.serviceName,
    ...(options.exporter ? {} : { endpoint }),
  });
  return true;
}

/** Exports the spans still batched and stops tracing (graceful shutdown). */
export async function stopTracing(): Promise<void> {
  const current = stop;
  stop = undefined;
  await current?.().catch((err: unknown) => log.warn('traces could not be flushed', { err: String(err) }));
}

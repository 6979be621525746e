import { collectDefaultMetrics, Histogram, register } from 'prom-client';

let defaultsCollected = false;

/** Process metrics (CPU, memory, event loop lag, GC) once per process. */
export function collectProcessMetrics(): void {
  if (defaultsCollected) return;
  defaultsCollected = true;
  collectDefaultMetrics({ prefix: 'herald_' });
}

export const httpDuration = new Histogram({
  name: 'herald_http_request_duration_seconds',
  help: 'HTTP request duration by route and status',
  labelNames: ['method', 'route', 'status'],
  buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
});

export const metricsRegistry = register;

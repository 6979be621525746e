import { createLogger } from '@herald/core';
import { Gauge } from 'prom-client';
import type { JobStore } from './job.store.js';

const log = createLogger('jobs');

/** The job tables of this process's started queues (standalone hosts every service's), read when /metrics is scraped. */
const stores = new Map<string, JobStore>();

/** Prometheus: dead-lettered jobs (state `failed`: attempts exhausted, waiting for an operator's `jobs retry`). */
new Gauge({
  name: 'herald_jobs_dead',
  help: "Jobs that exhausted their attempts (state 'failed'), by service and queue; `main.js jobs list` shows them",
  labelNames: ['service', 'queue'],
  async collect() {
    this.reset();
    for (const [service, store] of stores) {
      const counts = await store.deadCounts().catch((err: unknown) => {
        log.warn('counting dead jobs failed', { service, err: String(err) });
        return new Map<string, number>();
      });
      for (const [queue, n] of counts) this.set({ service, queue }, n);
    }
  },
});

/** Counts `service`'s dead jobs at each scrape until the returned function is called. */
export function trackDeadJobs(service: string, store: JobStore): () => void {
  stores.set(service, store);
  return () => {
    if (stores.get(service) === store) stores.delete(service);
  };
}

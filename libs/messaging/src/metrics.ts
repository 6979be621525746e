import { Counter, Histogram } from 'prom-client';

/** Messaging counters, labelled by service (one registry per process; standalone hosts every service). */
export const messagingMetrics = {
  published: new Counter({
    name: 'herald_events_published_total',
    help: 'Events published from the outbox',
    labelNames: ['service'],
  }),
  consumed: new Counter({
    name: 'herald_events_consumed_total',
    help: 'Events handled by a consumer, by outcome (processed, duplicate, dead_lettered)',
    labelNames: ['consumer', 'topic', 'outcome'],
  }),
  retries: new Counter({
    name: 'herald_event_handler_retries_total',
    help: 'Handler attempts that failed and were retried',
    labelNames: ['consumer', 'topic'],
  }),
  /** Read-your-writes: each wait of a reader's copy for a producer's positions, by outcome (current, timeout, error). */
  copyWaits: new Histogram({
    name: 'herald_read_your_writes_wait_seconds',
    help: "Time a request waited for a copy to apply its project's earlier writes (read-your-writes), by outcome",
    labelNames: ['reader', 'producer', 'outcome'],
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
  }),
};

import { Counter } from 'prom-client';

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
};

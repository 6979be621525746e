import { Counter, Histogram } from 'prom-client';

/** Prometheus metrics of the delivery worker (on /metrics with the rest). */
export const deliveryMetrics = {
  outcomes: new Counter({
    name: 'herald_email_delivery_outcomes_total',
    help: 'Emails leaving a delivery batch, by outcome (sent, bounced, retry, failed, suppressed)',
    labelNames: ['outcome'],
  }),
  batchSeconds: new Histogram({
    name: 'herald_email_delivery_batch_seconds',
    help: 'Time to compose, sign, send and record one claimed batch',
    buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
  }),
  recovered: new Counter({
    name: 'herald_email_delivery_recovered_total',
    help: 'Emails of a stopped worker found with an expired lease, by what became of them (requeued, sent)',
    labelNames: ['as'],
  }),
};

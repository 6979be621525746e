import { Counter } from 'prom-client';

/** Prometheus metrics of /v1/track's group commit (on /metrics with the rest). */
export const trackMetrics = {
  batches: new Counter({
    name: 'herald_track_batches_total',
    help: 'Batches of /v1/track requests written, by the path that wrote them: single_statement (unlocked read, one guarded statement), locked (a batch that met another writer), one_by_one (a lone request that met another writer, or a batch that failed)',
    labelNames: ['path'],
  }),
  events: new Counter({
    name: 'herald_track_events_written_total',
    help: 'Requests in the batches of herald_track_batches_total, by the same path',
    labelNames: ['path'],
  }),
};

export type TrackWritePath = 'single_statement' | 'locked' | 'one_by_one';

export function countTrackBatch(path: TrackWritePath, size: number): void {
  trackMetrics.batches.inc({ path });
  trackMetrics.events.inc({ path }, size);
}

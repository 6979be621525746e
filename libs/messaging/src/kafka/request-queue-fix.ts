import { createRequire } from 'node:module';

/** The parts of kafkajs's (internal, CommonJS) RequestQueue the fix touches. */
interface RequestQueueInternals {
  pending: unknown[];
  throttledUntil: number;
  throttleCheckTimeoutId: ReturnType<typeof setTimeout> | null;
  checkPendingRequests(): void;
  scheduleCheckPendingRequests(): void;
}

/** kafkajs's own re-check delay for a non-empty queue that is not throttled (its CHECK_PENDING_REQUESTS_INTERVAL). */
const RECHECK_MS = 10;
let applied = false;

/**
 * kafkajs 2.2.4 schedules `setTimeout(check, throttledUntil - Date.now())` after every response even
 * with nothing queued, and `throttledUntil` starts at -1: a timeout of about minus the epoch in ms.
 * Node 24 warns about it (`TimeoutNegativeWarning`) and clamps it to 1 ms, so every broker
 * connection re-checked its empty queue every millisecond for as long as it lived. The fixed method
 * schedules a check only when requests wait, at the end of the throttle or after kafkajs's usual
 * 10 ms. Idempotent; applied by `createKafka`, i.e. before any connection exists.
 */
export function fixKafkaRequestQueue(): void {
  if (applied) return;
  applied = true;
  const require = createRequire(import.meta.url);
  const RequestQueue = require('kafkajs/src/network/requestQueue/index.js') as {
    prototype: RequestQueueInternals;
  };
  RequestQueue.prototype.scheduleCheckPendingRequests = function (this: RequestQueueInternals) {
    if (this.throttleCheckTimeoutId || this.pending.length === 0) return;
    const throttledFor = this.throttledUntil - Date.now();
    this.throttleCheckTimeoutId = setTimeout(
      () => {
        this.throttleCheckTimeoutId = null;
        this.checkPendingRequests();
      },
      throttledFor > 0 ? throttledFor : RECHECK_MS,
    );
  };
}

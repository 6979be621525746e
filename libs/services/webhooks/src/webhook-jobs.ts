/**
 * The webhooks service's job queues (libs/jobs), named here for every feature that enqueues or
 * cancels their jobs:
 * - `webhooks.lane`: the links of each delivery lane's chain (deliveries/delivery-lanes.ts);
 * - `webhooks.delivery`: a dead delivery, recorded as a failed job so that `main.js jobs list` shows
 *   it and `main.js jobs retry <delivery id>` replays it.
 * Every job's payload names its `endpointId` and `projectId` (cancelled by either).
 */
export const LANE_QUEUE = 'webhooks.lane';
export const DEAD_DELIVERY_QUEUE = 'webhooks.delivery';

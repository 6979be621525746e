/**
 * The two delivery lanes, each its own claim loop in the DeliveryWorker: normal (priority 0:
 * /v1/send, workflow mail) and bulk (priority ≥ 1: campaigns). Normal mail never waits for a bulk
 * batch to finish, and takes the next free SMTP connection before bulk messages waiting for one.
 * Each lane's condition on `priority` is DeliveryStore's (`LANE_FILTER`).
 */
export type Lane = 'normal' | 'bulk';

/** The webhooks service's name: its schema, consumer group and event-consumer name. */
export const WEBHOOKS = 'webhooks';

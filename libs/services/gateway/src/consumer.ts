/** The gateway service's name: its schema, consumer group and event-consumer name. */
export const GATEWAY = 'gateway';

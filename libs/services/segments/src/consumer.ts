/** The segments service's name: its schema, consumer group and event-consumer name. */
export const SEGMENTS = 'segments';

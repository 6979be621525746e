/** The campaigns service's name: its schema, consumer group and event-consumer name. */
export const CAMPAIGNS = 'campaigns';

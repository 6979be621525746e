/** The sending service's name: its schema, consumer group and event-consumer name. */
export const SENDING = 'sending';

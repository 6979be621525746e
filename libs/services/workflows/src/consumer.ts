/** The workflows service's name: its schema, consumer group and event-consumer name. */
export const WORKFLOWS = 'workflows';

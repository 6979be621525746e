import { InitialSchema1795260979596 } from './1795260979596-initial-schema.js';

/** Committed migrations of the segments schema, oldest first. Never edit one that has landed. */
// eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
export const segmentsMigrations: Function[] = [
  InitialSchema1795260979596,
];

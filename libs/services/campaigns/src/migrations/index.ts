import { InitialSchema1795260978284 } from './1795260978284-initial-schema.js';

/** Committed migrations of the campaigns schema, oldest first. Never edit one that has landed. */
// eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
export const campaignsMigrations: Function[] = [
  InitialSchema1795260978284,
];

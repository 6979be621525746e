import { InitialSchema1795260984243 } from './1795260984243-initial-schema.js';

/** Committed migrations of the analytics schema, oldest first. Never edit one that has landed. */
// eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
export const analyticsMigrations: Function[] = [
  InitialSchema1795260984243,
];

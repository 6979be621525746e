import { InitialSchema1795260974107 } from './1795260974107-initial-schema.js';
import { AccountsProjectsApiKeys1795262379830 } from './1795262379830-accounts-projects-api-keys.js';

/** Committed migrations of the gateway schema, oldest first. Never edit one that has landed. */
// eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
export const gatewayMigrations: Function[] = [
  InitialSchema1795260974107,
  AccountsProjectsApiKeys1795262379830,
];

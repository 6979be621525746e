import { InitialSchema1795260976878 } from './1795260976878-initial-schema.js';
import { TemplatesEmailsDelivery1795269015065 } from './1795269015065-templates-emails-delivery.js';

/** Committed migrations of the sending schema, oldest first. Never edit one that has landed. */
// eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
export const sendingMigrations: Function[] = [
  InitialSchema1795260976878,
  TemplatesEmailsDelivery1795269015065,
];

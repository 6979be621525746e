import { InitialSchema1795260982572 } from './1795260982572-initial-schema.js';
import { DomainsDkimVerification1795268909815 } from './1795268909815-domains-dkim-verification.js';
import { UnsampledOutboxEnvelope1796400000000 } from './1796400000000-unsampled-outbox-envelope.js';

/** Committed migrations of the domains schema, oldest first. Never edit one that has landed. */
// eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
export const domainsMigrations: Function[] = [
  InitialSchema1795260982572,
  DomainsDkimVerification1795268909815,
  UnsampledOutboxEnvelope1796400000000,
];

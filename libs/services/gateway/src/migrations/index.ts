import { InitialSchema1795260974107 } from './1795260974107-initial-schema.js';
import { AccountsProjectsApiKeys1795262379830 } from './1795262379830-accounts-projects-api-keys.js';
import { VerificationMailJobs1795489748137 } from './1795489748137-verification-mail-jobs.js';
import { BillingCapsConsumption1795600000000 } from './1795600000000-billing-caps-consumption.js';
import { SendingSuspensions1795600100000 } from './1795600100000-sending-suspensions.js';
import { ProjectInvitations1795600200000 } from './1795600200000-project-invitations.js';
import { ApiKeyModes1796270000000 } from './1796270000000-api-key-modes.js';
import { UnsampledOutboxEnvelope1796400000000 } from './1796400000000-unsampled-outbox-envelope.js';

/** Committed migrations of the gateway schema, oldest first. Never edit one that has landed. */
// eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
export const gatewayMigrations: Function[] = [
  InitialSchema1795260974107,
  AccountsProjectsApiKeys1795262379830,
  VerificationMailJobs1795489748137,
  BillingCapsConsumption1795600000000,
  SendingSuspensions1795600100000,
  ProjectInvitations1795600200000,
  ApiKeyModes1796270000000,
  UnsampledOutboxEnvelope1796400000000,
];

import { InitialSchema1795260978284 } from './1795260978284-initial-schema.js';
import { CampaignsLedger1795560100000 } from './1795560100000-campaigns-ledger.js';
import { CampaignStoppedReason1795700000000 } from './1795700000000-campaign-stopped-reason.js';
import { RecipientUnsubscribedAt1795800000000 } from './1795800000000-recipient-unsubscribed-at.js';
import { UnsampledOutboxEnvelope1796400000000 } from './1796400000000-unsampled-outbox-envelope.js';

/** Committed migrations of the campaigns schema, oldest first. Never edit one that has landed. */
// eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
export const campaignsMigrations: Function[] = [
  InitialSchema1795260978284,
  CampaignsLedger1795560100000,
  CampaignStoppedReason1795700000000,
  RecipientUnsubscribedAt1795800000000,
  UnsampledOutboxEnvelope1796400000000,
];

import { InitialSchema1795260984243 } from './1795260984243-initial-schema.js';
import { ActivityProjection1795500329951 } from './1795500329951-activity-projection.js';
import { SentMetric1795510900000 } from './1795510900000-sent-metric.js';
import { CampaignCreatedAt1795910000000 } from './1795910000000-campaign-created-at.js';
import { UnsampledOutboxEnvelope1796400000000 } from './1796400000000-unsampled-outbox-envelope.js';

/** Committed migrations of the analytics schema, oldest first. Never edit one that has landed. */
// eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
export const analyticsMigrations: Function[] = [
  InitialSchema1795260984243,
  ActivityProjection1795500329951,
  SentMetric1795510900000,
  CampaignCreatedAt1795910000000,
  UnsampledOutboxEnvelope1796400000000,
];

import { InitialSchema1795959326511 } from './1795959326511-initial-schema.js';
import { DeliveriesRetentionIndex1795961745288 } from './1795961745288-deliveries-retention-index.js';
import { UnsampledOutboxEnvelope1796400000000 } from './1796400000000-unsampled-outbox-envelope.js';

/** Committed migrations of the webhooks schema, oldest first. Never edit one that has landed. */
// eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
export const webhooksMigrations: Function[] = [
  InitialSchema1795959326511,
  DeliveriesRetentionIndex1795961745288,
  UnsampledOutboxEnvelope1796400000000,
];

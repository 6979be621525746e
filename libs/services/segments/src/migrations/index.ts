import { InitialSchema1795260979596 } from './1795260979596-initial-schema.js';
import { SegmentsReadModel1795492876253 } from './1795492876253-segments-read-model.js';
import { SegmentsResourceReferences1795560000000 } from './1795560000000-resource-references.js';
import { EventRecordIds1795600000000 } from './1795600000000-event-record-ids.js';
import { StoredDynamicMembers1795700000000 } from './1795700000000-stored-dynamic-members.js';
import { MembersAsOf1795800000000 } from './1795800000000-members-as-of.js';
import { UnsampledOutboxEnvelope1796400000000 } from './1796400000000-unsampled-outbox-envelope.js';

/** Committed migrations of the segments schema, oldest first. Never edit one that has landed. */
// eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
export const segmentsMigrations: Function[] = [
  InitialSchema1795260979596,
  SegmentsReadModel1795492876253,
  SegmentsResourceReferences1795560000000,
  EventRecordIds1795600000000,
  StoredDynamicMembers1795700000000,
  MembersAsOf1795800000000,
  UnsampledOutboxEnvelope1796400000000,
];

import { InitialSchema1795260996549 } from './1795260996549-initial-schema.js';
import { FieldsImportsBulkJobs1795263422710 } from './1795263422710-fields-imports-bulk-jobs.js';
import { ContactSearch1795297532044 } from './1795297532044-contact-search.js';
import { WriteGuard1795300761154 } from './1795300761154-write-guard.js';
import { SearchIndexPendingList1795314039730 } from './1795314039730-search-index-pending-list.js';
import { TimelineSystemEvents1795488299936 } from './1795488299936-timeline-system-events.js';
import { ResourceReferences1795489202797 } from './1795489202797-resource-references.js';
import { FieldDeletionTombstones1795489952557 } from './1795489952557-field-deletion-tombstones.js';
import { WorkflowUpdateKeys1795510828715 } from './1795510828715-workflow-update-keys.js';
import { TrackIdempotencyKeys1795946020479 } from './1795946020479-track-idempotency-keys.js';
import { ImportVerification1795958917551 } from './1795958917551-import-verification.js';
import { UnsampledOutboxEnvelope1796400000000 } from './1796400000000-unsampled-outbox-envelope.js';

/** Committed migrations of the contacts schema, oldest first. Never edit one that has landed. */
// eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
export const contactsMigrations: Function[] = [
  InitialSchema1795260996549,
  FieldsImportsBulkJobs1795263422710,
  ContactSearch1795297532044,
  WriteGuard1795300761154,
  SearchIndexPendingList1795314039730,
  TimelineSystemEvents1795488299936,
  ResourceReferences1795489202797,
  FieldDeletionTombstones1795489952557,
  WorkflowUpdateKeys1795510828715,
  TrackIdempotencyKeys1795946020479,
  ImportVerification1795958917551,
  UnsampledOutboxEnvelope1796400000000,
];

import { loadConfig, type ServiceDefinition } from '@herald/core';
import { Job, JobsModule } from '@herald/jobs';
import { messagingEntities, MessagingModule, ReferencesModule, ResourceReferences } from '@herald/messaging';
import { PersistenceModule } from '@herald/persistence';
import { Module } from '@nestjs/common';
import { AudienceService } from './audience/audience.service.js';
import { SegmentsCallHandlers } from './audience/segments.calls.js';
import { SEGMENTS } from './consumer.js';
import { ContactsClient } from './contacts/contacts-client.js';
import {
  SegmentContact,
  SegmentContactEmail,
  SegmentContactEvent,
  SegmentDeletedContact,
  SegmentFieldType,
} from './contacts/read-model.entities.js';
import { ReadModelStore } from './contacts/read-model.store.js';
import { SegmentMembersController } from './members/members.controller.js';
import { MembersService } from './members/members.service.js';
import { EvaluationStore } from './membership/evaluation.store.js';
import { MembershipEngine } from './membership/membership-engine.js';
import { SegmentCompute } from './membership/segment-compute.js';
import { Segment, SegmentMembership, SweepState } from './membership/segment.entity.js';
import { SegmentSweep } from './membership/segment-sweep.js';
import { SegmentsStore } from './membership/segments.store.js';
import { SweepStateStore } from './membership/sweep-state.store.js';
import { segmentsMigrations } from './migrations/index.js';
import { BackfillJobsStore } from './read-model/backfill-jobs.store.js';
import { InternalBackfillController } from './read-model/internal-backfill.controller.js';
import { ReadModelBackfill } from './read-model/read-model.backfill.js';
import { ReadModelHandlers } from './read-model/read-model.handlers.js';
import { SegmentDeletionChecks } from './segments/segment-deletion-checks.js';
import { SegmentsController } from './segments/segments.controller.js';
import { SegmentsService } from './segments/segments.service.js';
import { SEGMENTS_SETTINGS, SegmentsServiceConfig, SegmentsSettings } from './segments.settings.js';

const readModel = [SegmentContact, SegmentDeletedContact, SegmentContactEvent, SegmentContactEmail, SegmentFieldType];

export const segmentsSchema = {
  service: SEGMENTS,
  entities: [Segment, SegmentMembership, SweepState, ...readModel, ResourceReferences, Job, ...messagingEntities],
  migrations: segmentsMigrations,
};

/** Segments, memberships and a read model of contacts (docs/segments.md). */
@Module({
  imports: [
    PersistenceModule.forService(segmentsSchema),
    MessagingModule.forService({ service: SEGMENTS }),
    JobsModule.forService(SEGMENTS, { concurrency: 2 }),
    ReferencesModule.forOwner(SEGMENTS, { kinds: ['segment'] }),
  ],
  controllers: [SegmentsController, SegmentMembersController, ReadModelHandlers, InternalBackfillController],
  providers: [
    SegmentsCallHandlers,
    { provide: SEGMENTS_SETTINGS, useFactory: () => loadConfig(SegmentsSettings) },
    ReadModelStore,
    SegmentsStore,
    EvaluationStore,
    SweepStateStore,
    BackfillJobsStore,
    ContactsClient,
    MembershipEngine,
    SegmentCompute,
    SegmentDeletionChecks,
    SegmentsService,
    MembersService,
    AudienceService,
    SegmentSweep,
    ReadModelBackfill,
  ],
})
export class SegmentsModule {}

export const segmentsService: ServiceDefinition = {
  name: SEGMENTS,
  module: SegmentsModule,
  config: SegmentsServiceConfig,
  schema: segmentsSchema,
  projectData: {
    tables: [SegmentMembership, Segment, ...readModel, ResourceReferences],
  },
};

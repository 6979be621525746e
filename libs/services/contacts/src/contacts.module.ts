import type { ServiceDefinition } from '@herald/core';
import { enableMultipart } from '@herald/http';
import { Job, JobsModule } from '@herald/jobs';
import { messagingEntities, MessagingModule, ReferencesModule, ResourceReferences } from '@herald/messaging';
import { IdempotencyKey, idempotencyKeysRetention, PersistenceModule } from '@herald/persistence';
import { VerificationModule } from '@herald/verification';
import { Module, type OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { BulkJob } from './bulk/bulk-job.entity.js';
import { BulkController } from './bulk/bulk.controller.js';
import { BulkService } from './bulk/bulk.service.js';
import { BulkStore } from './bulk/bulk.store.js';
import { CONTACTS } from './consumer.js';
import { ContactSearchEntry } from './contacts/contact-search.entity.js';
import { ContactUpdateKey } from './contacts/contact-update-key.entity.js';
import { ContactWriter } from './contacts/contact-writer.js';
import { Contact } from './contacts/contact.entity.js';
import { ContactsController } from './contacts/contacts.controller.js';
import { ContactsService } from './contacts/contacts.service.js';
import { ContactStore } from './contacts/contacts.store.js';
import { FieldTypeRecorder } from './contacts/field-type-recorder.js';
import { TrackedEvent } from './contacts/tracked-event.entity.js';
import { EventsController } from './events/events.controller.js';
import { EventsService } from './events/events.service.js';
import { TimelineHandler } from './events/timeline.handler.js';
import { TimelineProjection } from './events/timeline.projection.js';
import { TrackEventUseCase } from './events/track-event.use-case.js';
import { TrackedEventsStore } from './events/tracked-events.store.js';
import { ContactFieldDeletion } from './fields/contact-field-deletion.entity.js';
import { ContactField } from './fields/contact-field.entity.js';
import { DeleteFieldProcessor } from './fields/delete-field.processor.js';
import { FieldRegistry } from './fields/field-registry.js';
import { FieldsController } from './fields/fields.controller.js';
import { FieldsService } from './fields/fields.service.js';
import { FieldsStore } from './fields/fields.store.js';
import { ContactImport } from './imports/contact-import.entity.js';
import { ContactsCallHandlers } from './internal/contacts.calls.js';
import { ContactsExport } from './internal/contacts-export.js';
import { DeliveryFeedbackHandler } from './internal/delivery-feedback.handler.js';
import { ContactImportsController } from './imports/contact-imports.controller.js';
import { ContactImportsService } from './imports/contact-imports.service.js';
import { CsvImportProcessor } from './imports/csv-import.processor.js';
import { ImportsStore } from './imports/imports.store.js';
import { contactsMigrations } from './migrations/index.js';

/** The contacts service's schema: its entities and migrations. */
export const contactsSchema = {
  service: CONTACTS,
  entities: [
    Contact,
    ContactSearchEntry,
    ContactUpdateKey,
    IdempotencyKey,
    TrackedEvent,
    ContactField,
    ContactFieldDeletion,
    ContactImport,
    BulkJob,
    ResourceReferences,
    Job,
    ...messagingEntities,
  ],
  migrations: contactsMigrations,
};

/** Contacts, their custom data and field registry, CSV imports, bulk jobs and tracked events. */
@Module({
  imports: [
    PersistenceModule.forService(contactsSchema),
    MessagingModule.forService({ service: CONTACTS }),
    JobsModule.forService(CONTACTS),
    // who references a field or an event name (GET /contacts/fields/:field/usage, /events/:name/usage)
    ReferencesModule.forOwner(CONTACTS, { kinds: ['field', 'event'] }),
    // verifying CSV imports (POST /contacts/import?verify=true): the checks of /v1/verify
    VerificationModule,
  ],
  controllers: [
    FieldsController,
    ContactImportsController,
    BulkController,
    ContactsController,
    EventsController,
    DeliveryFeedbackHandler,
    TimelineHandler,
  ],
  providers: [
    // /v1/track's Idempotency-Key rows past their 24 hours (docs/operations.md, Retention)
    idempotencyKeysRetention(CONTACTS),
    ContactsCallHandlers,
    ContactsExport,
    ContactStore,
    TrackedEventsStore,
    FieldsStore,
    ImportsStore,
    BulkStore,
    ContactWriter,
    FieldRegistry,
    // the write path records field types through a port of its own (contacts imports no feature built on it)
    { provide: FieldTypeRecorder, useExisting: FieldRegistry },
    ContactsService,
    FieldsService,
    DeleteFieldProcessor,
    ContactImportsService,
    CsvImportProcessor,
    BulkService,
    TrackEventUseCase,
    EventsService,
    TimelineProjection,
  ],
})
export class ContactsModule implements OnModuleInit {
  constructor(private readonly http: HttpAdapterHost) {}

  onModuleInit(): void {
    enableMultipart(this.http);
  }
}

export const contactsService: ServiceDefinition = {
  name: CONTACTS,
  module: ContactsModule,
  schema: contactsSchema,
  // contact_search follows contacts (triggers); declared so that every project_id table is
  projectData: {
    tables: [
      TrackedEvent,
      Contact,
      ContactSearchEntry,
      ContactField,
      ContactFieldDeletion,
      ContactUpdateKey,
      IdempotencyKey,
      ContactImport,
      BulkJob,
      ResourceReferences,
    ],
  },
};

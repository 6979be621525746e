import type { ServiceDefinition } from '@herald/core';
import { messagingEntities, MessagingModule } from '@herald/messaging';
import { PersistenceModule } from '@herald/persistence';
import { Module } from '@nestjs/common';
import { Contact } from './contacts/contact.entity.js';
import { CONTACTS } from './consumer.js';
import { EventStatsQuery } from './events/event-stats.query.js';
import { EventsController } from './events/events.controller.js';
import { TrackEventUseCase } from './events/track-event.use-case.js';
import { TrackedEvent } from './events/tracked-event.entity.js';
import { contactsMigrations } from './migrations/index.js';
import { ProjectLifecycleHandler } from './projects/project-lifecycle.handler.js';

const schema = { service: CONTACTS, entities: [Contact, TrackedEvent, ...messagingEntities], migrations: contactsMigrations };

/** Contacts, their custom data and tracked events (`/contacts/*`, `/v1/track`, `/events/*`). */
@Module({
  imports: [PersistenceModule.forService(schema), MessagingModule.forService({ service: CONTACTS })],
  controllers: [EventsController, ProjectLifecycleHandler],
  providers: [TrackEventUseCase, EventStatsQuery],
})
export class ContactsModule {}

export const contactsService: ServiceDefinition = { name: CONTACTS, module: ContactsModule, defaultPort: 3001, schema };

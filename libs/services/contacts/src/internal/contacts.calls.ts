import { ContactsCalls } from '@herald/internal-contracts';
import { CallHandlers } from '@herald/messaging';
import { Injectable, type OnModuleInit } from '@nestjs/common';
import { ContactsService } from '../contacts/contacts.service.js';
import { ContactsExport } from './contacts-export.js';

/**
 * What contacts answers other services at once (ContactsCalls: /v1/send's recipients, workflows'
 * steps, segments' members and backfill, subscription links), from its own tables only.
 */
@Injectable()
export class ContactsCallHandlers implements OnModuleInit {
  constructor(
    private readonly calls: CallHandlers,
    private readonly contacts: ContactsService,
    private readonly exporter: ContactsExport,
  ) {}

  onModuleInit(): void {
    this.calls.serve(ContactsCalls, {
      upsert: (projectId, request, { requestId }) => this.contacts.upsertFor(projectId, request, requestId),
      upsertMany: async (projectId, request, { requestId, durableCommitFollows }) => ({
        results: await this.contacts.upsertManyFor(projectId, request.contacts, requestId, {
          flushWait: !durableCommitFollows,
        }),
      }),
      setSubscription: (projectId, request, { requestId }) =>
        this.contacts.setSubscription(projectId, request.contactId, request.subscribed, request.reason, requestId, {
          ...(request.emailId ? { emailId: request.emailId } : {}),
          ...(request.campaignId ? { campaignId: request.campaignId } : {}),
        }),
      find: async (projectId, request) => ({ contacts: await this.contacts.getByEmails(projectId, request.emails) }),
      get: (projectId, request) => this.contacts.get(projectId, request.contactId),
      export: (projectId, request) => this.exporter.page(projectId, request.after, request.limit ?? 500),
    });
  }
}

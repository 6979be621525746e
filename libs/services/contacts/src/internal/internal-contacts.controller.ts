import { ObservesWritesOf } from '@herald/core';
import { ProjectId } from '@herald/auth';
import { Internal } from '@herald/http';
import { Body, Controller, HttpCode, Post, Req } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { ContactsService } from '../contacts/contacts.service.js';
import type { ContactView } from '../contacts/contact-view.js';
import { ContactsExport } from './contacts-export.js';
import {
  ServiceExportContactsDto,
  ServiceFindContactsDto,
  ServiceGetContactDto,
  type ExportedContact,
  ServiceSubscriptionDto,
  ServiceUpsertContactDto,
  type ServiceUpsertResult,
} from './internal-contacts.dto.js';

/**
 * What other services ask of contacts when the answer must be immediate (the sending service's
 * /v1/send upsert and its subscription links). Reached only with a service principal, never
 * through the gateway.
 */
@Internal()
// reads and writes only this service's own tables
@ObservesWritesOf()
@Controller('internal/contacts')
export class InternalContactsController {
  constructor(
    private readonly contacts: ContactsService,
    private readonly exporter: ContactsExport,
  ) {}

  @Post('upsert')
  @HttpCode(200)
  upsert(
    @ProjectId() projectId: string,
    @Body() body: ServiceUpsertContactDto,
    @Req() req: FastifyRequest,
  ): Promise<ServiceUpsertResult> {
    return this.contacts.upsertFor(projectId, body, String(req.id));
  }

  @Post('subscription')
  @HttpCode(200)
  subscription(
    @ProjectId() projectId: string,
    @Body() body: ServiceSubscriptionDto,
    @Req() req: FastifyRequest,
  ): Promise<{ contact: ContactView; changed: boolean }> {
    const via = {
      ...(body.emailId ? { emailId: body.emailId } : {}),
      ...(body.campaignId ? { campaignId: body.campaignId } : {}),
    };
    return this.contacts.setSubscription(projectId, body.contactId, body.subscribed, body.reason, String(req.id), via);
  }

  /** The contacts of these addresses (absent ones are left out). */
  @Post('find')
  @HttpCode(200)
  async find(
    @ProjectId() projectId: string,
    @Body() body: ServiceFindContactsDto,
  ): Promise<{ contacts: ContactView[] }> {
    return { contacts: await this.contacts.getByEmails(projectId, body.emails) };
  }

  @Post('get')
  @HttpCode(200)
  get(@ProjectId() projectId: string, @Body() body: ServiceGetContactDto): Promise<ContactView> {
    return this.contacts.get(projectId, body.contactId);
  }

  /** A page of the project's contacts with their custom events, in id order (the segments backfill). */
  @Post('export')
  @HttpCode(200)
  export(
    @ProjectId() projectId: string,
    @Body() body: ServiceExportContactsDto,
  ): Promise<{ contacts: ExportedContact[]; next: string | null }> {
    return this.exporter.page(projectId, body.after, body.limit ?? 500);
  }
}

import { ObservesWritesOf } from '@herald/core';
import { ProjectId } from '@herald/auth';
import type { CursorPage } from '@herald/http';
import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ListContactsQueryDto, LookupContactsDto, UpdateContactDto, UpsertContactDto } from './contact.dto.js';
import type { ContactView } from './contact-view.js';
import { ContactsService, type UpsertedContact } from './contacts.service.js';

// the contacts are this service's own; a project reset (the gateway's) must have been applied
@ObservesWritesOf('gateway')
@Controller('contacts')
export class ContactsController {
  constructor(private readonly contacts: ContactsService) {}

  @Get()
  list(@ProjectId() projectId: string, @Query() query: ListContactsQueryDto): Promise<CursorPage<ContactView>> {
    return this.contacts.list(projectId, query);
  }

  /** Upsert by email: 201 when created, 200 when it existed. */
  @Post()
  async upsert(
    @ProjectId() projectId: string,
    @Body() body: UpsertContactDto,
    @Req() req: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<UpsertedContact> {
    const result = await this.contacts.upsert(projectId, body, String(req.id));
    void reply.status(result._meta.isNew ? 201 : 200);
    return result;
  }

  @Post('lookup')
  @HttpCode(200)
  lookup(@ProjectId() projectId: string, @Body() body: LookupContactsDto) {
    return this.contacts.lookup(projectId, body.emails);
  }

  @Get(':id')
  get(@ProjectId() projectId: string, @Param('id') id: string): Promise<ContactView> {
    return this.contacts.get(projectId, id);
  }

  @Patch(':id')
  update(
    @ProjectId() projectId: string,
    @Param('id') id: string,
    @Body() body: UpdateContactDto,
    @Req() req: FastifyRequest,
  ): Promise<ContactView> {
    return this.contacts.update(projectId, id, body, String(req.id));
  }

  @Delete(':id')
  async delete(
    @ProjectId() projectId: string,
    @Param('id') id: string,
    @Req() req: FastifyRequest,
  ): Promise<{ success: true }> {
    await this.contacts.delete(projectId, id, String(req.id));
    return { success: true };
  }
}

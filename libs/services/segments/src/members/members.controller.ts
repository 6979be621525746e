import { ProjectId } from '@herald/auth';
import { Body, Controller, Delete, Get, HttpCode, Param, Post, Query, Req } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import type { MemberView, Page } from '../segments/segment-view.js';
import { AddMembersDto, MembersPageQueryDto, RemoveMembersDto } from './members.dto.js';
import { MembersService, type AddMembersResult } from './members.service.js';

/** The members of a segment (docs/segments.md, "Routes"): its page of contacts, and a static segment's members. */
@Controller('segments')
export class SegmentMembersController {
  constructor(private readonly members: MembersService) {}

  @Get(':id/contacts')
  contacts(
    @ProjectId() projectId: string,
    @Param('id') id: string,
    @Query() query: MembersPageQueryDto,
  ): Promise<Page<MemberView>> {
    return this.members.page(projectId, id, query.page, query.pageSize);
  }

  @Post(':id/members')
  @HttpCode(200)
  addMembers(
    @ProjectId() projectId: string,
    @Param('id') id: string,
    @Body() body: AddMembersDto,
    @Req() req: FastifyRequest,
  ): Promise<AddMembersResult> {
    return this.members.add(projectId, id, body, String(req.id));
  }

  @Delete(':id/members')
  removeMembers(
    @ProjectId() projectId: string,
    @Param('id') id: string,
    @Body() body: RemoveMembersDto,
  ): Promise<{ removed: number }> {
    return this.members.remove(projectId, id, body.emails);
  }
}

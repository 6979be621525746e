import { ProjectId } from '@herald/auth';
import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query, Req } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { MembersService, type AddMembersResult } from '../members/members.service.js';
import {
  AddMembersDto,
  CreateSegmentDto,
  MembersPageQueryDto,
  RemoveMembersDto,
  UpdateSegmentDto,
} from './segment.dto.js';
import type { MemberView, Page, SegmentView } from './segment-view.js';
import { SegmentsService } from './segments.service.js';

@Controller('segments')
export class SegmentsController {
  constructor(
    private readonly segments: SegmentsService,
    private readonly members: MembersService,
  ) {}

  @Get()
  list(@ProjectId() projectId: string): Promise<SegmentView[]> {
    return this.segments.list(projectId);
  }

  @Post()
  create(@ProjectId() projectId: string, @Body() body: CreateSegmentDto, @Req() req: FastifyRequest) {
    return this.segments.create(projectId, body, String(req.id));
  }

  @Get(':id')
  get(@ProjectId() projectId: string, @Param('id') id: string): Promise<SegmentView> {
    return this.segments.get(projectId, id);
  }

  @Patch(':id')
  update(
    @ProjectId() projectId: string,
    @Param('id') id: string,
    @Body() body: UpdateSegmentDto,
    @Req() req: FastifyRequest,
  ): Promise<SegmentView> {
    return this.segments.update(projectId, id, body, String(req.id));
  }

  @Delete(':id')
  async remove(
    @ProjectId() projectId: string,
    @Param('id') id: string,
    @Req() req: FastifyRequest,
  ): Promise<{ success: true }> {
    await this.segments.remove(projectId, id, String(req.id));
    return { success: true };
  }

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

  @Post(':id/compute')
  @HttpCode(200)
  compute(@ProjectId() projectId: string, @Param('id') id: string, @Req() req: FastifyRequest) {
    return this.segments.compute(projectId, id, String(req.id));
  }

  @Post(':id/refresh')
  @HttpCode(200)
  refresh(@ProjectId() projectId: string, @Param('id') id: string): Promise<SegmentView> {
    return this.segments.refresh(projectId, id);
  }
}

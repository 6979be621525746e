import { ProjectId } from '@herald/auth';
import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Req } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { CountFilterDto, CreateSegmentDto, UpdateSegmentDto } from './segment.dto.js';
import type { MemberView, SegmentView } from './segment-view.js';
import { SegmentsService } from './segments.service.js';

/** Segments: create, read, change, delete, compute and refresh (docs/segments.md, "Routes"); their members: SegmentMembersController. */
@Controller('segments')
export class SegmentsController {
  constructor(private readonly segments: SegmentsService) {}

  @Get()
  list(@ProjectId() projectId: string): Promise<SegmentView[]> {
    return this.segments.list(projectId);
  }

  @Post()
  create(@ProjectId() projectId: string, @Body() body: CreateSegmentDto, @Req() req: FastifyRequest) {
    return this.segments.create(projectId, body, String(req.id));
  }

  /**
   * How many contacts a filter matches now, unsaved: `{total}` (the dashboard's live count), and
   * with `preview: n` its first n members as `preview`.
   */
  @Post('count')
  @HttpCode(200)
  count(
    @ProjectId() projectId: string,
    @Body() body: CountFilterDto,
  ): Promise<{ total: number; preview?: MemberView[] }> {
    return this.segments.countFilter(projectId, body);
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

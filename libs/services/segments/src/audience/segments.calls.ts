import { SegmentsCalls } from '@herald/internal-contracts';
import { CallHandlers } from '@herald/messaging';
import { Injectable, type OnModuleInit } from '@nestjs/common';
import { SegmentsService } from '../segments/segments.service.js';
import { AudienceService } from './audience.service.js';

/**
 * What segments answers other services at once (SegmentsCalls): campaigns' audiences (checked, then
 * read page by page at the moment of sending) and workflows' question of which segments are the project's.
 */
@Injectable()
export class SegmentsCallHandlers implements OnModuleInit {
  constructor(
    private readonly calls: CallHandlers,
    private readonly audience: AudienceService,
    private readonly segments: SegmentsService,
  ) {}

  onModuleInit(): void {
    this.calls.serve(SegmentsCalls, {
      checkAudience: (projectId, request) => this.audience.check(projectId, request),
      audiencePage: (projectId, request) => this.audience.page(projectId, request),
      known: async (projectId, request) => ({ ids: await this.segments.known(projectId, request.ids) }),
    });
  }
}

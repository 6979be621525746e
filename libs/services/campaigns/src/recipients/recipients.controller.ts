import { Readable } from 'node:stream';
import { ProjectId } from '@herald/auth';
import { Controller, Get, Param, Query, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { RecipientsFilterDto, RecipientsQueryDto } from './recipients.dto.js';
import { RecipientsService, type RecipientsPage } from './recipients.service.js';

/** A campaign's ledger read: its stats, its recipients page by page, and their CSV export (docs/campaigns.md). */
@Controller('campaigns')
export class RecipientsController {
  constructor(private readonly recipients: RecipientsService) {}

  @Get(':id/stats')
  stats(@ProjectId() projectId: string, @Param('id') id: string) {
    return this.recipients.stats(projectId, id);
  }

  @Get(':id/recipients')
  recipientsPage(
    @ProjectId() projectId: string,
    @Param('id') id: string,
    @Query() query: RecipientsQueryDto,
  ): Promise<RecipientsPage> {
    return this.recipients.page(projectId, id, query);
  }

  @Get(':id/recipients.csv')
  async recipientsCsv(
    @ProjectId() projectId: string,
    @Param('id') id: string,
    @Query() query: RecipientsFilterDto,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    const lines = this.recipients.csv(projectId, id, query);
    const first = await lines.next(); // a 404 is answered before the stream starts
    async function* all() {
      if (!first.done) yield first.value;
      yield* lines;
    }
    await reply
      .header('content-type', 'text/csv; charset=utf-8')
      .header(
        'content-disposition',
        `attachment; filename="campaign-${id.replace(/[^A-Za-z0-9_-]/g, '')}-recipients.csv"`,
      )
      .send(Readable.from(all()));
  }
}

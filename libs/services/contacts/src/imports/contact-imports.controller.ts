import { InjectOutbox, type Outbox } from '@herald/messaging';
import { CONTACTS } from '../consumer.js';
import { ProjectId } from '@herald/auth';
import { invalidInput, ObservesWritesOf } from '@herald/core';
import { ErrorCode, FilePartTooLargeError, HeraldException, readFilePart } from '@herald/http';
import { Controller, Get, HttpCode, Param, Post, Query, Req } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { ContactImportsService, MAX_CSV_BYTES, type ImportView } from './contact-imports.service.js';
import { importOptions, StartImportQueryDto } from './import.dto.js';
import { ImportErrors } from './import.errors.js';

// the jobs are this service's own; a project reset (the gateway's) must have been applied
@ObservesWritesOf('gateway')
@Controller('contacts/import')
export class ContactImportsController {
  constructor(
    private readonly imports: ContactImportsService,
    @InjectOutbox(CONTACTS) private readonly outbox: Outbox,
  ) {}

  /**
   * multipart/form-data with one file part (UTF-8 CSV, at most 5 MB); answers 202 {jobId, status}.
   * `verify=true` runs the /v1/verify checks on every address (a verdict per row); with
   * `skipInvalid=true` too, rows whose domain takes no mail or is disposable are not imported.
   */
  @Post()
  @HttpCode(202)
  async start(
    @ProjectId() projectId: string,
    @Req() req: FastifyRequest,
    @Query() query: StartImportQueryDto,
  ): Promise<{ jobId: string; status: 'queued' }> {
    const options = importOptions(query);
    if (!req.isMultipart()) {
      throw new HeraldException(
        415,
        ErrorCode.UnsupportedMediaType,
        'Send the CSV as multipart/form-data with a file part',
        {
          suggestion: 'curl -F file=@contacts.csv …',
        },
      );
    }
    const part = await req.file({ limits: { fileSize: MAX_CSV_BYTES, files: 1 } });
    if (!part) throw invalidInput([{ field: 'file', message: 'a file part is required', code: 'required' }]);
    let buffer: Buffer;
    try {
      buffer = await readFilePart(part);
    } catch (err) {
      if (err instanceof FilePartTooLargeError) throw ImportErrors.fileTooLarge(MAX_CSV_BYTES);
      throw err;
    }
    return this.imports.start(projectId, buffer, part.filename, options);
  }

  @Get(':jobId')
  /** A finished job's status shows its writes: the project's later requests observe them (read-your-writes). */
  async get(@ProjectId() projectId: string, @Param('jobId') jobId: string): Promise<ImportView> {
    const job = await this.imports.get(projectId, jobId);
    if (job.status !== 'queued') await this.outbox.exposeLatest(projectId);
    return job;
  }
}

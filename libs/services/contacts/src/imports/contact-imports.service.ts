import { newId } from '@herald/core';
import { InjectJobQueue, type JobQueue } from '@herald/jobs';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { CONTACTS } from '../consumer.js';
import type { ImportRowError, ImportStatus } from './contact-import.entity.js';
import { csvRows, decodeUtf8 } from './csv.js';
import { ImportErrors } from './import.errors.js';
import { ImportsStore } from './imports.store.js';

export const MAX_CSV_BYTES = 5 * 1024 * 1024;
export const IMPORT_QUEUE = 'contacts.import-csv';

export interface ImportView {
  jobId: string;
  status: ImportStatus;
  totalRows: number;
  imported: number;
  updated: number;
  skipped: number;
  errors: ImportRowError[];
  progress: { processedRows: number; percent: number };
  createdAt: string;
  completedAt: string | null;
  failure?: string;
}

/** Accepting a CSV upload (checked before anything is queued) and reporting on its import. */
@Injectable()
export class ContactImportsService {
  constructor(
    @InjectDataSource(CONTACTS) private readonly db: DataSource,
    @InjectJobQueue(CONTACTS) private readonly jobs: JobQueue,
    private readonly store: ImportsStore,
  ) {}

  async start(
    projectId: string,
    file: Buffer,
    fileName: string | undefined,
  ): Promise<{ jobId: string; status: 'queued' }> {
    if (file.length > MAX_CSV_BYTES) throw ImportErrors.fileTooLarge(MAX_CSV_BYTES);
    if (decodeUtf8(file) === undefined)
      throw ImportErrors.invalidFile('The file is not valid UTF-8 text; save it as CSV UTF-8');
    let header: string[] | undefined;
    let totalRows = 0;
    try {
      for await (const row of csvRows(file)) {
        if (!header) header = row as string[];
        else totalRows++;
      }
    } catch (err) {
      throw ImportErrors.invalidFile(`The file is not valid CSV: ${err instanceof Error ? err.message : String(err)}`);
    }
    if (!header) throw ImportErrors.invalidFile('The file is empty; it needs a header row with an email column');
    if (!header.some((h) => h.trim().toLowerCase() === 'email'))
      throw ImportErrors.invalidFile('The header row has no email column');

    const id = newId('imp');
    await this.db.transaction(async (m) => {
      await this.store.create(m, { id, projectId, file, fileName: fileName ?? null, totalRows });
      await this.jobs.enqueue(m, IMPORT_QUEUE, { importId: id }, { id, maxAttempts: 3 });
    });
    return { jobId: id, status: 'queued' };
  }

  async get(projectId: string, jobId: string): Promise<ImportView> {
    const job = await this.store.report(this.db, projectId, jobId);
    if (!job) throw ImportErrors.jobNotFound(jobId);
    return {
      jobId: job.id,
      status: job.status,
      totalRows: job.totalRows,
      imported: job.imported,
      updated: job.updated,
      skipped: job.skipped,
      errors: job.errors,
      progress: {
        processedRows: job.processedRows,
        percent: job.totalRows === 0 ? 100 : Math.floor((job.processedRows / job.totalRows) * 100),
      },
      createdAt: job.createdAt.toISOString(),
      completedAt: job.completedAt ? job.completedAt.toISOString() : null,
      ...(job.failure ? { failure: job.failure } : {}),
    };
  }
}

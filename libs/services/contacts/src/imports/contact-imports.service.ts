import { newId } from '@herald/core';
import { InjectJobQueue, type JobQueue } from '@herald/jobs';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { CONTACTS } from '../consumer.js';
import type { ContactImport, ImportRowError, ImportStatus } from './contact-import.entity.js';
import { csvRows, decodeUtf8 } from './csv.js';
import type { ImportOptions } from './import.dto.js';
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
  /** Verifying imports only (`?verify=true`): what verification found. */
  verification?: ImportVerificationView;
  /** Verifying imports only: rows imported with a verdict (the first 1000). */
  warnings?: ImportRowError[];
}

/** The verification of an import: its rows' verdicts counted. */
export interface ImportVerificationView {
  /** `?skipInvalid=true`: rows with an invalid verdict (invalid_domain, disposable) were not imported. */
  skipInvalid: boolean;
  /** Rows whose address was verified: every row with a valid address. */
  checked: number;
  /** Rows verified with nothing to report. */
  passed: number;
  /** Rows with each verdict (one verdict per row). */
  counts: {
    invalid_domain: number;
    disposable: number;
    typo: number;
    role_address: number;
    unverified: number;
  };
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
    options: ImportOptions = { verify: false, skipInvalid: false },
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
      await this.store.create(m, { id, projectId, file, fileName: fileName ?? null, totalRows, ...options });
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
      ...(job.verify ? { verification: verificationOf(job), warnings: job.warnings } : {}),
    };
  }
}

function verificationOf(job: ContactImport): ImportVerificationView {
  const n = job.verdictCounts;
  const counts = {
    invalid_domain: n.invalid_domain ?? 0,
    disposable: n.disposable ?? 0,
    typo: n.typo ?? 0,
    role_address: n.role_address ?? 0,
    unverified: n.unverified ?? 0,
  };
  const checked = n.checked ?? 0;
  const flagged = Object.values(counts).reduce((a, b) => a + b, 0);
  return { skipInvalid: job.skipInvalid, checked, passed: checked - flagged, counts };
}

import { dataObjectProblem, isValidEmail, mapCsvRow } from '@herald/contact-data';
import { isUnstorableText } from '@herald/core';
import { createLogger } from '@herald/core';
import { InjectJobQueue, type JobContext, type JobQueue } from '@herald/jobs';
import { ListVerifier, type ListVerification } from '@herald/verification';
import { Injectable, type OnModuleInit } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { ContactWriter } from '../contacts/contact-writer.js';
import { CONTACTS } from '../consumer.js';
import type { ContactImport, ImportRowError } from './contact-import.entity.js';
import { IMPORT_QUEUE } from './contact-imports.service.js';
import { csvRows } from './csv.js';
import { verifyRows, type ValidRow } from './import-verification.js';
import { ImportsStore } from './imports.store.js';

const BATCH_ROWS = 1000;
const log = createLogger('contacts.import');

interface ParsedRow {
  /** Row number in the file, the header being row 1. */
  row: number;
  email: string | undefined;
  data: Record<string, unknown>;
}

/**
 * Runs a CSV import as a durable job: streams the stored file with fast-csv, applies rows in
 * batches of 1000 through the contact write path, and commits each batch together with the
 * counts and the checkpoint. After a crash the job is claimed again and resumes after the last
 * committed batch; rows are upserts by email, so nothing is duplicated. The SQL is the ImportsStore's.
 */
@Injectable()
export class CsvImportProcessor implements OnModuleInit {
  constructor(
    @InjectDataSource(CONTACTS) private readonly db: DataSource,
    @InjectJobQueue(CONTACTS) private readonly jobs: JobQueue,
    private readonly writer: ContactWriter,
    private readonly store: ImportsStore,
    private readonly verifier: ListVerifier,
  ) {}

  onModuleInit(): void {
    this.jobs.register(IMPORT_QUEUE, (ctx) => this.run(ctx), {
      // the process died on the import's last attempt (out of memory, killed): the import fails, saying so
      onDead: (job) =>
        this.store.fail(
          this.db,
          (job.payload as { importId: string }).importId,
          'The import stopped: the process running it died or stalled on its last attempt.',
        ),
    });
  }

  private async run({ job, signal }: JobContext): Promise<void> {
    const importId = (job.payload as { importId: string }).importId;
    const imp = await this.store.get(this.db, importId);
    if (!imp || imp.status !== 'queued' || !imp.file) return;
    try {
      await this.process(imp, signal);
    } catch (err) {
      if (err instanceof Superseded) return; // another run of the job (its lease expired here) carries on
      if (!signal.aborted && job.attempts >= job.maxAttempts) {
        await this.store.fail(this.db, imp.id, err instanceof Error ? err.message : String(err));
      }
      throw err;
    }
  }

  private async process(imp: ContactImport, signal: AbortSignal): Promise<void> {
    const started = performance.now();
    // one per run: each domain of the file looked up once (a resumed run looks them up again)
    const verification = imp.verify ? this.verifier.start() : undefined;
    let header: string[] | undefined;
    let dataRow = 0;
    let batch: ParsedRow[] = [];
    for await (const cells of csvRows(imp.file!)) {
      // valid UTF-8: checked when it was uploaded
      if (!header) {
        header = cells as string[];
        continue;
      }
      dataRow++;
      if (dataRow <= imp.processedRows) continue; // applied before a restart
      const { email, data } = mapCsvRow(header, cells as string[]);
      batch.push({ row: dataRow + 1, email, data });
      if (batch.length === BATCH_ROWS) {
        signal.throwIfAborted();
        await this.apply(imp, batch, signal, verification);
        batch = [];
      }
    }
    if (batch.length > 0) await this.apply(imp, batch, signal, verification);
    await this.store.complete(this.db, imp.id);
    log.info('import completed', {
      importId: imp.id,
      projectId: imp.projectId,
      rows: dataRow,
      durationMs: Math.round(performance.now() - started),
      ...(verification ? { domainsLookedUp: verification.domainsLookedUp } : {}),
    });
  }

  private async apply(
    imp: ContactImport,
    batch: ParsedRow[],
    signal: AbortSignal,
    verification?: ListVerification,
  ): Promise<void> {
    const errors: ImportRowError[] = [];
    let valid: ValidRow[] = [];
    for (const r of batch) {
      // a row PostgreSQL cannot store is reported, and the other rows are imported
      const email = r.email === undefined ? '' : storable(r.email);
      if (!r.email || email !== r.email || !isValidEmail(r.email))
        errors.push({ row: r.row, email, reason: 'invalid_email' });
      else {
        const problem = dataObjectProblem(r.data);
        if (problem)
          errors.push({
            row: r.row,
            email,
            reason: problem.code === 'invalid_string' ? 'invalid_text' : 'data_too_large',
          });
        else valid.push({ row: r.row, email: r.email, data: r.data });
      }
    }
    const verified = verification ? await verifyRows(valid, verification, imp.skipInvalid, signal) : undefined;
    if (verified) {
      errors.push(...verified.errors);
      errors.sort((a, b) => a.row - b.row);
      valid = verified.kept;
    }
    await this.db.transaction(async (m) => {
      // The checkpoint, locked: a run whose lease expired while it worked (a stalled process) and
      // the run that claimed the job again must not both apply this batch. The second to get here
      // sees the checkpoint moved and stops, its writes rolled back.
      const before = batch[0]!.row - 2; // rows of the file applied before this batch
      if ((await this.store.lockCheckpoint(m, imp.id)) !== before) throw new Superseded();
      const { created, updated } =
        valid.length > 0
          ? await this.writer.upsertBatch(
              m,
              { projectId: imp.projectId, subscribedIfNew: true, reason: 'import' },
              valid,
            )
          : { created: 0, updated: 0 };
      await this.store.recordBatch(m, imp.id, {
        rows: batch.length,
        created,
        updated,
        errors,
        ...(verified ? { warnings: verified.warnings, verdicts: verified.verdicts } : {}),
      });
    });
  }
}

/** This run of the import found its checkpoint moved by another run of the same job. */
class Superseded extends Error {}

/** `s` with each NUL and lone surrogate replaced by U+FFFD, so a row's error report can be stored. */
function storable(s: string): string {
  return isUnstorableText(s) ? s.replace(/\0|\p{Cs}/gu, '\uFFFD') : s;
}

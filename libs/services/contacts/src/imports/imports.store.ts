import { tableName } from '@herald/persistence';
import { Injectable } from '@nestjs/common';
import type { DataSource, EntityManager } from 'typeorm';
import { ContactImport, type ImportRowError, type VerdictCounts } from './contact-import.entity.js';

/** The row errors, and the row warnings, an import keeps (the first ones of each; the counts go on). */
const MAX_STORED_ERRORS = 1000;

/** What one batch of an import's rows came to. */
export interface BatchOutcome {
  rows: number;
  created: number;
  updated: number;
  /** Rows not imported (each counts as skipped). */
  errors: ImportRowError[];
  /** Rows imported with a verification verdict. */
  warnings?: ImportRowError[];
  /** Added to the import's verdict counts. */
  verdicts?: VerdictCounts;
}

/**
 * The SQL of CSV imports (`contact_imports`): the upload with its file, the checkpoint and counts
 * each batch moves, and the outcome. Methods that take an EntityManager run in the caller's transaction.
 */
@Injectable()
export class ImportsStore {
  /** A new queued import of `file`. */
  async create(
    m: EntityManager,
    row: {
      id: string;
      projectId: string;
      file: Buffer;
      fileName: string | null;
      totalRows: number;
      verify: boolean;
      skipInvalid: boolean;
    },
  ): Promise<void> {
    await m.insert(ContactImport, {
      id: row.id,
      projectId: row.projectId,
      status: 'queued',
      file: row.file,
      fileName: row.fileName,
      totalRows: row.totalRows,
      errors: [],
      verify: row.verify,
      skipInvalid: row.skipInvalid,
    });
  }

  /** An import of the project as its report shows it (without the file). */
  report(db: DataSource, projectId: string, id: string): Promise<ContactImport | null> {
    return db.getRepository(ContactImport).findOne({
      where: { projectId, id },
      select: {
        id: true,
        status: true,
        totalRows: true,
        processedRows: true,
        imported: true,
        updated: true,
        skipped: true,
        errors: true,
        verify: true,
        skipInvalid: true,
        warnings: true,
        verdictCounts: true,
        createdAt: true,
        completedAt: true,
        failure: true,
      },
    });
  }

  /** An import with its file, as its job runs it. */
  get(db: DataSource, id: string): Promise<ContactImport | null> {
    return db.getRepository(ContactImport).findOneBy({ id });
  }

  /** The rows applied so far, locked until the transaction ends (undefined: no such import). */
  async lockCheckpoint(m: EntityManager, id: string): Promise<number | undefined> {
    const [checkpoint] = (await m.query(
      `SELECT processed_rows FROM ${tableName(m, ContactImport)} WHERE id = $1 FOR UPDATE`,
      [id],
    )) as { processed_rows: number }[];
    return checkpoint?.processed_rows;
  }

  /**
   * Moves the checkpoint past a batch and adds its counts, its verdict counts and (up to
   * MAX_STORED_ERRORS of each in all) its row errors and warnings.
   */
  async recordBatch(m: EntityManager, id: string, batch: BatchOutcome): Promise<void> {
    const { rows, created, updated, errors, warnings = [], verdicts = {} } = batch;
    const kept = (column: string, param: string) =>
      `CASE WHEN jsonb_array_length(${column}) >= ${MAX_STORED_ERRORS} THEN ${column} ELSE ${column} || ${param}::jsonb END`;
    await m.query(
      `UPDATE ${tableName(m, ContactImport)}
            SET processed_rows = processed_rows + $2, imported = imported + $3, updated = updated + $4, skipped = skipped + $5,
                errors = ${kept('errors', '$6')}, warnings = ${kept('warnings', '$7')},
                verdict_counts = (SELECT COALESCE(jsonb_object_agg(key, total), '{}'::jsonb)
                                    FROM (SELECT key, sum(value::int) AS total
                                            FROM (SELECT * FROM jsonb_each_text(verdict_counts)
                                                  UNION ALL SELECT * FROM jsonb_each_text($8::jsonb)) AS counts
                                           GROUP BY key) AS totals)
          WHERE id = $1`,
      [
        id,
        rows,
        created,
        updated,
        errors.length,
        JSON.stringify(errors),
        JSON.stringify(warnings),
        JSON.stringify(verdicts),
      ],
    );
  }

  /** Every row applied: completed, and the file dropped. */
  async complete(db: DataSource, id: string): Promise<void> {
    await db.query(
      `UPDATE ${tableName(db, ContactImport)} SET status = 'completed', file = NULL, completed_at = now() WHERE id = $1`,
      [id],
    );
  }

  /** Its last attempt failed: failed with why, and the file dropped. */
  async fail(db: DataSource, id: string, failure: string): Promise<void> {
    await db.getRepository(ContactImport).update(
      { id },
      {
        status: 'failed',
        failure,
        completedAt: new Date(),
        file: null,
      },
    );
  }
}

import { Injectable } from '@nestjs/common';
import type { DataSource, EntityManager } from 'typeorm';
import { BulkJob, type BulkAction } from './bulk-job.entity.js';

/** What a bulk job came to. */
export interface BulkOutcome {
  succeeded: number;
  unchanged: number;
  errors: { contactId: string; reason: string }[];
}

/** The SQL of bulk jobs (`bulk_jobs`). Methods that take an EntityManager run in the caller's transaction. */
@Injectable()
export class BulkStore {
  /** A new queued job of `action` over `contactIds` (each once). */
  async create(
    m: EntityManager,
    id: string,
    projectId: string,
    action: BulkAction,
    contactIds: string[],
  ): Promise<void> {
    await m.insert(BulkJob, {
      id,
      projectId,
      action,
      contactIds: [...new Set(contactIds)],
      status: 'queued',
      errors: [],
    });
  }

  /** A job of the project. */
  find(db: DataSource, projectId: string, id: string): Promise<BulkJob | null> {
    return db.getRepository(BulkJob).findOneBy({ projectId, id });
  }

  /** A job, as its runner reads it. */
  get(db: DataSource, id: string): Promise<BulkJob | null> {
    return db.getRepository(BulkJob).findOneBy({ id });
  }

  /** The job is done: completed with its outcome. */
  async complete(m: EntityManager, id: string, { succeeded, unchanged, errors }: BulkOutcome): Promise<void> {
    await m.update(
      BulkJob,
      { id },
      { status: 'completed', succeeded, unchanged, failed: errors.length, errors, completedAt: new Date() },
    );
  }
}

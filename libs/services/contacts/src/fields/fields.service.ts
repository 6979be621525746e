import { invalidInput, notFoundError } from '@herald/core';
import { page, type Page, type PageQueryDto } from '@herald/http';
import { InjectJobQueue, type JobQueue } from '@herald/jobs';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { CONTACTS } from '../consumer.js';
import type { ContactFieldType } from './contact-field.entity.js';
import { FieldRegistry } from './field-registry.js';
import { FieldsStore } from './fields.store.js';
import { InjectReferences, type ReferenceDirectory, type Usage } from '@herald/messaging';
import { deletionCovering } from './live-data.js';

export interface FieldDescriptor {
  field: string;
  type: ContactFieldType;
  isCustom: boolean;
  /** Share of the project's contacts that have the field set, 0..1. */
  coverage: number;
}

export const DELETE_FIELD_QUEUE = 'contacts.delete-field';

const STANDARD: { field: string; type: ContactFieldType }[] = [
  { field: 'email', type: 'string' },
  { field: 'subscribed', type: 'boolean' },
  { field: 'createdAt', type: 'date' },
  { field: 'updatedAt', type: 'date' },
];

/** The payload of a field's deletion job: the tombstone it works for. */
export type DeleteFieldJob = {
  projectId: string;
  field: string;
  /** The tombstone's seq: the job removes the field from rows below it only (absent in jobs queued before tombstones). */
  seq?: string;
};

/** The field registry's API: descriptors with coverage, distinct values, usage, deletion; the SQL is the FieldsStore's. */
@Injectable()
export class FieldsService {
  constructor(
    @InjectDataSource(CONTACTS) private readonly db: DataSource,
    @InjectJobQueue(CONTACTS) private readonly jobs: JobQueue,
    private readonly registry: FieldRegistry,
    @InjectReferences(CONTACTS) private readonly references: ReferenceDirectory,
    private readonly store: FieldsStore,
  ) {}

  /** The registry with coverage; a value of a deleted field that its job has not removed yet is not counted. */
  async list(projectId: string): Promise<{ fields: FieldDescriptor[] }> {
    const custom = await this.store.custom(this.db, projectId);
    const tombstones = await this.store.tombstones(this.db, projectId);
    const { total, counts } = await this.store.coverage(
      this.db,
      projectId,
      custom.map((f) => ({ path: f.path, deletedAt: deletionCovering(f.path, tombstones) })),
    );
    const share = (n: number) => (total === 0 ? 0 : Math.round((n / total) * 10_000) / 10_000);
    return {
      fields: [
        ...STANDARD.map((s) => ({ ...s, isCustom: false, coverage: total === 0 ? 0 : 1 })),
        ...custom.map((f, i) => ({
          field: f.path,
          type: f.type,
          isCustom: true,
          coverage: share(counts[i]!),
        })),
      ],
    };
  }

  /** Distinct values of a custom field with how many contacts have each, most common first. */
  async values(projectId: string, field: string, q: PageQueryDto): Promise<Page<{ value: string; count: number }>> {
    await this.requireCustom(projectId, field);
    const deletedAt = deletionCovering(field, await this.store.tombstones(this.db, projectId));
    const { rows, total } = await this.store.values(
      this.db,
      projectId,
      { path: field, deletedAt },
      q.pageSize,
      q.offset,
    );
    return page(rows, total, q);
  }

  async usage(projectId: string, field: string): Promise<Usage> {
    await this.requireCustom(projectId, field);
    return this.references.usage(projectId, 'field', field);
  }

  /**
   * Deletes the field at once for every read: it is unregistered and a tombstone is recorded (every
   * read then leaves the key out of rows not written since), in one transaction with the job that
   * removes it from the rows. A value written to the key afterwards is a new field.
   */
  async delete(projectId: string, field: string): Promise<{ jobId: string; status: 'queued' }> {
    if (!field.startsWith('data.'))
      throw invalidInput([
        { field: 'field', message: 'only custom fields (data.<key>) can be deleted', code: 'invalid_string' },
      ]);
    return this.db.transaction(async (m) => {
      const seq = await this.store.unregister(m, projectId, field);
      if (seq === undefined) throw notFoundError('Field', field);
      this.registry.forget(projectId, field);
      const job: DeleteFieldJob = { projectId, field, seq };
      const jobId = await this.jobs.enqueue(m, DELETE_FIELD_QUEUE, job);
      return { jobId, status: 'queued' as const };
    });
  }

  private async requireCustom(projectId: string, field: string): Promise<void> {
    if (!(await this.store.isRegistered(this.db, projectId, field))) throw notFoundError('Field', field);
  }
}

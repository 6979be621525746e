import { invalidInput, notFoundError } from '@herald/core';
import { tableName } from '@herald/persistence';
import { page, type Page, type PageQueryDto } from '@herald/http';
import { InjectJobQueue, type JobQueue } from '@herald/jobs';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { Contact } from '../contacts/contact.entity.js';
import { CONTACTS } from '../consumer.js';
import { ContactFieldDeletion } from './contact-field-deletion.entity.js';
import { ContactField, type ContactFieldType } from './contact-field.entity.js';
import { FieldRegistry } from './field-registry.js';
import { InjectReferences, type ReferenceDirectory, type Usage } from '@herald/messaging';
import { deletionCovering, jsonPath, liveValueSql } from './live-data.js';

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

/** The field registry's API: descriptors with coverage, distinct values, usage, deletion. */
@Injectable()
export class FieldsService {
  constructor(
    @InjectDataSource(CONTACTS) private readonly db: DataSource,
    @InjectJobQueue(CONTACTS) private readonly jobs: JobQueue,
    private readonly registry: FieldRegistry,
    @InjectReferences(CONTACTS) private readonly references: ReferenceDirectory,
  ) {}

  /** The registry with coverage; a value of a deleted field that its job has not removed yet is not counted. */
  async list(projectId: string): Promise<{ fields: FieldDescriptor[] }> {
    const custom = await this.db.getRepository(ContactField).find({ where: { projectId }, order: { path: 'ASC' } });
    const tombstones = await this.tombstones(projectId);
    const params: unknown[] = [projectId];
    const param = (v: unknown) => `$${params.push(v)}`;
    const filters = custom.map((f) => {
      const seq = deletionCovering(f.path, tombstones);
      return liveValueSql(param(jsonPath(f.path)), seq === undefined ? undefined : param(seq));
    });
    const counts: Record<string, string> = (
      await this.db.query(
        `SELECT count(*) AS total${filters.map((w, i) => `, count(*) FILTER (WHERE ${w}) AS f${i}`).join('')}
           FROM ${tableName(this.db, Contact)} WHERE project_id = $1`,
        params,
      )
    )[0];
    const total = Number(counts.total);
    const share = (n: number) => (total === 0 ? 0 : Math.round((n / total) * 10_000) / 10_000);
    return {
      fields: [
        ...STANDARD.map((s) => ({ ...s, isCustom: false, coverage: total === 0 ? 0 : 1 })),
        ...custom.map((f, i) => ({
          field: f.path,
          type: f.type,
          isCustom: true,
          coverage: share(Number(counts[`f${i}`])),
        })),
      ],
    };
  }

  /** Distinct values of a custom field with how many contacts have each, most common first. */
  async values(projectId: string, field: string, q: PageQueryDto): Promise<Page<{ value: string; count: number }>> {
    await this.requireCustom(projectId, field);
    const table = tableName(this.db, Contact);
    const seq = deletionCovering(field, await this.tombstones(projectId));
    const live = liveValueSql('$2', '$3');
    const params = [projectId, jsonPath(field), seq ?? '0'];
    const rows: { value: string; count: string }[] = await this.db.query(
      `SELECT data #>> $2::text[] AS value, count(*) AS count FROM ${table}
        WHERE project_id = $1 AND ${live} GROUP BY 1 ORDER BY count(*) DESC, 1 LIMIT $4 OFFSET $5`,
      [...params, q.pageSize, q.offset],
    );
    const total = Number(
      (
        await this.db.query(
          `SELECT count(DISTINCT data #>> $2::text[]) AS n FROM ${table} WHERE project_id = $1 AND ${live}`,
          params,
        )
      )[0].n,
    );
    return page(
      rows.map((r) => ({ value: r.value, count: Number(r.count) })),
      total,
      q,
    );
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
      const [, removed] = (await m.query(
        `DELETE FROM ${tableName(m, ContactField)} WHERE project_id = $1 AND path = $2`,
        [projectId, field],
      )) as [unknown, number];
      if (removed === 0) throw notFoundError('Field', field);
      const [tombstone] = (await m.query(
        `INSERT INTO ${tableName(m, ContactFieldDeletion)} (project_id, path) VALUES ($1, $2) RETURNING seq::text AS seq`,
        [projectId, field],
      )) as { seq: string }[];
      this.registry.forget(projectId, field);
      const job: DeleteFieldJob = { projectId, field, seq: tombstone!.seq };
      const jobId = await this.jobs.enqueue(m, DELETE_FIELD_QUEUE, job);
      return { jobId, status: 'queued' as const };
    });
  }

  private async tombstones(projectId: string): Promise<{ path: string; seq: string }[]> {
    return this.db.query(
      `SELECT path, seq::text AS seq FROM ${tableName(this.db, ContactFieldDeletion)} WHERE project_id = $1`,
      [projectId],
    );
  }

  private async requireCustom(projectId: string, field: string): Promise<void> {
    if (!(await this.db.getRepository(ContactField).existsBy({ projectId, path: field })))
      throw notFoundError('Field', field);
  }
}

import { tableName } from '@herald/persistence';
import { notFound, page, validationFailed, type Page, type PageQueryDto } from '@herald/http';
import { InjectJobQueue, type JobQueue } from '@herald/jobs';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { Contact } from '../contacts/contact.entity.js';
import { CONTACTS } from '../consumer.js';
import { ContactField, type ContactFieldType } from './contact-field.entity.js';
import { FieldRegistry } from './field-registry.js';
import { UsageDirectory, type Usage } from './usage-directory.js';

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

/** `data.profile.tier` → `{profile,tier}` (a PostgreSQL text[] path literal). */
export const jsonPath = (field: string): string[] => field.replace(/^data\./, '').split('.');

/** The field registry's API: descriptors with coverage, distinct values, usage, deletion. */
@Injectable()
export class FieldsService {
  constructor(
    @InjectDataSource(CONTACTS) private readonly db: DataSource,
    @InjectJobQueue(CONTACTS) private readonly jobs: JobQueue,
    private readonly registry: FieldRegistry,
    private readonly usageDirectory: UsageDirectory,
  ) {}

  async list(projectId: string): Promise<{ fields: FieldDescriptor[] }> {
    const custom = await this.db.getRepository(ContactField).find({ where: { projectId }, order: { path: 'ASC' } });
    const paths = custom.map((f) => jsonPath(f.path));
    const counts: Record<string, string> = (
      await this.db.query(
        `SELECT count(*) AS total${paths.map((_, i) => `, count(*) FILTER (WHERE data #> $${i + 2}::text[] IS NOT NULL) AS f${i}`).join('')}
           FROM ${tableName(this.db, Contact)} WHERE project_id = $1`,
        [projectId, ...paths],
      )
    )[0];
    const total = Number(counts.total);
    const share = (n: number) => (total === 0 ? 0 : Math.round((n / total) * 10_000) / 10_000);
    return {
      fields: [
        ...STANDARD.map((s) => ({ ...s, isCustom: false, coverage: total === 0 ? 0 : 1 })),
        ...custom.map((f, i) => ({ field: f.path, type: f.type, isCustom: true, coverage: share(Number(counts[`f${i}`])) })),
      ],
    };
  }

  /** Distinct values of a custom field with how many contacts have each, most common first. */
  async values(projectId: string, field: string, q: PageQueryDto): Promise<Page<{ value: string; count: number }>> {
    await this.requireCustom(projectId, field);
    const table = tableName(this.db, Contact);
    const path = jsonPath(field);
    const rows: { value: string; count: string }[] = await this.db.query(
      `SELECT data #>> $2::text[] AS value, count(*) AS count FROM ${table}
        WHERE project_id = $1 AND data #> $2::text[] IS NOT NULL GROUP BY 1 ORDER BY count(*) DESC, 1 LIMIT $3 OFFSET $4`,
      [projectId, path, q.pageSize, q.offset],
    );
    const total = Number(
      (await this.db.query(`SELECT count(DISTINCT data #>> $2::text[]) AS n FROM ${table} WHERE project_id = $1 AND data #> $2::text[] IS NOT NULL`, [projectId, path]))[0].n,
    );
    return page(rows.map((r) => ({ value: r.value, count: Number(r.count) })), total, q);
  }

  async usage(projectId: string, field: string): Promise<Usage> {
    await this.requireCustom(projectId, field);
    return this.usageDirectory.field(projectId, field);
  }

  /** Unregisters the field now and removes it from every contact in a background job. */
  async delete(projectId: string, field: string): Promise<{ jobId: string; status: 'queued' }> {
    if (!field.startsWith('data.')) throw validationFailed([{ field: 'field', message: 'only custom fields (data.<key>) can be deleted', code: 'invalid_string' }]);
    return this.db.transaction(async (m) => {
      const [, removed] = (await m.query(`DELETE FROM ${tableName(m, ContactField)} WHERE project_id = $1 AND path = $2`, [projectId, field])) as [unknown, number];
      if (removed === 0) throw notFound('Field', field);
      this.registry.forget(projectId, field);
      const jobId = await this.jobs.enqueue(m, DELETE_FIELD_QUEUE, { projectId, field });
      return { jobId, status: 'queued' as const };
    });
  }

  private async requireCustom(projectId: string, field: string): Promise<void> {
    if (!(await this.db.getRepository(ContactField).existsBy({ projectId, path: field }))) throw notFound('Field', field);
  }
}

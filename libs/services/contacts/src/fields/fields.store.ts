import { SqlParams, tableName, type SqlParam } from '@herald/persistence';
import { Injectable } from '@nestjs/common';
import type { DataSource, EntityManager } from 'typeorm';
import { Contact } from '../contacts/contact.entity.js';
import { liveDataSql } from '../contacts/contacts.store.js';
import { ContactFieldDeletion } from './contact-field-deletion.entity.js';
import { ContactField } from './contact-field.entity.js';
import { jsonPath, liveValueSql } from './live-data.js';

/** A custom field as a count over the contacts sees it: its path, and the seq of the newest deletion covering it, if any. */
export interface CountedField {
  path: string;
  deletedAt?: string;
}

/** A contact a field deletion job changed, as it now is (live data). */
export interface ClearedContact {
  id: string;
  email: string;
  subscribed: boolean;
  data: Record<string, unknown>;
}

/**
 * The SQL of a project's custom fields: the registry (`contact_fields`), the tombstones of fields
 * being deleted (`contact_field_deletions`), and what is counted and removed of a field in the
 * contacts' data. Methods that take an EntityManager run in the caller's transaction.
 */
@Injectable()
export class FieldsStore {
  /** The insert of paths (path → type) not registered yet, as a statement or as a part of a single-statement write. */
  registerSql(
    source: DataSource | EntityManager,
    projectId: string,
    fresh: Map<string, string>,
    param: SqlParam,
  ): string {
    return `INSERT INTO ${tableName(source, ContactField)} (project_id, path, type)
      SELECT ${param(projectId, 'varchar')}, p, t FROM unnest(${param([...fresh.keys()], 'varchar[]')}, ${param([...fresh.values()], 'varchar[]')}) AS x(p, t)
      ON CONFLICT (project_id, path) DO NOTHING`;
  }

  /** Registers paths (path → type) in the caller's transaction; a path registered before keeps its type. */
  async register(m: EntityManager, projectId: string, fresh: Map<string, string>): Promise<void> {
    const params = new SqlParams();
    await m.query(this.registerSql(m, projectId, fresh, params.param), params.values);
  }

  /** The project's registered fields, by path. */
  custom(db: DataSource, projectId: string): Promise<ContactField[]> {
    return db.getRepository(ContactField).find({ where: { projectId }, order: { path: 'ASC' } });
  }

  isRegistered(db: DataSource, projectId: string, path: string): Promise<boolean> {
    return db.getRepository(ContactField).existsBy({ projectId, path });
  }

  /** The project's fields being deleted (their jobs not done). */
  tombstones(db: DataSource, projectId: string): Promise<{ path: string; seq: string }[]> {
    return db.query(`SELECT path, seq::text AS seq FROM ${tableName(db, ContactFieldDeletion)} WHERE project_id = $1`, [
      projectId,
    ]);
  }

  /**
   * How many contacts the project has, and how many have a live value at each of `fields` (a value
   * in a row below the field's newest deletion is a stale one): one statement.
   */
  async coverage(
    db: DataSource,
    projectId: string,
    fields: CountedField[],
  ): Promise<{ total: number; counts: number[] }> {
    const params: unknown[] = [projectId];
    const param = (v: unknown) => `$${params.push(v)}`;
    const filters = fields.map((f) =>
      liveValueSql(param(jsonPath(f.path)), f.deletedAt === undefined ? undefined : param(f.deletedAt)),
    );
    const counts: Record<string, string> = (
      await db.query(
        `SELECT count(*) AS total${filters.map((w, i) => `, count(*) FILTER (WHERE ${w}) AS f${i}`).join('')}
           FROM ${tableName(db, Contact)} WHERE project_id = $1`,
        params,
      )
    )[0];
    return { total: Number(counts.total), counts: fields.map((_, i) => Number(counts[`f${i}`])) };
  }

  /**
   * The distinct live values of a field (`deletedAt` as in `coverage`, '0' when none) with how many
   * contacts have each, most common first, a page of them, and how many distinct values there are.
   */
  async values(
    db: DataSource,
    projectId: string,
    { path, deletedAt }: CountedField,
    limit: number,
    offset: number,
  ): Promise<{ rows: { value: string; count: number }[]; total: number }> {
    const table = tableName(db, Contact);
    const live = liveValueSql('$2', '$3');
    const params = [projectId, jsonPath(path), deletedAt ?? '0'];
    const rows: { value: string; count: string }[] = await db.query(
      `SELECT data #>> $2::text[] AS value, count(*) AS count FROM ${table}
        WHERE project_id = $1 AND ${live} GROUP BY 1 ORDER BY count(*) DESC, 1 LIMIT $4 OFFSET $5`,
      [...params, limit, offset],
    );
    const total = Number(
      (
        await db.query(
          `SELECT count(DISTINCT data #>> $2::text[]) AS n FROM ${table} WHERE project_id = $1 AND ${live}`,
          params,
        )
      )[0].n,
    );
    return { rows: rows.map((r) => ({ value: r.value, count: Number(r.count) })), total };
  }

  /**
   * Unregisters a field and records its tombstone, in the caller's transaction: the tombstone's
   * seq, or undefined (and no tombstone) when the field was not registered.
   */
  async unregister(m: EntityManager, projectId: string, path: string): Promise<string | undefined> {
    const [, removed] = (await m.query(
      `DELETE FROM ${tableName(m, ContactField)} WHERE project_id = $1 AND path = $2`,
      [projectId, path],
    )) as [unknown, number];
    if (removed === 0) return undefined;
    const [tombstone] = (await m.query(
      `INSERT INTO ${tableName(m, ContactFieldDeletion)} (project_id, path) VALUES ($1, $2) RETURNING seq::text AS seq`,
      [projectId, path],
    )) as { seq: string }[];
    return tombstone!.seq;
  }

  /**
   * Removes a field from up to `limit` contacts that hold it and were last written before its
   * tombstone `seq` (any, without one), locked, in the caller's transaction: those contacts as they now are.
   */
  async clearBatch(
    m: EntityManager,
    projectId: string,
    field: string,
    seq: string | undefined,
    limit: number,
  ): Promise<ClearedContact[]> {
    const table = tableName(m, Contact);
    const [rows] = (await m.query(
      `UPDATE ${table} SET data = data #- $2::text[], updated_at = now()
            WHERE id IN (SELECT id FROM ${table} WHERE project_id = $1 AND data #> $2::text[] IS NOT NULL
                           AND ($3::bigint IS NULL OR deletions_applied < $3::bigint) LIMIT ${limit} FOR UPDATE)
            RETURNING id, email, subscribed, ${liveDataSql()} AS data`,
      [projectId, jsonPath(field), seq ?? null],
    )) as [ClearedContact[], number];
    return rows;
  }

  /** Deletes a field's tombstone (its job is done), in the caller's transaction. */
  async dropTombstone(m: EntityManager, projectId: string, seq: string): Promise<void> {
    await m.query(`DELETE FROM ${tableName(m, ContactFieldDeletion)} WHERE project_id = $1 AND seq = $2`, [
      projectId,
      seq,
    ]);
  }
}

import { keysetPage, type CursorPage } from '@herald/http';
import {
  jsonParam,
  queryPrepared,
  SingleStatementWrite,
  SqlParams,
  tableName,
  type SqlParam,
} from '@herald/persistence';
import { Injectable } from '@nestjs/common';
import type { DataSource, EntityManager } from 'typeorm';
import type { ListContactsQueryDto } from './contact.dto.js';
import { ContactErrors } from './contact.errors.js';
import { Contact } from './contact.entity.js';
import { ContactSearchEntry } from './contact-search.entity.js';
import { ContactUpdateKey } from './contact-update-key.entity.js';
import { contactFromRow } from './contact-view.js';
import { TrackedEvent } from './tracked-event.entity.js';

/**
 * How every read of a contact leaves out the keys of deleted fields that the deletion job has not
 * removed from its row yet (migration FieldDeletionTombstones; docs/contacts.md, "Deleting a field"):
 * - `DELETE /contacts/fields/:field` records a tombstone (`contact_field_deletions`, with a `seq`
 *   from one sequence) in the transaction that unregisters the field;
 * - `contacts.live_data(project_id, data, deletions_applied)` is `data` without the paths of the
 *   project's tombstones above the row's `deletions_applied`: one probe of the index on
 *   (project_id, seq), which finds nothing unless a deletion is in progress;
 * - a write starts from the live data and stores `deletions_applied` = the highest tombstone it saw
 *   (`contacts.deletions_seen`), so a value written to the path after the delete is shown, and
 *   the job (which only touches rows below its tombstone) leaves it alone.
 */

/**
 * SQL: the live data of a contact row (`alias` the table's alias in the statement, if any): its
 * `data` without the keys of fields deleted since the row was last written.
 */
export const liveDataSql = (alias?: string): string => {
  const col = (name: string) => (alias ? `${alias}.${name}` : name);
  return `"contacts"."live_data"(${col('project_id')}, ${col('data')}, ${col('deletions_applied')})`;
};

/** The columns of a contact as every read (API, internal routes, the write path) selects them. */
export const CONTACT_COLUMNS = `id, project_id, email, subscribed, created_at, updated_at,
  ${liveDataSql()} AS data,
  GREATEST(deletions_applied, "contacts"."deletions_seen"(project_id))::text AS deletions_applied`;

/** SQL: the highest field deletion of a project (`$project`), 0 when none is in progress. */
const deletionsSeenSql = (project: string): string => `"contacts"."deletions_seen"(${project})`;

/** The schema's guard of single-statement writes (migration WriteGuard1795300761154). */
const WRITE_GUARD = '"contacts"."write_guard"';

/** See ContactStore.list. */
const COUNT_PROBE = 1000;

const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

/** The contacts a batch writes (`planUpserts`): new ones, changed ones, and the others it matched. */
export interface BatchRows {
  inserts: Contact[];
  updates: Contact[];
  unchanged: Contact[];
}

/** A contact as the segments backfill copies it (`/internal/contacts/export`), with its custom events. */
export interface ExportRow {
  id: string;
  email: string;
  subscribed: boolean;
  data: Record<string, unknown>;
  created_at: Date;
  updated_at: Date;
  events: { id: string; name: string; at: string }[];
}

/**
 * The SQL of contacts and what belongs to each: its timeline (deleted with it) and the idempotency
 * keys of the updates applied to it. Every read selects the live data (`CONTACT_COLUMNS`). Methods
 * that take an EntityManager run in the caller's transaction; those that take the DataSource stand
 * alone (a read, or /v1/track's single statement).
 */
@Injectable()
export class ContactStore {
  /** The contact of an address (normalised), locked until the transaction ends. */
  async lockByEmail(m: EntityManager, projectId: string, email: string): Promise<Contact | undefined> {
    const rows: Record<string, unknown>[] = await m.query(
      `SELECT ${CONTACT_COLUMNS} FROM ${tableName(m, Contact)} WHERE project_id = $1 AND email = $2 FOR UPDATE`,
      [projectId, email],
    );
    return rows[0] ? contactFromRow(rows[0]) : undefined;
  }

  /** The contact of an id, locked until the transaction ends. */
  async lockById(m: EntityManager, projectId: string, id: string): Promise<Contact | undefined> {
    const rows: Record<string, unknown>[] = await m.query(
      `SELECT ${CONTACT_COLUMNS} FROM ${tableName(m, Contact)} WHERE project_id = $1 AND id = $2 FOR UPDATE`,
      [projectId, id],
    );
    return rows[0] ? contactFromRow(rows[0]) : undefined;
  }

  /** The contacts of normalised addresses, locked in email order (two batches over the same contacts cannot deadlock). */
  async lockByEmails(m: EntityManager, projectId: string, emails: string[]): Promise<Contact[]> {
    const rows: Record<string, unknown>[] = await m.query(
      `SELECT ${CONTACT_COLUMNS} FROM ${tableName(m, Contact)} WHERE project_id = $1 AND email = ANY($2::varchar[]) ORDER BY email FOR UPDATE`,
      [projectId, emails],
    );
    return rows.map(contactFromRow);
  }

  /**
   * Inserts a new contact (its data is all new: every field deletion so far counts as applied) and
   * answers it as stored; undefined when its email or its id is taken (no conflict target: a contact
   * created concurrently and a taken proposed id both insert nothing).
   */
  async insert(m: EntityManager, contact: Contact): Promise<Contact | undefined> {
    const { id, projectId, email, subscribed, data } = contact;
    const inserted: Record<string, unknown>[] = await m.query(
      `INSERT INTO ${tableName(m, Contact)} (id, project_id, email, subscribed, data, deletions_applied)
         VALUES ($1, $2, $3, $4, $5::jsonb, ${deletionsSeenSql('$2')})
         ON CONFLICT DO NOTHING RETURNING ${CONTACT_COLUMNS}`,
      [id, projectId, email, subscribed, JSON.stringify(data)],
    );
    return inserted[0] ? contactFromRow(inserted[0]) : undefined;
  }

  /**
   * Writes the address, subscription and data of an existing contact (with the deletions its data
   * has had applied) and answers it as stored; CONTACT_EMAIL_TAKEN when another contact has the address.
   */
  async update(m: EntityManager, projectId: string, contact: Contact): Promise<Contact> {
    const { id, email, subscribed, data, deletionsApplied } = contact;
    let rows: Record<string, unknown>[];
    try {
      [rows] = (await m.query(
        `UPDATE ${tableName(m, Contact)} SET email = $3, subscribed = $4, data = $5::jsonb, deletions_applied = $6, updated_at = now()
          WHERE project_id = $1 AND id = $2 RETURNING ${CONTACT_COLUMNS}`,
        [projectId, id, email, subscribed, JSON.stringify(data), deletionsApplied],
      )) as [Record<string, unknown>[], number];
    } catch (err) {
      if ((err as { driverError?: { code?: string } }).driverError?.code === '23505')
        throw ContactErrors.emailTaken(email);
      throw err;
    }
    return contactFromRow(rows[0]!);
  }

  /** Deletes the contact's timeline (tracked and system events), then the contact: what was deleted, if it existed. */
  async delete(m: EntityManager, projectId: string, id: string): Promise<{ id: string; email: string } | undefined> {
    await m.query(`DELETE FROM ${tableName(m, TrackedEvent)} WHERE project_id = $1 AND contact_id = $2`, [
      projectId,
      id,
    ]);
    const [rows] = (await m.query(
      `DELETE FROM ${tableName(m, Contact)} WHERE project_id = $1 AND id = $2 RETURNING id, email`,
      [projectId, id],
    )) as [{ id: string; email: string }[], number];
    return rows[0];
  }

  /**
   * New and changed contacts of a batch in one statement (they are different rows), over rows the
   * transaction has locked (no version check): how many were inserted (fewer than `inserts` when
   * another writer took an address or an id meanwhile) and the write's time, `now()`.
   */
  async writeLocked(
    m: EntityManager,
    projectId: string,
    { inserts, updates }: Pick<BatchRows, 'inserts' | 'updates'>,
  ): Promise<{ inserted: number; at: Date }> {
    const table = tableName(m, Contact);
    const { param, values } = new SqlParams();
    const project = param(projectId, 'varchar');
    const [counts] = (await m.query(
      `WITH ins AS (${insertContactsSql(table, project, param, inserts)}),
              upd AS (${updateContactsSql(table, project, param, updates)})
         SELECT (SELECT count(*) FROM ins)::int AS inserted, now() AS at`,
      values,
    )) as { inserted: number; at: Date }[];
    return counts!;
  }

  /**
   * The contacts of normalised addresses, read without locks, with each row's version (`xmin`):
   * what a single-statement write (`guardedWrite`) is computed from.
   */
  async readUnlocked(
    db: DataSource,
    projectId: string,
    emails: string[],
  ): Promise<{ found: Contact[]; versions: Map<string, string> }> {
    // named columns, not *: a prepared statement whose result columns change under it (a migration adding one) fails until reconnect
    const rows = await queryPrepared(
      db,
      `SELECT ${CONTACT_COLUMNS}, xmin::text AS row_version FROM ${tableName(db, Contact)} WHERE project_id = $1 AND email = ANY($2::varchar[])`,
      [projectId, emails],
    );
    return {
      found: rows.map(contactFromRow),
      versions: new Map(rows.map((r) => [r.id as string, r.row_version as string])),
    };
  }

  /**
   * A single-statement write of a batch's contacts, read by `readUnlocked`, that the caller completes
   * (field registry, events, outbox) and runs: it inserts the new contacts and updates the changed
   * ones, and keeps nothing unless every new contact is still new, every changed one still has the
   * version it was read at, and every other one is still there.
   */
  guardedWrite(
    db: DataSource,
    projectId: string,
    { inserts, updates, unchanged }: BatchRows,
    versions: Map<string, string>,
  ): SingleStatementWrite {
    const table = tableName(db, Contact);
    const write = new SingleStatementWrite(WRITE_GUARD);
    const { param } = write;
    const project = param(projectId, 'varchar');
    if (inserts.length > 0) {
      const created = write.with('created', insertContactsSql(table, project, param, inserts));
      write.guard(`(SELECT count(*) FROM ${created}) = ${param(inserts.length, 'int')}`);
    }
    if (updates.length > 0) {
      const changed = write.with('changed', updateContactsSql(table, project, param, updates, versions));
      write.guard(`(SELECT count(*) FROM ${changed}) = ${param(updates.length, 'int')}`);
    }
    if (unchanged.length > 0) {
      // still there when the statement commits (a delete waits for this lock, or happened before and the guard fails)
      const kept = write.with(
        'kept',
        `SELECT 1 FROM ${table} WHERE project_id = ${project} AND id = ANY(${param(
          unchanged.map((c) => c.id),
          'varchar[]',
        )}) FOR KEY SHARE`,
      );
      write.guard(`(SELECT count(*) FROM ${kept}) = ${param(unchanged.length, 'int')}`);
    }
    return write;
  }

  /**
   * Records idempotency keys (sorted) in one insert, in the caller's transaction: the keys this
   * call claimed; the others were claimed before (a concurrent claim of one waits for its commit).
   */
  async claimKeys(m: EntityManager, projectId: string, keys: string[]): Promise<string[]> {
    const claimed: { key: string }[] = await m.query(
      `INSERT INTO ${tableName(m, ContactUpdateKey)} (project_id, key)
       SELECT $1, k FROM unnest($2::varchar[]) AS k ORDER BY k
       ON CONFLICT DO NOTHING RETURNING key`,
      [projectId, keys],
    );
    return claimed.map((r) => r.key);
  }

  /** One contact as it is now. */
  async get(db: DataSource, projectId: string, id: string): Promise<Contact | undefined> {
    const rows: Record<string, unknown>[] = await db.query(
      `SELECT ${CONTACT_COLUMNS} FROM ${tableName(db, Contact)} WHERE project_id = $1 AND id = $2`,
      [projectId, id],
    );
    return rows[0] ? contactFromRow(rows[0]) : undefined;
  }

  exists(db: DataSource, projectId: string, id: string): Promise<boolean> {
    return db.getRepository(Contact).existsBy({ projectId, id });
  }

  /** The contacts of normalised addresses as they are now. */
  async getByEmails(db: DataSource, projectId: string, emails: string[]): Promise<Contact[]> {
    const rows: Record<string, unknown>[] = await db.query(
      `SELECT ${CONTACT_COLUMNS} FROM ${tableName(db, Contact)} WHERE project_id = $1 AND email = ANY($2::varchar[])`,
      [projectId, emails],
    );
    return rows.map(contactFromRow);
  }

  /** Id, address and subscription of the contacts of normalised addresses. */
  lookup(
    db: DataSource,
    projectId: string,
    emails: string[],
  ): Promise<{ id: string; email: string; subscribed: boolean }[]> {
    return db.query(
      `SELECT id, email, subscribed FROM ${tableName(db, Contact)} WHERE project_id = $1 AND email = ANY($2::varchar[])`,
      [projectId, emails],
    );
  }

  /** The id of the contact an email event names: by id, else by (normalised) address. */
  async idOf(m: EntityManager, projectId: string, id: string, email: string): Promise<string | undefined> {
    const rows: { id: string }[] = await m.query(
      `SELECT id FROM ${tableName(m, Contact)} WHERE project_id = $1 AND (id = $2 OR email = $3) LIMIT 1`,
      [projectId, id, email],
    );
    return rows[0]?.id;
  }

  /** Newest first, keyset-paginated; `search` (a substring of the email) uses the trigram index. */
  async list(db: DataSource, projectId: string, q: ListContactsQueryDto): Promise<CursorPage<Contact>> {
    const filters = ['project_id = $1'];
    const params: unknown[] = [projectId];
    if (q.search) {
      params.push(`%${escapeLike(q.search.trim().toLowerCase())}%`);
      filters.push(`email LIKE $${params.length}`);
    }
    if (q.subscribed !== undefined) {
      params.push(q.subscribed);
      filters.push(`subscribed = $${params.length}`);
    }
    const table = tableName(db, Contact);
    const page = await keysetPage(db, q, {
      table,
      columns: CONTACT_COLUMNS,
      filters,
      params,
      total: () => this.count(db, table, filters, params),
    });
    return { ...page, data: page.data.map(contactFromRow) };
  }

  /**
   * The `total` of a contact list, exact, in at most two statements. Up to COUNT_PROBE matches are
   * counted in `contacts`, where the trigram index finds a rare substring at once; a list that
   * reaches COUNT_PROBE is counted in full in `contact_search` (same columns, same filters), whose
   * sequential scan reads a third of the bytes of one over `contacts`. Unbounded counts never run
   * on `contacts`.
   */
  private async count(db: DataSource, table: string, filters: string[], params: unknown[]): Promise<number> {
    const where = filters.join(' AND ');
    const [probe] = await db.query(
      `SELECT count(*) AS n FROM (SELECT 1 FROM ${table} WHERE ${where} LIMIT ${COUNT_PROBE}) m`,
      params,
    );
    if (Number(probe.n) < COUNT_PROBE) return Number(probe.n);
    const [all] = await db.query(
      `SELECT count(*) AS n FROM ${tableName(db, ContactSearchEntry)} WHERE ${where}`,
      params,
    );
    return Number(all.n);
  }

  /**
   * A page of a project's contacts in id order, after `after`, each with its custom events (names
   * and times, in order): one statement. `data` is the live data.
   */
  exportPage(db: DataSource, projectId: string, after: string | null, limit: number): Promise<ExportRow[]> {
    return db.query(
      `SELECT c.id, c.email, c.subscribed, ${liveDataSql('c')} AS data, c.created_at, c.updated_at,
                COALESCE((SELECT jsonb_agg(jsonb_build_object('id', e.id, 'name', e.name, 'at', e.created_at) ORDER BY e.created_at, e.id)
                            FROM ${tableName(db, TrackedEvent)} e
                           WHERE e.project_id = c.project_id AND e.contact_id = c.id AND NOT e.system), '[]'::jsonb) AS events
           FROM ${tableName(db, Contact)} c
          WHERE c.project_id = $1 AND ($2::varchar IS NULL OR c.id > $2::varchar)
          ORDER BY c.id LIMIT $3`,
      [projectId, after, limit],
    );
  }
}

/**
 * New contacts, one row each (an email already taken, or an id, is skipped: compare the RETURNING
 * rows with `contacts`); their data is all new, so every field deletion so far counts as applied.
 */
function insertContactsSql(table: string, project: string, param: SqlParam, contacts: Contact[]): string {
  const rows = contacts.map((c) => ({ id: c.id, email: c.email, subscribed: c.subscribed, data: c.data }));
  return `INSERT INTO ${table} (id, project_id, email, subscribed, data, deletions_applied)
    SELECT id, ${project}, email, subscribed, data, ${deletionsSeenSql(project)}
      FROM jsonb_to_recordset(${jsonParam(param, rows)}) AS x(id varchar, email varchar, subscribed boolean, data jsonb)
    ON CONFLICT DO NOTHING RETURNING 1`;
}

/** Subscription and data of existing contacts; with `versions` (id → `xmin` as read), only the rows not written since. */
function updateContactsSql(
  table: string,
  project: string,
  param: SqlParam,
  contacts: Contact[],
  versions?: Map<string, string>,
): string {
  const rows = contacts.map((c) => ({
    id: c.id,
    subscribed: c.subscribed,
    data: c.data,
    deletions: c.deletionsApplied,
    ...(versions ? { version: versions.get(c.id) } : {}),
  }));
  return `UPDATE ${table} AS c SET subscribed = u.subscribed, data = u.data, deletions_applied = u.deletions, updated_at = now()
      FROM jsonb_to_recordset(${jsonParam(param, rows)}) AS u(id varchar, subscribed boolean, data jsonb, deletions bigint${versions ? ', version xid' : ''})
     WHERE c.project_id = ${project} AND c.id = u.id${versions ? ' AND c.xmin = u.version' : ''} RETURNING 1`;
}

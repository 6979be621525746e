import { jsonParam, type SqlParam } from '@herald/persistence';
import { deletionsSeenSql } from '../fields/live-data.js';
import type { Contact } from './contact.entity.js';

/** The schema's guard of single-statement writes (migration WriteGuard1795300761154). */
export const WRITE_GUARD = '"contacts"."write_guard"';

/**
 * New contacts, one row each (an email already taken, or an id, is skipped: compare the RETURNING
 * rows with `contacts`); their data is all new, so every field deletion so far counts as applied.
 */
export function insertContactsSql(table: string, project: string, param: SqlParam, contacts: Contact[]): string {
  const rows = contacts.map((c) => ({ id: c.id, email: c.email, subscribed: c.subscribed, data: c.data }));
  return `INSERT INTO ${table} (id, project_id, email, subscribed, data, deletions_applied)
    SELECT id, ${project}, email, subscribed, data, ${deletionsSeenSql(project)}
      FROM jsonb_to_recordset(${jsonParam(param, rows)}) AS x(id varchar, email varchar, subscribed boolean, data jsonb)
    ON CONFLICT DO NOTHING RETURNING 1`;
}

/** Subscription and data of existing contacts; with `versions` (id → `xmin` as read), only the rows not written since. */
export function updateContactsSql(
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

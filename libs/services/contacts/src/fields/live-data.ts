/**
 * How every read of a contact leaves out the keys of deleted fields that the deletion job has not
 * removed from its row yet (migration FieldDeletionTombstones):
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
export const deletionsSeenSql = (project: string): string => `"contacts"."deletions_seen"(${project})`;

/** `data.profile.tier` → `{profile,tier}` (a PostgreSQL text[] path). */
export const jsonPath = (field: string): string[] => field.replace(/^data\./, '').split('.');

/**
 * The condition "the contact has a live value at `field`" for counts over many rows (coverage,
 * distinct values): a value in a row below the field's latest tombstone (`deletedAt`, the seq of
 * the newest deletion of the field or of a parent path) is a stale one the job has not removed yet.
 * `pathParam` is the placeholder of the field's text[] path, `seqParam` that of the seq.
 */
export const liveValueSql = (pathParam: string, seqParam?: string): string =>
  `data #> ${pathParam}::text[] IS NOT NULL${seqParam ? ` AND deletions_applied >= ${seqParam}::bigint` : ''}`;

/** The seq of the newest tombstone that covers `field` (its own path or a parent's), if any. */
export function deletionCovering(field: string, tombstones: { path: string; seq: string }[]): string | undefined {
  let newest: bigint | undefined;
  for (const t of tombstones)
    if (field === t.path || field.startsWith(`${t.path}.`))
      if (newest === undefined || BigInt(t.seq) > newest) newest = BigInt(t.seq);
  return newest?.toString();
}

/**
 * A field being deleted, as counts over many rows see it (docs/contacts.md, "Deleting a field"):
 * every read of a contact selects its live data (`liveDataSql` in contacts/contacts.store.ts), and
 * a count of a field's values (coverage, distinct values) instead leaves out the rows not written
 * since the field's newest tombstone, whose value may be a stale one the job has not removed yet.
 */

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

import { cursorPage, decodeCursor, type CursorPage, type CursorQueryDto } from './cursor-pagination.js';
import type { DataSource } from 'typeorm';

/**
 * One newest-first keyset page over a table with `created_at` and `id`: `filters` are SQL
 * conditions with `$n` placeholders over `params`; the cursor adds `(created_at, id) < …`; `total`
 * is counted only for the first page, beside the page query: `count(*)` of the same filters on the
 * same table, unless the caller counts it its own way (`total`).
 */
export async function keysetPage(
  db: DataSource,
  q: CursorQueryDto,
  query: { table: string; columns: string; filters: string[]; params: unknown[]; total?: () => Promise<number> },
): Promise<CursorPage<Record<string, unknown>>> {
  const where = [...query.filters];
  const params = [...query.params];
  if (q.cursor) {
    const pos = decodeCursor(q.cursor, { timestamp: true });
    params.push(pos.k, pos.id);
    where.push(`(created_at, id) < ($${params.length - 1}::timestamptz, $${params.length})`);
  }
  params.push(q.limit + 1);
  // the page and (first page only) the total run side by side on two pooled connections
  const [rows, total] = await Promise.all([
    db.query(
      `SELECT ${query.columns}, created_at::text AS created_at_key FROM ${query.table}
        WHERE ${where.join(' AND ')} ORDER BY created_at DESC, id DESC LIMIT $${params.length}`,
      params,
    ) as Promise<Record<string, unknown>[]>,
    q.cursor
      ? Promise.resolve(0)
      : query.total
        ? query.total()
        : db
            .query(`SELECT count(*) AS n FROM ${query.table} WHERE ${query.filters.join(' AND ')}`, query.params)
            .then((r: { n: string }[]) => Number(r[0]!.n)),
  ]);
  return cursorPage(rows, q.limit, (r) => ({ k: r.created_at_key as string, id: r.id as string }), total);
}

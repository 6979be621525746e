import type { DataSource } from 'typeorm';

export interface TableSize {
  table: string;
  /** Live rows as PostgreSQL's statistics count them (`n_live_tup`: an estimate, kept current by every write). */
  rows: number;
  /** The table with its indexes and TOAST (`pg_total_relation_size`). */
  bytes: number;
}

/** The size of each table of a service's schema, from the statistics (no table is read). */
export class TableSizesStore {
  async ofSchema(db: DataSource, schema: string): Promise<TableSize[]> {
    const rows: { relname: string; rows: string; bytes: string }[] = await db.query(
      `SELECT relname, n_live_tup AS rows, pg_total_relation_size(relid) AS bytes
         FROM pg_stat_user_tables WHERE schemaname = $1 ORDER BY relname`,
      [schema],
    );
    return rows.map((r) => ({ table: r.relname, rows: Number(r.rows), bytes: Number(r.bytes) }));
  }
}

import { createLogger } from '@herald/core';
import { Gauge } from 'prom-client';
import type { DataSource } from 'typeorm';
import { TableSizesStore, type TableSize } from './table-sizes.store.js';

const log = createLogger('persistence.table-sizes');
const store = new TableSizesStore();

/** The schemas whose tables are measured at each scrape: every service's data source of this process. */
const measured = new Map<string, { db: DataSource; schema: string }>();

/** One read of every schema per scrape, shared by both gauges (they are collected one after the other). */
let reading: { at: number; sizes: Promise<{ service: string; sizes: TableSize[] }[]> } | undefined;

function sizes(): Promise<{ service: string; sizes: TableSize[] }[]> {
  if (!reading || Date.now() - reading.at > 1000) {
    reading = {
      at: Date.now(),
      sizes: Promise.all(
        [...measured].map(async ([service, { db, schema }]) => {
          if (!db.isInitialized) return { service, sizes: [] };
          try {
            return { service, sizes: await store.ofSchema(db, schema) };
          } catch (err) {
            log.warn('reading table sizes failed', { service, err: String(err) });
            return { service, sizes: [] };
          }
        }),
      ),
    };
  }
  return reading.sizes;
}

function gauge(name: string, help: string, value: (s: TableSize) => number): Gauge {
  return new Gauge({
    name,
    help,
    labelNames: ['service', 'table'],
    async collect() {
      this.reset();
      for (const { service, sizes: tables } of await sizes())
        for (const t of tables) this.set({ service, table: t.table }, value(t));
    },
  });
}

/** Each table's size per service, read from PostgreSQL's statistics at every scrape of /metrics. */
export const tableSizeMetrics = {
  rows: gauge(
    'herald_table_rows',
    'Live rows of each table of a service (estimate: pg_stat_user_tables.n_live_tup)',
    (t) => t.rows,
  ),
  bytes: gauge(
    'herald_table_bytes',
    'Size of each table of a service with its indexes and TOAST (pg_total_relation_size)',
    (t) => t.bytes,
  ),
};

/** Measures the tables of `schema` (the service's data source) at every scrape until `unmeasure`. */
export function measureTables(service: string, db: DataSource, schema: string): void {
  measured.set(service, { db, schema });
}

export function unmeasureTables(service: string): void {
  measured.delete(service);
}

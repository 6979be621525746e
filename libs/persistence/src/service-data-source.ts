import { advisoryLockKey } from '@herald/core';
import { DataSource, type DataSourceOptions, type MixedList, type EntitySchema } from 'typeorm';
import { WatchedClient } from './connection-watchdog.js';
import { QueryLogger } from './query-logger.js';

// eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
type EntityList = MixedList<Function | string | EntitySchema>;

export interface ServiceSchema {
  /** Service name; also its PostgreSQL schema. */
  service: string;
  entities: EntityList;
  // eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
  migrations: Function[];
}

/** TypeORM options of one service: its own schema, its own migrations table, never `synchronize`. */
export function serviceDataSourceOptions(schema: ServiceSchema, databaseUrl: string, poolSize = 10): DataSourceOptions {
  return {
    type: 'postgres',
    url: databaseUrl,
    schema: schema.service,
    entities: schema.entities,
    migrations: schema.migrations,
    migrationsTableName: 'migrations',
    migrationsTransactionMode: 'each',
    synchronize: false,
    logging: ['error', 'warn'],
    logger: new QueryLogger(),
    poolSize,
    applicationName: `herald-${schema.service}`,
    // the pool's connections are watched for queries that never get an answer (connection-watchdog.ts)
    extra: { Client: WatchedClient },
  } as DataSourceOptions;
}

export function createServiceDataSource(schema: ServiceSchema, databaseUrl: string, poolSize = 10): DataSource {
  return new DataSource(serviceDataSourceOptions(schema, databaseUrl, poolSize));
}

/**
 * Creates the service's schema when missing and applies its pending migrations, under an advisory
 * lock so that replicas (or a Job and a pod) never migrate the same schema at once.
 * Returns the names of the migrations applied.
 */
export async function migrateServiceSchema(dataSource: DataSource): Promise<string[]> {
  const schema = (dataSource.options as { schema?: string }).schema ?? 'public';
  const runner = dataSource.createQueryRunner();
  await runner.connect();
  try {
    await runner.query('SELECT pg_advisory_lock($1)', [advisoryLockKey(`herald-migrate:${schema}`)]);
    await runner.query(`CREATE SCHEMA IF NOT EXISTS "${schema}"`);
    const applied = await dataSource.runMigrations({ transaction: 'each' });
    return applied.map((m) => m.name);
  } finally {
    await runner
      .query('SELECT pg_advisory_unlock($1)', [advisoryLockKey(`herald-migrate:${schema}`)])
      .catch(() => undefined);
    await runner.release();
  }
}

/**
 * Names of the service's migrations not yet applied to its schema (all of them when the schema or
 * its migrations table does not exist yet), in order.
 */
export async function pendingMigrations(dataSource: DataSource): Promise<string[]> {
  const schema = (dataSource.options as { schema?: string }).schema ?? 'public';
  const known = dataSource.migrations.map((m) => m.name ?? m.constructor.name);
  const [{ table }] = (await dataSource.query('SELECT to_regclass($1)::text AS "table"', [
    `"${schema}"."migrations"`,
  ])) as {
    table: string | null;
  }[];
  if (!table) return known;
  const rows = (await dataSource.query(`SELECT name FROM "${schema}"."migrations"`)) as { name: string }[];
  const done = new Set(rows.map((r) => r.name));
  return known.filter((name) => !done.has(name));
}

/**
 * SQL that would be needed to make the database match the entities after migrations ran: empty
 * when entities and migrations agree (the drift check; also what the migration generator writes).
 */
export async function pendingSchemaChanges(dataSource: DataSource): Promise<{ up: string[]; down: string[] }> {
  const log = await dataSource.driver.createSchemaBuilder().log();
  return { up: log.upQueries.map((q) => q.query), down: log.downQueries.map((q) => q.query) };
}

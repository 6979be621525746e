import { randomUUID } from 'node:crypto';
import { ProjectDeleted, ProjectReset, type EventEnvelope } from '@herald/contracts';
import { configureLogging, type HeraldRuntime, type ServiceDefinition } from '@herald/core';
import { outboxToken, type Outbox } from '@herald/messaging';
import { createStandaloneApp } from '@herald/runtime';
import { allServices } from '@herald/service-catalog';
import { createTestDatabase, eventually, TEST_INTERNAL_SECRET, type TestDatabase } from '@herald/testing';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { getDataSourceToken } from '@nestjs/typeorm';
import pg from 'pg';
import type { DataSource } from 'typeorm';

/**
 * One way to forget a project: every service declares its project-owned tables in its
 * ServiceDefinition (`projectData`), and the runtime mounts one consumer of `project.reset` and
 * `project.deleted` per service from that declaration. The tables are discovered from PostgreSQL's
 * catalog after every service's migrations, so a new service or table with a `project_id` column is
 * covered by declaring it, and this spec fails until it is.
 */

interface Column {
  table_schema: string;
  table_name: string;
  column_name: string;
  data_type: string;
  character_maximum_length: number | null;
  is_nullable: 'YES' | 'NO';
  column_default: string | null;
  is_generated: string;
  is_identity: string;
}

const A = 'prj_forgetme00001';
const B = 'prj_keepme0000001';

describe('project data: declared per service, emptied on project.reset and project.deleted', () => {
  let db: TestDatabase;
  let app: NestFastifyApplication;
  let client: pg.Client;
  /** "schema.table" → its columns, for every table with a project_id column. */
  let projectTables: Map<string, Column[]>;
  let seq = 0;

  beforeAll(async () => {
    configureLogging(process.env.HERALD_TEST_LOG_LEVEL ?? 'silent');
    db = await createTestDatabase();
    const runtime: HeraldRuntime = {
      mode: 'standalone',
      databaseUrl: db.url,
      databasePoolSize: 2,
      internalJwtSecret: TEST_INTERNAL_SECRET,
      jobLeaseMs: 30_000,
    };
    app = await createStandaloneApp(runtime, allServices); // standalone mode: migrations applied at start
    await app.init();
    client = new pg.Client({ connectionString: db.url });
    await client.connect();
    const { rows } = await client.query<Column>(
      `SELECT c.table_schema, c.table_name, c.column_name, c.data_type, c.character_maximum_length, c.is_nullable,
              c.column_default, c.is_generated, c.is_identity
         FROM information_schema.columns c
         JOIN information_schema.tables t ON t.table_schema = c.table_schema AND t.table_name = c.table_name
        WHERE t.table_type = 'BASE TABLE' AND c.table_schema = ANY($1)
        ORDER BY c.table_schema, c.table_name, c.ordinal_position`,
      [allServices.map((s) => s.name)],
    );
    const byTable = new Map<string, Column[]>();
    for (const c of rows)
      byTable.set(`${c.table_schema}.${c.table_name}`, [
        ...(byTable.get(`${c.table_schema}.${c.table_name}`) ?? []),
        c,
      ]);
    projectTables = new Map([...byTable].filter(([, cols]) => cols.some((c) => c.column_name === 'project_id')));
  });

  afterAll(async () => {
    await client?.end();
    await app?.close();
    await db?.drop();
  });

  const dataSource = (service: string) => app.get<DataSource>(getDataSourceToken(service));
  /** "schema.table" of each entity, as the service's data source maps it. */
  // eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
  const tablesOf = (service: ServiceDefinition, entities: Function[] = []) =>
    entities.map((e) => {
      const meta = dataSource(service.name).getMetadata(e);
      return `${meta.schema ?? service.name}.${meta.tableName}`;
    });

  /** A value of the column's type, distinct per call where the type allows. */
  function valueFor(c: Column, projectId: string): unknown {
    if (c.column_name === 'project_id') return projectId;
    seq += 1;
    switch (c.data_type) {
      case 'character varying':
      case 'character':
      case 'text':
        return `v${seq}${randomUUID().replace(/-/g, '')}`.slice(0, c.character_maximum_length ?? 64);
      case 'jsonb':
      case 'json':
        return '{}';
      case 'boolean':
        return false;
      case 'smallint':
      case 'integer':
      case 'bigint':
      case 'numeric':
      case 'double precision':
      case 'real':
        return seq % 100;
      case 'timestamp with time zone':
      case 'timestamp without time zone':
      case 'date':
        return new Date();
      case 'bytea':
        return Buffer.from([seq % 256]);
      case 'uuid':
        return randomUUID();
      case 'ARRAY':
        return [];
      default:
        throw new Error(`no test value for ${c.table_schema}.${c.table_name}.${c.column_name} (${c.data_type})`);
    }
  }

  /** One row of `projectId` in every project table, each required column filled with a value of its type. */
  async function seed(projectId: string): Promise<void> {
    for (const [table, columns] of projectTables) {
      const filled = columns.filter(
        (c) =>
          c.column_name === 'project_id' ||
          (c.is_nullable === 'NO' &&
            c.column_default === null &&
            c.is_generated !== 'ALWAYS' &&
            c.is_identity !== 'YES'),
      );
      const [schema, name] = table.split('.');
      await client.query(
        `INSERT INTO "${schema}"."${name}" (${filled.map((c) => `"${c.column_name}"`).join(', ')})
         VALUES (${filled.map((_, i) => `$${i + 1}`).join(', ')})`,
        filled.map((c) => valueFor(c, projectId)),
      );
    }
  }

  async function rowsOf(projectId: string): Promise<Record<string, number>> {
    const counts: Record<string, number> = {};
    for (const table of projectTables.keys()) {
      const [schema, name] = table.split('.');
      const { rows } = await client.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM "${schema}"."${name}" WHERE project_id = $1`,
        [projectId],
      );
      counts[table] = rows[0]!.n;
    }
    return counts;
  }

  /** Publishes the gateway's event through its outbox and waits until every service's consumer applied it (its inbox row). */
  async function publishAndAwait(event: EventEnvelope): Promise<void> {
    const gateway = dataSource('gateway');
    await gateway.transaction((m) => app.get<Outbox>(outboxToken('gateway')).add(m, event));
    await eventually(
      async () => {
        for (const s of allServices) {
          const { rows } = await client.query(`SELECT 1 FROM "${s.name}".inbox WHERE event_id = $1`, [event.eventId]);
          if (rows.length === 0) return false;
        }
        return true;
      },
      { timeoutMs: 30_000, intervalMs: 50, message: `not every service applied ${event.type}` },
    );
  }

  it('finds project tables in the catalog (so the checks below are not vacuous)', () => {
    expect(projectTables.size).toBeGreaterThanOrEqual(10);
    expect([...projectTables.keys()]).toEqual(
      expect.arrayContaining(['contacts.contacts', 'sending.emails', 'domains.domains']),
    );
  });

  it.each(allServices.map((s) => [s.name, s] as const))(
    'the %s service declares every table of its schema that has a project_id column',
    (name, service) => {
      const inSchema = [...projectTables.keys()].filter((t) => t.startsWith(`${name}.`)).sort();
      const declared = tablesOf(service, [...service.projectData.tables, ...(service.projectData.keptOnReset ?? [])]);
      expect(declared.sort()).toEqual(inSchema);
    },
  );

  it("project.reset empties the project's rows in every table but those kept on reset, and project.deleted empties the rest; other projects keep theirs", async () => {
    await seed(A);
    await seed(B);
    const other = await rowsOf(B);
    const seeded = await rowsOf(A);
    for (const table of projectTables.keys()) expect([table, seeded[table]]).toEqual([table, expect.any(Number)]);
    expect(Object.values(seeded).every((n) => n > 0)).toBe(true);

    await publishAndAwait(ProjectReset.create({ projectId: A, source: 'gateway', payload: { requestedBy: 'usr_t' } }));
    const kept = new Set(allServices.flatMap((s) => tablesOf(s, s.projectData.keptOnReset)));
    const afterReset = await rowsOf(A);
    expect(Object.fromEntries(Object.entries(afterReset).filter(([t]) => !kept.has(t)))).toEqual(
      Object.fromEntries([...projectTables.keys()].filter((t) => !kept.has(t)).map((t) => [t, 0])),
    );
    for (const t of kept) expect([t, afterReset[t]]).toEqual([t, seeded[t]]);

    await publishAndAwait(
      ProjectDeleted.create({ projectId: A, source: 'gateway', payload: { requestedBy: 'usr_t' } }),
    );
    expect(await rowsOf(A)).toEqual(Object.fromEntries([...projectTables.keys()].map((t) => [t, 0])));
    expect(await rowsOf(B)).toEqual(other);
  });
});

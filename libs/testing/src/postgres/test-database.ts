import { randomBytes } from 'node:crypto';
import pg from 'pg';

/** The PostgreSQL server tests use: DATABASE_URL when set, else the embedded one from global setup. */
export function testServerUrl(): string {
  const url = process.env.HERALD_TEST_DATABASE_URL ?? process.env.DATABASE_URL;
  if (!url)
    throw new Error(
      'no PostgreSQL for tests: set DATABASE_URL or run through jest (global setup starts an embedded one)',
    );
  return url;
}

export interface TestDatabase {
  url: string;
  name: string;
  drop(): Promise<void>;
}

/**
 * A fresh, empty database for one test file, so files run in parallel without sharing state; with
 * `template`, a copy of that database instead (PostgreSQL's CREATE DATABASE … TEMPLATE: the template
 * must have no open connection).
 */
export async function createTestDatabase(
  prefix = 'herald_test',
  options: { template?: string } = {},
): Promise<TestDatabase> {
  const server = testServerUrl();
  const name = `${prefix}_${randomBytes(6).toString('hex')}`;
  if (options.template !== undefined && !/^[a-z0-9_]+$/.test(options.template))
    throw new Error(`not a test database name: ${options.template}`);
  const admin = new pg.Client({ connectionString: server });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}${options.template ? ` TEMPLATE ${options.template}` : ''}`);
  } finally {
    await admin.end();
  }
  const url = new URL(server);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    name,
    async drop() {
      const c = new pg.Client({ connectionString: server });
      await c.connect();
      try {
        await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } finally {
        await c.end();
      }
    },
  };
}

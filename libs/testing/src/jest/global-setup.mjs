// Once per Jest run: a PostgreSQL server for the test files — DATABASE_URL when its server allows
// the connections the suite needs, else an embedded one in a temp dir. Each test file then creates
// its own database on it.
// Why a connection floor: the distributed project runs a shared topology and, beside it, up to two
// topologies of their own (eight service processes each, every one with its pool, outbox relay,
// LISTEN and job connections), while the standalone project's processes run too: well over the
// default max_connections of 100 at peak, and "sorry, too many clients already" fails whole files.
// Plain JS loading the built launcher (dist/, made by `npm test` before Jest), because Jest's global
// setup runs outside its module mapper. Idempotent: both projects' global setups call it.
import { chmod, mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';

/** The connections a whole run may hold at once, and what the embedded server allows. */
const NEEDED_CONNECTIONS = 300;
const EMBEDDED_MAX_CONNECTIONS = 400;

async function maxConnections(url) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return Number((await client.query('SHOW max_connections')).rows[0].max_connections);
  } finally {
    await client.end();
  }
}

export default async function globalSetup() {
  globalThis.__heraldTestTeardown ??= [];
  if (process.env.HERALD_TEST_DATABASE_URL) return;
  if (process.env.DATABASE_URL) {
    const allowed = await maxConnections(process.env.DATABASE_URL);
    if (allowed >= NEEDED_CONNECTIONS) return;
    process.stdout.write(
      `\nherald: DATABASE_URL's server allows ${allowed} connections and a whole run may hold ${NEEDED_CONNECTIONS}: ` +
        `the tests use an embedded PostgreSQL (max_connections ${EMBEDDED_MAX_CONNECTIONS}) instead\n`,
    );
  }
  const { startEmbeddedPostgres } = await import(
    path.resolve(process.env.HERALD_DIST ?? 'dist', 'libs/persistence/src/embedded/index.js')
  );
  const dir = await mkdtemp(path.join(os.tmpdir(), 'herald-test-pg-'));
  await chmod(dir, 0o755);
  const server = await startEmbeddedPostgres({
    dataDir: path.join(dir, 'data'),
    database: 'postgres',
    maxConnections: EMBEDDED_MAX_CONNECTIONS,
  });
  process.env.HERALD_TEST_DATABASE_URL = server.url;
  globalThis.__heraldTestTeardown.push(() => server.stop());
}

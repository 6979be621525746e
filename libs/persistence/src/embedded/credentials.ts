// The credentials of an embedded cluster: `herald-credentials.json` in the data dir (mode 0600,
// owned by the Node user, so when Node runs as root not even the `postgres` OS user, and hence no
// SQL superuser via pg_read_file, can read it) with the generated password, the port used last time
// and the pid of the Node process that owns the running server; initdb's password file; and the
// password reset when the credentials file is lost.
import { spawn } from 'node:child_process';
import { chmod, chown, mkdtemp, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { assertTraversable, type Ids } from './data-dir.js';

export const CREDENTIALS_FILE = 'herald-credentials.json';
export const SUPERUSER = 'postgres';

export interface StoredState {
  user: string;
  password: string;
  port?: number;
  /** pid of the Node process that started the server currently/last running on this data dir */
  ownerPid?: number;
}

/** The credentials file's content, or undefined when it is not one (missing user or password). */
export function parseStoredState(json: string): StoredState | undefined {
  try {
    const parsed = JSON.parse(json) as Partial<StoredState> | null;
    if (typeof parsed?.user !== 'string' || typeof parsed.password !== 'string') return undefined;
    return parsed as StoredState;
  } catch {
    return undefined;
  }
}

export async function readState(dataDir: string): Promise<StoredState | undefined> {
  try {
    return parseStoredState(await readFile(path.join(dataDir, CREDENTIALS_FILE), 'utf8'));
  } catch {
    return undefined;
  }
}

/** Atomic (write + rename), 0600. */
export async function writeState(dataDir: string, state: StoredState): Promise<void> {
  const file = path.join(dataDir, CREDENTIALS_FILE);
  const tmp = `${file}.${process.pid}.tmp`;
  await writeFile(tmp, `${JSON.stringify(state, null, 2)}\n`, { mode: 0o600 });
  await chmod(tmp, 0o600);
  await rename(tmp, file);
}

/** initdb's --pwfile: private temp dir and file, owned by the server user (who must read it). */
export async function withPwfile<T>(
  password: string,
  ids: Ids | undefined,
  fn: (file: string) => Promise<T>,
): Promise<T> {
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

/** Single-user mode needs no authentication; it only runs while no postmaster uses the data dir. */
export async function resetPassword(
  postgresBin: string,
  dataDir: string,
  ids: Ids | undefined,
  password: string,
  logChunk: (chunk: string) => void,
): Promise<void> {
  const args = ['--single', '-D', dataDir, '-c', 'listen_addresses=', '-c', 'unix_socket_directories=', 'postgres'];
  const child = spawn(postgresBin, args, {
    ...ids,
    env: { ...process.env, LC_MESSAGES: 'C' },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
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

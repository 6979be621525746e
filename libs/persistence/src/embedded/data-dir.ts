// The data directory (PGDATA) and who owns it: PostgreSQL refuses to run as root, so as root it runs
// as the `postgres` system user (created if missing), which must own the directory and be able to
// reach it.
import { execFile } from 'node:child_process';
import { chmod, chown, lchown, mkdir, readdir, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { CREDENTIALS_FILE, SUPERUSER } from './credentials.js';

export interface Ids {
  uid: number;
  gid: number;
}

const execFileAsync = promisify(execFile);

export async function ensurePostgresUser(log: (line: string) => void): Promise<Ids> {
  const lookup = async (): Promise<Ids | undefined> => {
    try {
      const [uid, gid] = await Promise.all([
        execFileAsync('id', ['-u', SUPERUSER]),
        execFileAsync('id', ['-g', SUPERUSER]),
      ]);
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
  await execFileAsync('useradd', [
    '--system',
    '--gid',
    SUPERUSER,
    '--no-create-home',
    '--shell',
    '/usr/sbin/nologin',
    SUPERUSER,
  ]);
  const created = await lookup();
  if (!created) throw new Error('could not create the "postgres" system user');
  return created;
}

/** Whether a directory with this owner and mode lets the server user search it. */
export function canTraverse(st: { uid: number; gid: number; mode: number }, ids: Ids): boolean {
  const bit = st.uid === ids.uid ? 0o100 : st.gid === ids.gid ? 0o010 : 0o001;
  return (st.mode & bit) !== 0;
}

/**
 * Creates the data dir (0700; parents we create get 0755 so the server user can traverse them even
 * under a restrictive umask) and, as root, hands it to the server user: the top directory always,
 * the contents only if they are owned by someone else (e.g. a restored backup), keeping our
 * credentials file root-owned.
 */
export async function prepareDataDir(
  dataDir: string,
  ids: Ids | undefined,
  log: (line: string) => void,
): Promise<void> {
  const firstCreated = await mkdir(dataDir, { recursive: true, mode: 0o700 });
  if (firstCreated) {
    for (
      let dir = path.dirname(dataDir);
      dir.length >= firstCreated.length && dir !== path.dirname(dir);
      dir = path.dirname(dir)
    ) {
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
export async function assertTraversable(dir: string, ids: Ids, what: string): Promise<void> {
  for (let current = path.resolve(dir); ; current = path.dirname(current)) {
    const st = await stat(current);
    if (!canTraverse(st, ids)) {
      throw new Error(
        `embedded PostgreSQL runs as the "postgres" user (uid ${ids.uid}), which cannot traverse ${current} ` +
          `(mode ${(st.mode & 0o777).toString(8)}) to reach ${what}; put the data under a directory it can reach ` +
          `(e.g. /var/lib/herald) or allow traversal (chmod o+x ${current})`,
      );
    }
    if (path.dirname(current) === current) return;
  }
}

export async function assertEmptyForInitdb(dataDir: string): Promise<void> {
  const entries = (await readdir(dataDir)).filter(
    (e) => e !== CREDENTIALS_FILE && !e.startsWith(`${CREDENTIALS_FILE}.`),
  );
  if (entries.length > 0) {
    throw new Error(
      `embedded PostgreSQL: ${dataDir} has no PG_VERSION but is not empty (${entries.slice(0, 5).join(', ')}); ` +
        'refusing to initialise a cluster there. Point the data dir at an empty or new directory (or remove a half-initialised one).',
    );
  }
  // Leftover credentials of a cluster that is gone are meaningless now.
  for (const e of await readdir(dataDir)) await rm(path.join(dataDir, e), { force: true });
}

export async function nearestExisting(dir: string): Promise<string> {
  while (!(await exists(dir)) && path.dirname(dir) !== dir) dir = path.dirname(dir);
  return dir;
}

export async function exists(file: string): Promise<boolean> {
  return stat(file).then(
    () => true,
    () => false,
  );
}

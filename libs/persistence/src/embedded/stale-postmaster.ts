// A postmaster.pid left in the data directory by a server that is gone, or by one whose Node parent
// is gone (an orphan): removed, or the orphan shut down, before a start.
import { readFileSync } from 'node:fs';
import { readFile, readlink, realpath, rm } from 'node:fs/promises';
import path from 'node:path';
import { readState } from './credentials.js';
import { STOP_GRACE_MS } from './package-adapter.js';

/** The pid on the first line of postmaster.pid, or undefined when there is none. */
export function postmasterPidOf(content: string): number | undefined {
  const pid = Number.parseInt(content.split('\n')[0] ?? '', 10);
  return Number.isInteger(pid) && pid > 0 ? pid : undefined;
}

/** The state letter and parent pid of a /proc/<pid>/stat line ("pid (comm) state ppid ..."; comm may contain spaces and parentheses). */
export function parseProcStat(statLine: string): { state: string; ppid: number } | undefined {
  const close = statLine.lastIndexOf(')');
  if (close < 0) return undefined;
  const [state, ppid] = statLine.slice(close + 2).split(' ');
  const parent = Number.parseInt(ppid ?? '', 10);
  return state && Number.isInteger(parent) ? { state, ppid: parent } : undefined;
}

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
export async function clearStalePidFile(dataDir: string, log: (line: string) => void): Promise<void> {
  const pidFile = path.join(dataDir, 'postmaster.pid');
  let content: string;
  try {
    content = await readFile(pidFile, 'utf8');
  } catch {
    return;
  }
  const pid = postmasterPidOf(content);
  if (pid === undefined || !isAlive(pid)) {
    log(`herald: removing stale postmaster.pid (pid ${pid ?? '?'} is not running)`);
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
  return parseProcStat(readProcStatSync(pid))?.state !== 'Z';
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
    return { exe: cmdline.split('\0')[0] ?? '', cwd, ppid: parseProcStat(statLine)?.ppid ?? Number.NaN };
  } catch {
    return undefined; // not ours to inspect (EACCES) or gone
  }
}

async function terminate(pid: number): Promise<void> {
  const waitGone = async (ms: number): Promise<boolean> => {
    for (const end = Date.now() + ms; Date.now() < end;) {
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

// Runs a real PostgreSQL (embedded-postgres binaries). As root it runs as the `postgres` user, so
// the data dirs live directly in os.tmpdir() (world-traversable).
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { startEmbeddedPostgres, type EmbeddedPostgresHandle } from './embedded-postgres.js';

const isRoot = process.getuid?.() === 0;

async function query<R extends pg.QueryResultRow>(url: string, sql: string, params: unknown[] = []): Promise<R[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<R>(sql, params)).rows;
  } finally {
    await client.end();
  }
}

function postmasterPid(dataDir: string): Promise<number | undefined> {
  return readFile(path.join(dataDir, 'postmaster.pid'), 'utf8').then(
    (s) => Number.parseInt(s.split('\n')[0] ?? '', 10),
    () => undefined,
  );
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  // Orphans are reparented to init, which may never reap them (zombie = exited).
  try {
    return !(process.platform === 'linux' && /^\d+ \(.*\) Z /s.test(readFileSync(`/proc/${pid}/stat`, 'utf8')));
  } catch {
    return false;
  }
}

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

async function waitFor(check: () => boolean | Promise<boolean>, ms = 15_000): Promise<void> {
  for (const end = Date.now() + ms; Date.now() < end;) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('timed out');
}

describe('startEmbeddedPostgres', () => {
  const dirs: string[] = [];
  let handle: EmbeddedPostgresHandle | undefined;
  let dataDir: string;
  const logs: string[] = [];
  const log = (line: string): void => void logs.push(line);

  const newDataDir = async (): Promise<string> => {
    const dir = await mkdtemp(path.join(tmpdir(), 'herald-embedded-pg-'));
    dirs.push(dir);
    return dir;
  };

  beforeAll(async () => {
    dataDir = await newDataDir();
  });

  afterEach(async () => {
    await handle?.stop();
    handle = undefined;
  });

  afterAll(async () => {
    for (const dir of dirs) await rm(dir, { recursive: true, force: true });
  });

  it('initialises a cluster, creates the database and stores credentials privately', async () => {
    handle = await startEmbeddedPostgres({ dataDir, log });

    expect(handle.url).toMatch(/^postgresql:\/\/postgres:[^@]+@127\.0\.0\.1:\d+\/herald$/);
    expect(handle.dataDir).toBe(dataDir);
    expect(existsSync(path.join(dataDir, 'PG_VERSION'))).toBe(true);
    const credentials = await stat(path.join(dataDir, 'herald-credentials.json'));
    expect(credentials.mode & 0o777).toBe(0o600);
    if (isRoot) expect((await stat(dataDir)).uid).not.toBe(0);

    const [settings] = await query<{ db: string; enc: string; listen: string; maxc: string; fsync: string }>(
      handle.url,
      `SELECT current_database() AS db, pg_encoding_to_char(encoding) AS enc,
              current_setting('listen_addresses') AS listen, current_setting('max_connections') AS maxc,
              current_setting('fsync') AS fsync
         FROM pg_database WHERE datname = current_database()`,
    );
    expect(settings).toEqual({ db: 'herald', enc: 'UTF8', listen: '127.0.0.1', maxc: '200', fsync: 'on' });

    await query(handle.url, 'CREATE TABLE notes (id int PRIMARY KEY, body text NOT NULL)');
    await query(handle.url, 'INSERT INTO notes VALUES (1, $1)', ['héllo']);

    // Wrong password is rejected (password auth, not trust).
    const wrong = handle.url.replace(/:[^:@]+@/, ':nope@');
    await expect(query(wrong, 'SELECT 1')).rejects.toThrow(/password authentication failed/);
  });

  it('restarts on the same data dir, on the recorded port, with the same data', async () => {
    const recorded = JSON.parse(await readFile(path.join(dataDir, 'herald-credentials.json'), 'utf8')) as {
      port: number;
    };
    logs.length = 0;
    handle = await startEmbeddedPostgres({ dataDir, log });

    expect(handle.port).toBe(recorded.port);
    expect(logs.some((l) => l.includes('initialised a new PostgreSQL cluster'))).toBe(false);
    expect(await query(handle.url, 'SELECT body FROM notes WHERE id = 1')).toEqual([{ body: 'héllo' }]);
  });

  it('stop() is idempotent and actually stops the server', async () => {
    handle = await startEmbeddedPostgres({ dataDir, log });
    const pid = await postmasterPid(dataDir);
    expect(pid && alive(pid)).toBe(true);
    await Promise.all([handle.stop(), handle.stop()]);
    await handle.stop();
    expect(alive(pid!)).toBe(false);
    expect(existsSync(path.join(dataDir, 'postmaster.pid'))).toBe(false);
  });

  it('ignores a stale postmaster.pid whose process is gone', async () => {
    const dead = spawnSync('true').pid; // exited and reaped
    await writeFile(
      path.join(dataDir, 'postmaster.pid'),
      `${dead}\n${dataDir}\n1700000000\n5432\n\n127.0.0.1\n  0  0\nready   \n`,
    );
    logs.length = 0;
    handle = await startEmbeddedPostgres({ dataDir, log });
    expect(logs.some((l) => l.includes('stale postmaster.pid'))).toBe(true);
    expect(await query(handle.url, 'SELECT body FROM notes')).toEqual([{ body: 'héllo' }]);
  });

  it('ignores a postmaster.pid whose pid was reused by an unrelated process', async () => {
    await writeFile(
      path.join(dataDir, 'postmaster.pid'),
      `${process.pid}\n${dataDir}\n1700000000\n5432\n\n127.0.0.1\n  0  0\nready   \n`,
    );
    handle = await startEmbeddedPostgres({ dataDir, log });
    expect(await query(handle.url, 'SELECT count(*)::int AS n FROM notes')).toEqual([{ n: 1 }]);
  });

  (process.platform === 'linux' ? it : it.skip)(
    'shuts down an orphaned server left by a SIGKILLed parent',
    async () => {
      const { postgres } = (await import(`@embedded-postgres/${process.platform}-${process.arch}`)) as {
        postgres: string;
      };
      const ids = isRoot ? { uid: (await stat(dataDir)).uid, gid: (await stat(dataDir)).gid } : {};
      // `sh -c '... &'` exits at once, so the postmaster is reparented: exactly what a SIGKILLed Node leaves behind.
      const sh = spawn(
        '/bin/sh',
        [
          '-c',
          `"$0" -D "$1" -c listen_addresses=127.0.0.1 -c unix_socket_directories= -p "$2" >/dev/null 2>&1 &`,
          postgres,
          dataDir,
          String(await freePort()),
        ],
        {
          ...ids,
          stdio: 'ignore',
        },
      );
      await new Promise((r) => sh.on('exit', r));
      let orphan: number | undefined;
      await waitFor(async () => (orphan = await postmasterPid(dataDir)) !== undefined && alive(orphan));

      logs.length = 0;
      handle = await startEmbeddedPostgres({ dataDir, log });
      expect(logs.some((l) => l.includes('orphaned PostgreSQL'))).toBe(true);
      expect(alive(orphan!)).toBe(false);
      expect(await postmasterPid(dataDir)).not.toBe(orphan);
      expect(await query(handle.url, 'SELECT body FROM notes')).toEqual([{ body: 'héllo' }]);
    },
  );

  it('regenerates the password when the credentials file is lost', async () => {
    await rm(path.join(dataDir, 'herald-credentials.json'));
    handle = await startEmbeddedPostgres({ dataDir, log });
    expect(await query(handle.url, 'SELECT body FROM notes')).toEqual([{ body: 'héllo' }]);
  });

  it('refuses to initdb into a non-empty directory that is not a cluster', async () => {
    const dir = await newDataDir();
    await writeFile(path.join(dir, 'something.txt'), 'x');
    await expect(startEmbeddedPostgres({ dataDir: dir, log })).rejects.toThrow(/has no PG_VERSION but is not empty/);
  });

  describe('in a separate Node process (exit hooks)', () => {
    let script: string;

    beforeAll(async () => {
      // Compile the module (and the ones it imports) with SWC into a temp dir that resolves the repo's node_modules.
      const { transformFile } = await import('@swc/core');
      const dir = await newDataDir();
      const here = fileURLToPath(new URL('.', import.meta.url));
      for (const name of (await readdir(here))
        .filter((f) => f.endsWith('.ts') && !f.endsWith('.spec.ts'))
        .map((f) => f.slice(0, -3))) {
        const source = path.join(here, `${name}.ts`);
        const { code } = await transformFile(source, {
          swcrc: false,
          jsc: { parser: { syntax: 'typescript' }, target: 'es2022' },
          module: { type: 'es6' },
        });
        await writeFile(path.join(dir, `${name}.js`), code);
      }
      await writeFile(path.join(dir, 'package.json'), '{"type":"module"}');
      await symlink(path.resolve('node_modules'), path.join(dir, 'node_modules'));
      script = path.join(dir, 'child.js');
      await writeFile(
        script,
        `import { readFileSync } from 'node:fs';
import { startEmbeddedPostgres } from './embedded-postgres.js';
const [dataDir, mode] = process.argv.slice(2);
const handle = await startEmbeddedPostgres({ dataDir });
// Like an app that also stops the database on SIGTERM: must not clash with the package's exit hook.
process.on('SIGTERM', () => void handle.stop());
// the postmaster's pid, read while it surely runs (in 'exit' mode the exit hook removes the file at once)
const postmaster = Number(readFileSync(dataDir + '/postmaster.pid', 'utf8').split('\\n')[0]);
console.log(JSON.stringify({ port: handle.port, postmaster }));
if (mode === 'exit') process.exit(0);
`,
      );
    });

    async function runChild(
      mode: 'sigterm' | 'exit',
    ): Promise<{ code: number | null; stderr: string; postmaster: number }> {
      const dir = await newDataDir();
      const child = spawn(process.execPath, [script, dir, mode], { stdio: ['ignore', 'pipe', 'pipe'] });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
      child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
      const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
      await waitFor(() => /"port".*\n/.test(stdout) || child.exitCode !== null, 60_000);
      const line = stdout.split('\n').find((l) => l.includes('"port"'));
      const postmaster = (JSON.parse(line ?? '{}') as { postmaster?: number }).postmaster ?? 0;
      expect(postmaster).toBeGreaterThan(0);
      if (mode === 'sigterm') child.kill('SIGTERM');
      const code = await exited;
      await waitFor(() => !alive(postmaster));
      await waitFor(() => !existsSync(path.join(dir, 'postmaster.pid'))); // clean shutdown removes it
      return { code, stderr, postmaster };
    }

    it('stops PostgreSQL when the process gets SIGTERM', async () => {
      const { code, stderr } = await runChild('sigterm');
      expect(stderr).toBe('');
      expect(code).toBe(143); // async-exit-hook exits with 128 + signal
    });

    it('stops PostgreSQL when the process calls process.exit()', async () => {
      const { code, stderr } = await runChild('exit');
      expect(stderr).toBe('');
      expect(code).toBe(0);
    });
  });
});

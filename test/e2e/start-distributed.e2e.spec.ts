import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { SERVICES } from '@herald/core';
import { accountWithProject, bearer, eventually, freePort, freePortBlock, testReport } from '@herald/testing';

const LAUNCHER = path.join(process.cwd(), process.env.HERALD_DIST ?? 'dist', 'scripts', 'start-distributed.js');

/** A base port with the next SERVICES.length ports free (the launcher puts service i on base + i). */
const freeBasePort = () => freePortBlock(SERVICES[SERVICES.length - 1]!.defaultPort - SERVICES[0].defaultPort + 1);

/** The live (not zombie) processes whose parent is `pid` (Linux /proc). */
function childrenOf(pid: number): number[] {
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .filter((name) => {
      try {
        const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
        const [state, ppid] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
        return Number(ppid) === pid && state !== 'Z';
      } catch {
        return false; // gone meanwhile
      }
    })
    .map(Number);
}

function alive(pid: number): boolean {
  try {
    return !readFileSync(`/proc/${pid}/stat`, 'utf8').includes(') Z ');
  } catch {
    return false;
  }
}

/**
 * `npm run start:distributed` on a fresh machine: no DATABASE_URL and no KAFKA_BROKERS, so the
 * launcher starts the embedded PostgreSQL and the mock broker, migrates, runs each service as its
 * own process, and serves the API through the gateway; SIGINT stops every process it started.
 */
describe('npm run start:distributed', () => {
  let dataDir: string;
  let launcher: ChildProcess | undefined;
  let output = '';

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'herald-distributed-'));
    await chmod(dataDir, 0o755);
  });
  afterAll(async () => {
    if (launcher && launcher.exitCode === null) {
      launcher.kill('SIGKILL');
      for (const pid of childrenOf(launcher.pid!)) process.kill(pid, 'SIGKILL');
    }
    await rm(dataDir, { recursive: true, force: true });
  });

  it('serves signup, projects and tracking through the gateway, and stops every process on SIGINT', async () => {
    expect(existsSync(LAUNCHER)).toBe(true);
    const basePort = await freeBasePort();
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      HERALD_DATA_DIR: dataDir,
      HERALD_BASE_PORT: String(basePort),
      KAFKA_MOCK_PORT: String(await freePort()),
    };
    delete env.DATABASE_URL;
    delete env.KAFKA_BROKERS;
    delete env.NODE_OPTIONS; // Jest's flags are not the services'
    launcher = spawn(process.execPath, [LAUNCHER], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    const keep = (d: Buffer) => (output = (output + d.toString()).slice(-30_000));
    launcher.stdout!.on('data', keep);
    launcher.stderr!.on('data', keep);
    const gateway = `http://localhost:${basePort}`;

    await eventually(() => output.includes(`Herald (distributed) is listening on ${gateway}`), {
      timeoutMs: 150_000,
      intervalMs: 250,
      message: 'the launcher did not report the gateway',
    }).catch((err: Error) => {
      throw new Error(`${err.message}\n${output}`);
    });
    expect((await fetch(`${gateway}/health/ready`)).status).toBe(200);
    const services = childrenOf(launcher.pid!);
    // eight services, the broker, Redis (unless REDIS_URL) and the PostgreSQL postmaster
    expect(services.length).toBeGreaterThanOrEqual(SERVICES.length + 2);

    const { secretKey } = await accountWithProject(gateway);
    const track = await fetch(`${gateway}/v1/track`, {
      method: 'POST',
      headers: bearer(secretKey),
      body: JSON.stringify({ email: 'distributed@example.com', event: 'launched' }),
    });
    expect(track.status).toBe(200);

    // /metrics is not on the public port; each service serves it on its METRICS_PORT, which the launcher prints
    expect((await fetch(`${gateway}/metrics`)).status).toBe(404);
    const metricsUrl = /gateway +http:\/\/\S+ +ready .*; metrics (http:\/\/\S+)/.exec(output)?.[1];
    expect(metricsUrl).toBeDefined();
    expect(await (await fetch(metricsUrl!)).text()).toContain('herald_http_request_duration_seconds_count');

    const exited = new Promise<number | null>((resolve) => launcher!.once('exit', (code) => resolve(code)));
    launcher.kill('SIGINT');
    await eventually(async () => !services.some(alive), {
      timeoutMs: 40_000,
      intervalMs: 100,
      message: 'a process the launcher started is still running after SIGINT',
    }).catch((err: Error) => {
      throw new Error(`${err.message} (pids ${services.filter(alive).join(', ')})\n${output}`);
    });
    expect(await exited).toBe(0);
    testReport(
      output
        .split('\n')
        .filter((l) => l.includes('ready ') && l.includes('after spawn'))
        .join('\n'),
    );
  }, 240_000);
});

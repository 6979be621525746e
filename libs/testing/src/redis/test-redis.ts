import { spawn } from 'node:child_process';
import net from 'node:net';
import { reapOnExit } from '../processes/reap-on-exit.js';
import { freePort } from '../processes/service-process.js';

const answers = (host: string, port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = net.connect({ host, port }, () => socket.write('PING\r\n'));
    socket.setTimeout(1000, () => (socket.destroy(), resolve(false)));
    socket.once('data', (d) => (socket.destroy(), resolve(d.toString().startsWith('+PONG'))));
    socket.once('error', () => resolve(false));
  });

/**
 * A Redis for tests: REDIS_URL when set, else a `redis-server` of its own on a free loopback port
 * (each topology its own: the gateway's throttle counters of one file must not reach the next, and
 * both modes run the same file with the same addresses), else the machine's on 127.0.0.1:6379.
 */
export async function startRedis(): Promise<{ url: string; stop(): Promise<void> }> {
  if (process.env.REDIS_URL) return { url: process.env.REDIS_URL, stop: async () => undefined };
  const own = await startOwnRedis();
  if (own) return own;
  if (await answers('127.0.0.1', 6379)) return { url: 'redis://127.0.0.1:6379', stop: async () => undefined };
  throw new Error('no Redis: set REDIS_URL, install redis-server, or run one on 127.0.0.1:6379');
}

/** A private redis-server (no persistence), or undefined when the binary is missing or does not start. */
async function startOwnRedis(): Promise<{ url: string; stop(): Promise<void> } | undefined> {
  const port = await freePort();
  const child = reapOnExit(
    spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], {
      stdio: 'ignore',
    }),
  );
  let failed = false;
  child.on('error', () => (failed = true));
  const deadline = Date.now() + 30_000;
  while (!(await answers('127.0.0.1', port))) {
    if (failed || child.exitCode !== null || Date.now() > deadline) {
      child.kill('SIGKILL');
      return undefined;
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  return { url: `redis://127.0.0.1:${port}`, stop: async () => void child.kill('SIGTERM') };
}

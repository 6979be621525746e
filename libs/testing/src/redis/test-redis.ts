import { spawn } from 'node:child_process';
import net from 'node:net';
import { freePort } from '../processes/service-process.js';

const answers = (host: string, port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = net.connect({ host, port }, () => socket.write('PING\r\n'));
    socket.setTimeout(1000, () => (socket.destroy(), resolve(false)));
    socket.once('data', (d) => (socket.destroy(), resolve(d.toString().startsWith('+PONG'))));
    socket.once('error', () => resolve(false));
  });

/**
 * A Redis for tests: REDIS_URL when set, else the machine's on 127.0.0.1:6379, else a
 * `redis-server` started on a free loopback port (installed by scripts/ensure-system-deps.sh).
 */
export async function startRedis(): Promise<{ url: string; stop(): Promise<void> }> {
  if (process.env.REDIS_URL) return { url: process.env.REDIS_URL, stop: async () => undefined };
  if (await answers('127.0.0.1', 6379)) return { url: 'redis://127.0.0.1:6379', stop: async () => undefined };
  const port = await freePort();
  const child = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    { stdio: 'ignore' },
  );
  child.on('error', () => undefined);
  const deadline = Date.now() + 10_000;
  while (!(await answers('127.0.0.1', port))) {
    if (Date.now() > deadline || child.exitCode !== null)
      throw new Error('no Redis: set REDIS_URL or install redis-server (scripts/ensure-system-deps.sh)');
    await new Promise((r) => setTimeout(r, 50));
  }
  return { url: `redis://127.0.0.1:${port}`, stop: async () => void child.kill('SIGTERM') };
}

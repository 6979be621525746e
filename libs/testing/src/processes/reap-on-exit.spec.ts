import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { eventually } from '../wait.js';

/** The built module (scripts/test.sh builds before the suite), as a bench or a test worker loads it. */
const built = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../../../../dist/libs/testing/src/processes/reap-on-exit.js',
);

/** Runs a Node script that starts a long-lived child (reaped or not), prints its pid and exits with an error; answers the pid. */
async function orphanOf(reaped: boolean): Promise<number> {
  const script = `
    import { spawn } from 'node:child_process';
    import { reapOnExit } from ${JSON.stringify(built)};
    const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
    ${reaped ? 'reapOnExit(child);' : ''}
    console.log(child.pid); // written at once: stdout is a pipe
    throw new Error('the parent fails');
  `;
  const parent = spawn(process.execPath, ['--input-type=module', '-e', script], {
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  let out = '';
  parent.stdout.on('data', (d: Buffer) => (out += d.toString()));
  await new Promise((resolve) => parent.once('close', resolve));
  return Number(out.trim());
}

/** Running: the process exists and is not a zombie (a killed orphan stays one until init reaps it, which some containers' init never does). */
const alive = (pid: number) => {
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
};

describe('reapOnExit', () => {
  it('a child handed to reapOnExit dies with a parent that fails', async () => {
    const pid = await orphanOf(true);
    expect(pid).toBeGreaterThan(0);
    // a killed process stops running a moment after the signal
    await expect(eventually(() => !alive(pid), { timeoutMs: 10_000, intervalMs: 20 })).resolves.toBe(true);
  });

  it('without it the child outlives its parent (the orphan the rule prevents)', async () => {
    const pid = await orphanOf(false);
    try {
      expect(pid).toBeGreaterThan(0);
      expect(alive(pid)).toBe(true);
    } finally {
      process.kill(pid, 'SIGKILL');
    }
  });
});

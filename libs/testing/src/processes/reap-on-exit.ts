import type { ChildProcess } from 'node:child_process';

const running = new Set<ChildProcess>();
let hooked = false;

/**
 * Kills `child` when this process exits, if it is still running: a bench or script that ends early
 * (an uncaught error, `process.exit`, SIGINT through a handler that exits) leaves no Herald, Redis or
 * broker behind to load the machine the next run measures, or the next CI run. Inside a jest test
 * file `process` is the file's own emitter, which never emits 'exit': there the file's `afterAll`
 * stops what it started. A parent killed with SIGKILL runs no code, so that case still needs `pkill`.
 */
export function reapOnExit<T extends ChildProcess>(child: T): T {
  running.add(child);
  child.once('exit', () => running.delete(child));
  if (!hooked) {
    hooked = true;
    process.once('exit', () => {
      for (const c of running) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
    });
  }
  return child;
}

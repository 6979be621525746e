import { startedProcesses } from '../processes/service-process.js';

declare global {
  var __heraldTestFailed: boolean | undefined;
}

const LINES = 40;

/**
 * After a failed test, the last log lines of every service process the test file started (they
 * are captured, never printed while tests pass).
 */
afterEach(() => {
  if (!globalThis.__heraldTestFailed) return;
  for (const proc of startedProcesses()) {
    const tail = proc.output.trimEnd().split('\n').slice(-LINES).join('\n');
    if (tail) console.error(`last ${LINES} log lines of ${proc.app} (${proc.url}):\n${tail}`);
  }
});

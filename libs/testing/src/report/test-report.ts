import { appendFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';

/**
 * Where {@link testReport} keeps the run's figures (relative to the directory Jest runs in, the
 * repository's root): `scripts/test.sh` empties it before a run and prints it, under `::: figures`,
 * after Jest's summary, so a CI log keeps the figures without each test's output carrying them.
 */
export const TEST_FIGURES_FILE = 'test-results/figures.log';

/** Whether figure lines are printed as they come: HERALD_TEST_LOG_LEVEL set, or HERALD_TEST_FIGURES=1. */
function printsFigures(): boolean {
  return Boolean(process.env.HERALD_TEST_LOG_LEVEL) || process.env.HERALD_TEST_FIGURES === '1';
}

/**
 * Who measured: the test file (Jest's `expect.getState()`, relative to the repository) and its mode,
 * or the global setup (the run's shared topology).
 */
function caller(): string {
  const state = (globalThis as { expect?: { getState?: () => { testPath?: string } } }).expect?.getState?.();
  if (!state?.testPath) return 'jest global setup:';
  return `${path.relative(process.cwd(), state.testPath)} [${process.env.HERALD_E2E_MODE ?? 'standalone'}]`;
}

/**
 * A figure of a test run (a start time, a latency, how many emails a crash left in doubt), one or more
 * lines: always appended to {@link TEST_FIGURES_FILE}, each line with the file and mode that measured
 * it; printed only when HERALD_TEST_LOG_LEVEL is set or HERALD_TEST_FIGURES=1, so that passing tests
 * stay silent.
 */
export function testReport(line: string): void {
  const prefix = caller();
  const entry = line
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => `${prefix} ${l}\n`)
    .join('');
  if (!entry) return;
  try {
    mkdirSync(path.dirname(TEST_FIGURES_FILE), { recursive: true });
    appendFileSync(TEST_FIGURES_FILE, entry);
  } catch {
    // a figure is worth no failed test: an unwritable directory loses it
  }
  if (printsFigures()) process.stdout.write(entry);
}

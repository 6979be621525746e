// Jest runs Herald's TypeScript as native ES modules (NestJS 12 ships ESM only), transformed by SWC
// (no type-checking per file: `npm run typecheck` does that once for the whole tree).
import { readdirSync, readFileSync } from 'node:fs';

const swcrc = JSON.parse(readFileSync(new URL('./.swcrc', import.meta.url), 'utf8'));
const tsconfig = JSON.parse(readFileSync(new URL('./tsconfig.base.json', import.meta.url), 'utf8'));

const moduleNameMapper = { '^(\\.{1,2}/.*)\\.js$': '$1' };
for (const [alias, [target]] of Object.entries(tsconfig.compilerOptions.paths)) {
  moduleNameMapper[`^${alias}$`] = `<rootDir>/${target.replace(/^\.\//, '')}`;
}

const swcJest = {
  jsc: { ...swcrc.jsc, baseUrl: undefined, paths: undefined },
  module: { type: 'es6' },
  sourceMaps: 'inline',
  swcrc: false,
};

/**
 * The route-level e2e files that deploy Herald through `startTopology()` (libs/testing): they run in
 * both modes. Read at config time, so a new file joins the distributed pass without editing a list.
 * A file whose rules the mode cannot change pins `mode: 'standalone'` and runs once (the standalone
 * project); test/architecture/e2e-both-modes.spec.ts holds the list of those and why.
 */
const topologyFiles = readdirSync(new URL('./test/e2e/', import.meta.url))
  .filter((f) => f.endsWith('.e2e.spec.ts'))
  .map((f) => ({ f, source: readFileSync(new URL(`./test/e2e/${f}`, import.meta.url), 'utf8') }))
  .filter(({ source }) => /\bstartTopology\(/.test(source) && !/\bmode: 'standalone'/.test(source))
  .map(({ f }) => `<rootDir>/test/e2e/${f}`);

const project = {
  rootDir: '.',
  extensionsToTreatAsEsm: ['.ts'],
  transform: { '^.+\\.ts$': ['@swc/jest', swcJest] },
  moduleNameMapper,
  testPathIgnorePatterns: ['/node_modules/', '/dist/', '/dist-[^/]*/'],
  // quiet: no log line unless HERALD_TEST_LOG_LEVEL asks; a failed test shows its processes' last lines
  testEnvironment: '<rootDir>/libs/testing/src/jest/environment.mjs',
  setupFilesAfterEnv: ['<rootDir>/libs/testing/src/jest/after-env.ts'],
  globalTeardown: '<rootDir>/libs/testing/src/jest/global-teardown.mjs',
};

/**
 * Two projects: `standalone` runs every spec (the e2e files of `topologyFiles` against one process),
 * `distributed` runs `topologyFiles` again with HERALD_E2E_MODE=distributed, against every service as
 * its own process over Kafka — most files on one topology shared by the run (global setup). Both run
 * by default; HERALD_E2E_MODE=standalone|distributed (or `--selectProjects`) runs one.
 */
const projects = {
  standalone: {
    ...project,
    displayName: 'standalone',
    testMatch: ['<rootDir>/apps/**/*.spec.ts', '<rootDir>/libs/**/*.spec.ts', '<rootDir>/test/**/*.spec.ts'],
    setupFiles: ['<rootDir>/libs/testing/src/jest/quiet-logs.mjs'],
    globalSetup: '<rootDir>/libs/testing/src/jest/global-setup.mjs',
  },
  distributed: {
    ...project,
    displayName: 'distributed',
    testMatch: topologyFiles,
    setupFiles: [
      '<rootDir>/libs/testing/src/jest/quiet-logs.mjs',
      '<rootDir>/libs/testing/src/jest/distributed-mode.mjs',
    ],
    globalSetup: '<rootDir>/libs/testing/src/jest/distributed-global-setup.mjs',
  },
};

const only = process.env.HERALD_E2E_MODE;
if (only !== undefined && !(only in projects))
  throw new Error(`HERALD_E2E_MODE must be standalone or distributed, not "${only}"`);

/** @type {import('jest').Config} */
export default {
  projects: only ? [projects[only]] : Object.values(projects),
  testTimeout: 60_000,
  maxWorkers: process.env.JEST_MAX_WORKERS ?? 2,
};

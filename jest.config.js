// Jest runs Herald's TypeScript as native ES modules (NestJS 12 ships ESM only), transformed by SWC
// (no type-checking per file: `npm run typecheck` does that once for the whole tree).
import { readFileSync } from 'node:fs';

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

/** @type {import('jest').Config} */
export default {
  rootDir: '.',
  extensionsToTreatAsEsm: ['.ts'],
  transform: { '^.+\\.ts$': ['@swc/jest', swcJest] },
  moduleNameMapper,
  testMatch: ['<rootDir>/apps/**/*.spec.ts', '<rootDir>/libs/**/*.spec.ts', '<rootDir>/test/**/*.spec.ts'],
  testPathIgnorePatterns: ['/node_modules/', '/dist/', '/dist-[^/]*/'],
  // quiet: no log line unless HERALD_TEST_LOG_LEVEL asks; a failed test shows its processes' last lines
  testEnvironment: '<rootDir>/libs/testing/src/jest/environment.mjs',
  setupFiles: ['<rootDir>/libs/testing/src/jest/quiet-logs.mjs'],
  setupFilesAfterEnv: ['<rootDir>/libs/testing/src/jest/after-env.ts'],
  globalSetup: '<rootDir>/libs/testing/src/jest/global-setup.mjs',
  globalTeardown: '<rootDir>/libs/testing/src/jest/global-teardown.mjs',
  testTimeout: 60_000,
  maxWorkers: process.env.JEST_MAX_WORKERS ?? 2,
};

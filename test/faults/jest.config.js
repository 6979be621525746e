// `npm run faults` (test/faults/run.sh): the fault scenarios (`*.faults.ts`), one at a time, never in
// `npm test` (whose projects match `*.spec.ts` only). The same transform and harness as jest.config.js.
import { readFileSync } from 'node:fs';

const swcrc = JSON.parse(readFileSync(new URL('../../.swcrc', import.meta.url), 'utf8'));
const tsconfig = JSON.parse(readFileSync(new URL('../../tsconfig.base.json', import.meta.url), 'utf8'));

const moduleNameMapper = { '^(\\.{1,2}/.*)\\.js$': '$1' };
for (const [alias, [target]] of Object.entries(tsconfig.compilerOptions.paths)) {
  moduleNameMapper[`^${alias}$`] = `<rootDir>/${target.replace(/^\.\//, '')}`;
}

/** @type {import('jest').Config} */
export default {
  rootDir: '../..',
  displayName: 'faults',
  testMatch: ['<rootDir>/test/faults/**/*.faults.ts'],
  extensionsToTreatAsEsm: ['.ts'],
  transform: {
    '^.+\\.ts$': [
      '@swc/jest',
      {
        jsc: { ...swcrc.jsc, baseUrl: undefined, paths: undefined },
        module: { type: 'es6' },
        sourceMaps: 'inline',
        swcrc: false,
      },
    ],
  },
  moduleNameMapper,
  testEnvironment: '<rootDir>/libs/testing/src/jest/environment.mjs',
  setupFiles: ['<rootDir>/libs/testing/src/jest/quiet-logs.mjs'],
  setupFilesAfterEnv: ['<rootDir>/libs/testing/src/jest/after-env.ts'],
  globalSetup: '<rootDir>/libs/testing/src/jest/global-setup.mjs',
  globalTeardown: '<rootDir>/libs/testing/src/jest/global-teardown.mjs',
  testTimeout: 3_600_000,
  maxWorkers: 1,
};

// ESLint flat config for the Herald monorepo.
//
// - typescript-eslint "recommended" (syntax only) on every TypeScript file;
// - two type-aware rules (no-floating-promises, no-misused-promises) on the code that tsconfig.json
//   type-checks (apps, libs, scripts, bench, test) through the TypeScript project service;
// - @nx/enforce-module-boundaries, driven by the tags in each project.json.
//
// The boundary rule reads Nx's cached project graph (.nx/workspace-data) and silently skips every
// file when there is none, so this config (re)builds the graph before ESLint starts. That is local
// work only: no Nx daemon, no Nx Cloud, no network.
import js from '@eslint/js';
import { defineConfig } from 'eslint/config';
import nxPlugin from '@nx/eslint-plugin';
import prettier from 'eslint-config-prettier/flat';
import tseslint from 'typescript-eslint';

process.env.NX_DAEMON = 'false';
process.env.NX_NO_CLOUD = 'true';
process.env.NX_ISOLATE_PLUGINS = 'false'; // build the graph in this process: no plugin worker processes
const { createProjectGraphAsync } = await import('@nx/devkit');
const graph = await createProjectGraphAsync({ exitOnError: false });

/**
 * The per-service scopes, read from the projects' own tags (`scope:<service>` in each
 * project.json) rather than written here: a new service is covered by tagging its projects.
 * test/architecture/service-list.spec.ts holds these scopes to the one list of services
 * (SERVICES in libs/core/src/service-directory.ts).
 */
const services = [
  ...new Set(
    Object.values(graph.nodes)
      .flatMap((node) => node.data.tags ?? [])
      .filter((tag) => tag.startsWith('scope:') && tag !== 'scope:shared' && tag !== 'scope:standalone')
      .map((tag) => tag.slice('scope:'.length)),
  ),
].sort();

/**
 * Which projects may depend on which, by tag. Nx applies every constraint whose sourceTag the
 * importing project carries, so a dependency must satisfy both its type and its scope constraint.
 * Spec files may in addition use the test-support library (type:testing).
 */
function depConstraints({ allowTesting }) {
  const types = {
    'type:app': ['type:service', 'type:catalog', 'type:platform', 'type:contracts'],
    'type:service': ['type:platform', 'type:contracts'],
    'type:catalog': ['type:service', 'type:platform', 'type:contracts'],
    'type:platform': ['type:platform', 'type:contracts'],
    'type:contracts': ['type:contracts'],
    'type:testing': ['type:platform', 'type:contracts', 'type:testing'],
    // the published client (@herald/sdk): self-contained, it depends on no Herald library
    'type:sdk': [],
  };
  return [
    ...Object.entries(types).map(([sourceTag, allowed]) => ({
      sourceTag,
      onlyDependOnLibsWithTags:
        allowTesting && !allowed.includes('type:testing') ? [...allowed, 'type:testing'] : allowed,
    })),
    ...services.map((svc) => ({
      sourceTag: `scope:${svc}`,
      onlyDependOnLibsWithTags: [`scope:${svc}`, 'scope:shared'],
    })),
    { sourceTag: 'scope:shared', onlyDependOnLibsWithTags: ['scope:shared'] },
    { sourceTag: 'scope:standalone', onlyDependOnLibsWithTags: ['*'] },
  ];
}

const boundaries = (allowTesting) => [
  'error',
  {
    // Apps are never importable (built-in), nor are projects reachable by relative/absolute paths
    // across project roots (built-in: noRelativeOrAbsoluteImportsAcrossLibraries).
    allow: [],
    banTransitiveDependencies: false,
    enforceBuildableLibDependency: false,
    depConstraints: depConstraints({ allowTesting }),
  },
];

const nodeGlobals = Object.fromEntries(
  [
    'process',
    'console',
    'Buffer',
    'URL',
    'URLSearchParams',
    'globalThis',
    'setTimeout',
    'clearTimeout',
    'setInterval',
    'clearInterval',
    'setImmediate',
    'queueMicrotask',
    'structuredClone',
    'fetch',
    'AbortController',
  ].map((name) => [name, 'readonly']),
);

/** The files tsconfig.json type-checks; only these get type-aware rules. */
const typedFiles = ['apps/**/*.ts', 'libs/**/*.ts', 'scripts/**/*.ts', 'bench/**/*.ts', 'test/**/*.ts'];

export default defineConfig(
  {
    ignores: ['**/dist/', 'dist-*/', '**/node_modules/', 'tools/', '**/coverage/', '.herald/', '.nx/'],
  },
  js.configs.recommended,
  {
    files: ['**/*.js', '**/*.mjs', '**/*.cjs'],
    languageOptions: { ecmaVersion: 2023, sourceType: 'module', globals: nodeGlobals },
  },
  {
    files: ['**/*.ts'],
    extends: [tseslint.configs.recommended],
    rules: {
      // Unused code is already a compile error (noUnusedLocals/noUnusedParameters in tsconfig).
      '@typescript-eslint/no-unused-vars': 'off',
    },
  },
  {
    files: typedFiles,
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      // A switch over a union handles every member (or says `default` on purpose).
      '@typescript-eslint/switch-exhaustiveness-check': ['error', { considerDefaultExhaustiveForUnions: true }],
    },
  },
  {
    files: ['**/*.ts'],
    plugins: { '@nx': nxPlugin },
    rules: { '@nx/enforce-module-boundaries': boundaries(false) },
  },
  {
    files: ['**/*.spec.ts'],
    rules: { '@nx/enforce-module-boundaries': boundaries(true) },
  },
  {
    // The dashboard's TSX (apps/dashboard, ADR 0028): type-checked by its own tsconfig.json (DOM, Preact's JSX)
    files: ['apps/dashboard/**/*.tsx'],
    extends: [tseslint.configs.recommended],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-unused-vars': 'off',
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
    },
  },
  {
    // Code outside any Nx project (scripts, test, bench) is not covered by the boundary rule:
    // it must reach projects through their @herald/* aliases, never through relative paths.
    files: ['scripts/**/*.ts', 'test/**/*.ts', 'bench/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^\\.{1,2}/(?:.*/)?(?:apps|libs)/',
              message: 'Import Herald projects through their @herald/* alias, not a relative path.',
            },
          ],
        },
      ],
    },
  },
  prettier,
);

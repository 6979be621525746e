// Proves that eslint.config.js really enforces the project boundaries (the tags in each
// project.json): each case writes a short-lived probe file into a project, lints it with the real
// ESLint config through ESLint's Node API, and deletes it again.
import { randomUUID } from 'node:crypto';
import { rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';

const RULE = '@nx/enforce-module-boundaries';
const root = fileURLToPath(new URL('../../', import.meta.url));

let eslint: ESLint;

beforeAll(() => {
  eslint = new ESLint({
    cwd: root,
    // The real eslint.config.js, minus its type-aware rules: the boundary rule needs no type
    // information, and skipping the TypeScript program keeps this spec fast (the TS project
    // service would also leave a timer behind that delays Jest's exit).
    overrideConfig: {
      files: ['**/*.ts'],
      languageOptions: { parserOptions: { projectService: false } },
      rules: {
        '@typescript-eslint/no-floating-promises': 'off',
        '@typescript-eslint/no-misused-promises': 'off',
        '@typescript-eslint/switch-exhaustiveness-check': 'off',
      },
    },
  });
});

/** Lints `source` as a file in `dir` (relative to the repo root); returns the boundary-rule messages. */
async function lintProbe(dir: string, source: string): Promise<{ all: ESLint.LintResult; boundary: string[] }> {
  const file = path.join(root, dir, `__boundary_probe_${randomUUID().slice(0, 8)}__.ts`);
  await writeFile(file, source, { flag: 'wx' });
  try {
    const [result] = await eslint.lintFiles([file]);
    return {
      all: result,
      boundary: result.messages.filter((m) => m.ruleId === RULE && m.severity === 2).map((m) => m.message),
    };
  } finally {
    await rm(file, { force: true });
  }
}

describe(RULE, () => {
  it('rejects an app importing another app by a relative path across project roots', async () => {
    const { boundary } = await lintProbe('apps/contacts/src', "import '../../gateway/src/main.js';\n");
    expect(boundary).toEqual([expect.stringContaining('cannot be imported by a relative or absolute path')]);
  });

  it("rejects an app importing another service's library (scope:contacts -> scope:gateway)", async () => {
    const { boundary } = await lintProbe(
      'apps/contacts/src',
      "import { gatewayService } from '@herald/service-gateway';\n\nexport const probe = gatewayService;\n",
    );
    expect(boundary).toEqual([
      expect.stringContaining('tagged with "scope:contacts" can only depend on libs tagged with'),
    ]);
  });

  it('rejects a service library importing another service library (type:service -> type:service)', async () => {
    const { boundary } = await lintProbe(
      'libs/services/analytics/src',
      "import { contactsService } from '@herald/service-contacts';\n\nexport const probe = contactsService;\n",
    );
    expect(boundary).toContainEqual(
      expect.stringContaining('tagged with "type:service" can only depend on libs tagged with'),
    );
  });

  it('rejects the published SDK importing a Herald library (type:sdk depends on none)', async () => {
    const { boundary } = await lintProbe(
      'libs/sdk/src',
      "import { backoffDelay } from '@herald/core';\n\nexport const probe = backoffDelay;\n",
    );
    expect(boundary).toContainEqual(expect.stringContaining('tagged with "type:sdk" cannot depend on any libs'));
  });

  it('accepts an app importing a platform library (control)', async () => {
    const { all } = await lintProbe(
      'apps/contacts/src',
      "import { runService } from '@herald/runtime';\n\nexport const probe = runService;\n",
    );
    expect(all.messages).toEqual([]);
  });
});

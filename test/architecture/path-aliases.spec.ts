import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The `@herald/*` aliases are written twice: `tsconfig.base.json` (type-checking, Jest's module
 * mapper) and `.swcrc` (the build to dist/). A library added to one and not the other type-checks
 * and passes its tests, then breaks the first service that imports it at build time.
 */
const root = fileURLToPath(new URL('../../', import.meta.url));
const paths = (file: string, at: (json: never) => Record<string, string[]>) =>
  at(JSON.parse(readFileSync(join(root, file), 'utf8')) as never);

describe('path aliases', () => {
  it('.swcrc maps every @herald alias of tsconfig.base.json to the same file, and no other', () => {
    const ts = paths(
      'tsconfig.base.json',
      (j: { compilerOptions: { paths: Record<string, string[]> } }) => j.compilerOptions.paths,
    );
    const swc = paths('.swcrc', (j: { jsc: { paths: Record<string, string[]> } }) => j.jsc.paths);
    expect(swc).toEqual(ts);
  });
});

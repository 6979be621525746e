import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Test code stays out of product code, which is what `dist/` and the images ship. Test support
 * lives in `libs/testing` (platform-only helpers, `@herald/testing`) or next to the specs that use
 * it, as `*.spec-support.ts`, which the build leaves out like the specs. Any other file under
 * `libs/` or `apps/` is product code: it is not named like test support and does not import the
 * test library.
 */
const root = fileURLToPath(new URL('../../', import.meta.url));

const isSpecCode = (file: string) => /\.spec(-support)?\.ts$/.test(file);

/** Names test support goes by (and a testing/ folder outside libs/testing): test-*.ts, *-test-kit.ts, *.fixtures.ts, test-utils, mocks, fakes, stubs. */
export function namedLikeTestSupport(file: string): boolean {
  const name = file.split('/').pop()!;
  return (
    /\/testing\//.test(file) ||
    /(^|[.-])tests?[.-]/i.test(name) ||
    /test-?(kit|utils?|helpers?|support|data)/i.test(name) ||
    /(^|[.-])(fixtures?|mocks?|fakes?|stubs?)\.ts$/i.test(name) ||
    /(^|[.-])(mocks?|fakes?|stubs?)-/i.test(name)
  );
}

const importsTestLibrary = (source: string) => /(from\s+|import\s*\(\s*)['"]@herald\/testing['"]/.test(source);

function tsFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return e.name === 'node_modules' ? [] : tsFiles(path);
    return e.name.endsWith('.ts') ? [relative(root, path)] : [];
  });
}

describe('test code stays out of product code', () => {
  const product = ['libs', 'apps']
    .flatMap((dir) => tsFiles(join(root, dir)))
    .filter((file) => !file.startsWith('libs/testing/') && !isSpecCode(file));

  it('knows test support by its name (the rule below can fail)', () => {
    for (const name of [
      'libs/services/sending/src/webhooks/ses/sns-test-kit.ts',
      'libs/services/sending/src/uploads/test-images.ts',
      'libs/x/src/contacts.fixtures.ts',
      'libs/x/src/test-utils.ts',
      'libs/x/src/smtp.mock.ts',
      'libs/x/src/fake-clock.ts',
      'libs/filters/src/testing/read-model.ts',
    ])
      expect([name, namedLikeTestSupport(name)]).toEqual([name, true]);
    for (const name of ['libs/x/src/latest-events.ts', 'libs/x/src/contest.ts', 'libs/x/src/attestation.ts'])
      expect([name, namedLikeTestSupport(name)]).toEqual([name, false]);
  });

  it('no product file under libs/ or apps/ is named like test support', () => {
    expect(product.length).toBeGreaterThan(100);
    expect(product.filter(namedLikeTestSupport)).toEqual([]);
  });

  it('no product file imports the test library', () => {
    expect(importsTestLibrary(`import { eventually } from '@herald/testing';`)).toBe(true);
    expect(product.filter((file) => importsTestLibrary(readFileSync(join(root, file), 'utf8')))).toEqual([]);
  });

  it('the build leaves specs and their support files out of dist', () => {
    const dist = join(root, process.env.HERALD_DIST ?? 'dist');
    if (!existsSync(dist)) throw new Error(`${dist} is missing: run \`bash scripts/build.sh\` (npm test does) first`);
    const built = (dir: string): string[] =>
      readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
        e.isDirectory() ? built(join(dir, e.name)) : [relative(dist, join(dir, e.name))],
      );
    expect(built(dist).filter((file) => /\.spec(-support)?\.js$/.test(file))).toEqual([]);
  });
});

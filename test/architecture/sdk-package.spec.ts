import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * @herald/sdk (libs/sdk, ADR 0022) is publishable as it is: `npm pack` builds it (`prepack` runs
 * its `build`, tsc into libs/sdk/dist) and the package holds the built ES modules with their
 * type declarations for every source module, the README, a license field and `exports` that
 * point into it — and nothing else (no sources, no specs). The built entry imports in plain Node.
 */
const root = fileURLToPath(new URL('../..', import.meta.url));
const sdk = path.join(root, 'libs/sdk');
const pkg = JSON.parse(readFileSync(path.join(sdk, 'package.json'), 'utf8')) as {
  license?: string;
  exports?: Record<string, { types?: string; import?: string }>;
  types?: string;
};

describe('the SDK package', () => {
  let files: string[] = [];
  const built = existsSync(path.join(sdk, 'dist'));

  beforeAll(() => {
    const out = execFileSync('npm', ['pack', '--dry-run', '--json'], {
      cwd: sdk,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const [packed] = JSON.parse(out) as { files: { path: string }[] }[];
    files = packed!.files.map((f) => f.path).sort();
  }, 180_000);

  afterAll(() => {
    if (!built) rmSync(path.join(sdk, 'dist'), { recursive: true, force: true });
  });

  it('holds the built JavaScript and the type declarations of every source module, and the README', () => {
    const modules = readdirSync(path.join(sdk, 'src'))
      .filter((f) => f.endsWith('.ts') && !f.endsWith('.spec.ts'))
      .map((f) => f.replace(/\.ts$/, ''));
    expect(modules).toContain('index');
    const expected = [
      'README.md',
      'package.json',
      ...modules.flatMap((m) => [`dist/${m}.d.ts`, `dist/${m}.js`]),
    ].sort();
    expect(files).toEqual(expected);
  });

  it('names its license and exports its entry with types, both inside the package', () => {
    expect(pkg.license).toEqual(expect.any(String));
    const entry = pkg.exports?.['.'];
    expect(entry).toEqual({ types: './dist/index.d.ts', import: './dist/index.js' });
    expect(files).toContain(entry!.types!.replace(/^\.\//, ''));
    expect(files).toContain(entry!.import!.replace(/^\.\//, ''));
    expect(pkg.types).toBe(entry!.types);
  });

  it('its built entry is an ES module Node imports, with the client class', () => {
    const out = execFileSync(
      process.execPath,
      ['--input-type=module', '-e', "const m = await import('./dist/index.js'); console.log(typeof m.Herald)"],
      { cwd: sdk, encoding: 'utf8' },
    );
    expect(out.trim()).toBe('function');
  });
});

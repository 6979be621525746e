import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The container image ships the product only: its runtime stage takes the compiled tree (dist/),
 * the production dependencies and package.json, and the build context the compiled tree is built
 * from leaves out the test library (libs/testing), the benches (bench/) and the tests (test/).
 */

const root = fileURLToPath(new URL('../..', import.meta.url));
const read = (...p: string[]) => readFileSync(path.join(root, ...p), 'utf8');

interface Instruction {
  keyword: string;
  args: string;
}
interface Stage {
  name: string;
  instructions: Instruction[];
}

/** The Dockerfile's stages, in order, with their instructions (continuation lines joined, comments dropped). */
export function stagesOf(dockerfile: string): Stage[] {
  const lines = dockerfile
    .replace(/\\\r?\n/g, ' ')
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('#'));
  const stages: Stage[] = [];
  for (const line of lines) {
    const [, keyword = '', args = ''] = /^(\S+)\s*(.*)$/.exec(line) ?? [];
    if (keyword.toUpperCase() === 'FROM') {
      stages.push({ name: /\s+AS\s+(\S+)\s*$/i.exec(args)?.[1] ?? String(stages.length), instructions: [] });
    } else stages.at(-1)?.instructions.push({ keyword: keyword.toUpperCase(), args });
  }
  return stages;
}

/** What a COPY or ADD takes: `<stage>:<source>`, or `context:<source>` without --from. */
export function sourcesOf(instruction: Instruction): string[] {
  const words = instruction.args.split(/\s+/);
  const from = words.find((w) => w.startsWith('--from='))?.slice('--from='.length) ?? 'context';
  const operands = words.filter((w) => !w.startsWith('--'));
  return operands.slice(0, -1).map((source) => `${from}:${source}`);
}

/**
 * Whether .dockerignore leaves a path out of the build context: a pattern matches the path or one
 * of its parent folders (`*` within a name, `**` across folders), `!` takes a path back, the last
 * matching line wins.
 */
export function ignoredBy(dockerignore: string, file: string): boolean {
  const rules = dockerignore
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('#'))
    .map((l) => {
      const negated = l.startsWith('!');
      const glob = (negated ? l.slice(1) : l).trim().replace(/^\/+/, '').replace(/\/+$/, '');
      const source = glob
        .split(/(\*\*\/?|\*|\?)/)
        .map((part) =>
          part === '**/' || part === '**'
            ? '(?:.*/)?'
            : part === '*'
              ? '[^/]*'
              : part === '?'
                ? '[^/]'
                : part.replace(/[.+^${}()|[\]\\]/g, '\\$&'),
        )
        .join('');
      return { negated, pattern: new RegExp(`^${source}$`) };
    });
  const parts = file.split('/');
  const prefixes = parts.map((_, i) => parts.slice(0, i + 1).join('/'));
  let ignored = false;
  for (const rule of rules) if (prefixes.some((p) => rule.pattern.test(p))) ignored = !rule.negated;
  return ignored;
}

const stages = stagesOf(read('Dockerfile'));
const runtime = stages.at(-1)!;
const dockerignore = read('.dockerignore');

describe('the container image ships the product, not the test or benchmark code', () => {
  it('reads COPY sources and .dockerignore patterns as Docker does (the rules below can fail)', () => {
    const [copy] = stagesOf('FROM a AS x\nCOPY --from=b --chown=n:n /app/dist \\\n  ./dist\n')[0]!.instructions;
    expect(sourcesOf(copy!)).toEqual(['b:/app/dist']);
    expect(sourcesOf({ keyword: 'COPY', args: 'package.json package-lock.json ./' })).toEqual([
      'context:package.json',
      'context:package-lock.json',
    ]);
    const rules = '# comment\nbench\n/libs/testing/\n**/node_modules\n*.log\n.env.*\ndocs\n!docs/keep.md\n';
    for (const file of [
      'bench/support.ts',
      'libs/testing/src/index.ts',
      'a/b/node_modules/x.js',
      'x.log',
      '.env.local',
    ])
      expect([file, ignoredBy(rules, file)]).toEqual([file, true]);
    for (const file of ['benches/x.ts', 'libs/testing-kit.ts', 'libs/core/src/index.ts', 'a/x.log', 'docs/keep.md'])
      expect([file, ignoredBy(rules, file)]).toEqual([file, false]);
  });

  it('the runtime stage takes only the compiled tree from the build stage, the production dependencies and package.json', () => {
    expect(runtime.name).toBe('runtime');
    const taken = runtime.instructions
      .filter((i) => i.keyword === 'COPY' || i.keyword === 'ADD')
      .flatMap(sourcesOf)
      .sort();
    expect(taken).toEqual(['build:/app/dist', 'context:package.json', 'prod-deps:/app/node_modules']);
  });

  it('the build stage builds dist/ from the build context only', () => {
    const build = stages.find((s) => s.name === 'build')!;
    expect(build.instructions.filter((i) => i.keyword === 'COPY' || i.keyword === 'ADD').flatMap(sourcesOf)).toEqual([
      'context:.',
    ]);
    expect(build.instructions.some((i) => i.keyword === 'RUN' && i.args.includes('scripts/build.sh'))).toBe(true);
  });

  it('every COPY takes a path that exists: in the build context, or from an earlier stage', () => {
    const missing = stages.flatMap((stage, i) =>
      stage.instructions
        .filter((n) => n.keyword === 'COPY' || n.keyword === 'ADD')
        .flatMap(sourcesOf)
        .filter((source) => {
          const [from, file] = [source.slice(0, source.indexOf(':')), source.slice(source.indexOf(':') + 1)];
          if (from === 'context') return !existsSync(path.join(root, file)) || ignoredBy(dockerignore, file);
          return !stages.slice(0, i).some((s) => s.name === from);
        })
        .map((source) => `${stage.name}: ${source}`),
    );
    expect(missing).toEqual([]);
  });

  it('the image runs each app from where the build puts it: dist/apps/<SERVICE>/src/main.js of apps/<SERVICE>/src/main.ts', () => {
    const cmd = runtime.instructions.find((i) => i.keyword === 'CMD')!.args;
    expect(cmd).toContain('dist/apps/${SERVICE}/src/main.js');
    const fallback = /ARG SERVICE=(\S+)/.exec(read('Dockerfile'))![1]!;
    expect(existsSync(path.join(root, 'apps', fallback, 'src', 'main.ts'))).toBe(true);
  });

  it.each(['libs/testing/src/index.ts', 'bench/support.ts', 'bench/run.sh', 'test/e2e/contacts.e2e.spec.ts'])(
    'the build context leaves out libs/testing, bench and test: %s',
    (file) => {
      expect(ignoredBy(dockerignore, file)).toBe(true);
    },
  );

  it.each([
    'apps/gateway/src/main.ts',
    'apps/standalone/src/main.ts',
    'libs/core/src/index.ts',
    'libs/services/contacts/src/index.ts',
    'scripts/build.sh',
    'scripts/postinstall.mjs',
    '.swcrc',
    'package.json',
    'package-lock.json',
  ])('the build context keeps what the build compiles from: %s', (file) => {
    expect(ignoredBy(dockerignore, file)).toBe(false);
  });
});

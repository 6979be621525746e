import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The README's commands work on a fresh machine: each installs what it needs before it builds or
 * starts anything (the npm dependencies; and, for what runs the Kafka mock broker, the Debian
 * packages it is built from: scripts/ensure-system-deps.sh). A command that only says
 * "run scripts/ensure-system-deps.sh" when the machine lacks them fails here.
 */
const root = fileURLToPath(new URL('../../', import.meta.url));
const script = (name: string) => readFileSync(join(root, 'scripts', name), 'utf8');

/** The commands a script runs, in order, comments left out. */
const commands = (source: string) =>
  source
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line && !line.startsWith('#'));
const indexOf = (lines: string[], pattern: RegExp) => lines.findIndex((line) => pattern.test(line));

describe('the README commands install what they need before they run', () => {
  it.each([
    ['npm start', 'start.sh', false],
    ['npm run start:distributed', 'start-distributed.sh', true],
    ['npm test', 'test.sh', true],
  ])(
    '%s installs the npm dependencies (and the mock broker’s packages when it runs one) before building',
    (_cmd, file, needsBroker) => {
      const lines = commands(script(file));
      const build = indexOf(lines, /scripts\/build\.sh/);
      expect(build).toBeGreaterThan(-1);
      const nodeDeps = indexOf(lines, /^bash scripts\/ensure-node-deps\.sh$/);
      expect(nodeDeps).toBeGreaterThan(-1);
      expect(nodeDeps).toBeLessThan(build);
      if (needsBroker) {
        const systemDeps = indexOf(lines, /^bash scripts\/ensure-system-deps\.sh$/);
        expect(systemDeps).toBeGreaterThan(-1);
        expect(systemDeps).toBeLessThan(build);
      }
    },
  );

  it('the mock broker’s packages are skipped when KAFKA_BROKERS names a cluster', () => {
    expect(script('ensure-system-deps.sh')).toMatch(/if \[\[ -n "\$\{KAFKA_BROKERS:-\}" \]\]; then[\s\S]*?exit 0/);
  });
});

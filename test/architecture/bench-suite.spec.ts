import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { BENCHES } from '../../bench/suite.js';

/**
 * `npm run bench -- all` runs every bench (issue 40 item 4): the list in bench/suite.ts is held to
 * the files of bench/, and every bench that is not figures-only judges its targets through
 * bench/targets.ts, so a bench added or one that stops judging cannot slip out of the judging table.
 */
const benchDir = fileURLToPath(new URL('../../bench/', import.meta.url));
const benchFiles = readdirSync(benchDir)
  .filter((f) => f.endsWith('.bench.ts') && f !== 'all.bench.ts')
  .map((f) => f.replace(/\.bench\.ts$/, ''))
  .sort();

describe('the bench suite', () => {
  it('lists every bench of bench/, once', () => {
    const listed = BENCHES.map((b) => b.name);
    expect([...listed].sort()).toEqual(benchFiles);
    expect(new Set(listed).size).toBe(listed.length);
  });

  it('every bench with targets judges them through bench/targets.ts (it or a part it imports calls target())', () => {
    const judges = (name: string): boolean => {
      const source = readFileSync(`${benchDir}${name}.bench.ts`, 'utf8');
      if (/\btarget\(\{/.test(source)) return true;
      // a part of the bench (send-vs-track.ts, send-batch.ts) judges for it
      return [...source.matchAll(/from '\.\/([\w-]+)\.js'/g)]
        .map((m) => m[1]!)
        .filter((part) => !['support', 'targets', 'suite'].includes(part))
        .some((part) => /\btarget\(\{/.test(readFileSync(`${benchDir}${part}.ts`, 'utf8')));
    };
    const silent = BENCHES.filter((b) => !b.figuresOnly && !judges(b.name)).map((b) => b.name);
    expect(silent).toEqual([]);
  });
});

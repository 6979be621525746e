import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as contracts from '@herald/internal-contracts';
import type { CallGroup } from '@herald/internal-contracts';

/**
 * Synchronous calls have contracts (docs/architecture.md, "Synchronous calls"; ADR 0016): a call from
 * one service to another goes through the client built from its contract in
 * `@herald/internal-contracts` (`InternalCalls`), in process in standalone mode and over HTTP in
 * distributed mode, and is answered by its owner through `CallHandlers`. These rules fail on a call
 * that bypasses the contract, on a contract no owner answers, and on a call's type declared again.
 */
const root = fileURLToPath(new URL('../../', import.meta.url));

function files(dir: string): string[] {
  return readdirSync(join(root, dir), { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return e.name === 'node_modules' || e.name.startsWith('dist') ? [] : files(path);
    return e.name.endsWith('.ts') && !e.name.endsWith('.spec.ts') ? [path] : [];
  });
}

const product = [...files('libs'), ...files('apps')].filter((f) => !f.startsWith('libs/testing/'));
const read = (file: string) => readFileSync(join(root, file), 'utf8');
/** The code of a file without its comments (a comment may name a route). */
const code = (file: string) =>
  read(file)
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/^\s*\/\/.*$/gm, '');

/** The platform's own plumbing of calls: the contract client, its HTTP side, and read-your-writes' producers. */
const CALL_PLUMBING = [
  /^libs\/auth\/src\/internal-client\.ts$/,
  /^libs\/messaging\/src\/internal-calls\//,
  // a reader asks any producer whether a project's writes are published (not a call of one owner's)
  /^libs\/messaging\/src\/read-your-writes\//,
];
const isPlumbing = (file: string) => CALL_PLUMBING.some((p) => p.test(file));

/** Internal routes that are no call between services: an operator's, reached with a service principal. */
const OPERATOR_ROUTES = new Map([
  ['libs/services/segments/src/read-model/internal-backfill.controller.ts', "an operator's backfill of the read model"],
]);

const groups = Object.entries(contracts as Record<string, unknown>).filter(
  (entry): entry is [string, CallGroup] =>
    typeof entry[1] === 'object' && entry[1] !== null && 'owner' in entry[1] && 'calls' in entry[1],
);

describe('internal calls go through their contracts', () => {
  it('no product code but the call plumbing builds an internal HTTP client or names an /internal/ path', () => {
    const bypasses = product
      .filter((f) => !isPlumbing(f))
      .flatMap((f) => {
        const source = code(f);
        return [
          ...(/\bnew InternalClient\(|\bInternalClient\b.*from '@herald\/auth'/.test(source)
            ? [`${f}: InternalClient`]
            : []),
          ...(/['`]\/internal\//.test(source) ? [`${f}: an /internal/ path`] : []),
        ];
      });
    expect(bypasses).toEqual([]);
  });

  it('a service answers other services only through CallHandlers, never with an @Internal() controller of its own', () => {
    const controllers = product
      .filter((f) => f.startsWith('libs/services/') && f.endsWith('.controller.ts'))
      .filter((f) => /^@Internal\(\)/m.test(read(f)))
      .filter((f) => !OPERATOR_ROUTES.has(f));
    expect(controllers).toEqual([]);
  });

  it('every declared call group is answered by the service that owns it, in that service only', () => {
    expect(groups.length).toBeGreaterThan(0);
    const servedBy = new Map<string, string[]>();
    for (const f of product.filter((p) => p.startsWith('libs/services/'))) {
      for (const m of read(f).matchAll(/\.serve\((\w+Calls)\b/g))
        servedBy.set(m[1]!, [...(servedBy.get(m[1]!) ?? []), f.split('/')[2]!]);
    }
    const wrong = groups
      .map(([name, group]) => ({ name, owner: group.owner, servedBy: servedBy.get(name) ?? [] }))
      .filter((g) => g.servedBy.length !== 1 || g.servedBy[0] !== g.owner);
    expect(wrong).toEqual([]);
  });

  it("no call's request, answer or item type is declared again outside the contracts", () => {
    const declared = new Set<string>();
    for (const f of files('libs/contracts/internal/src'))
      for (const m of read(f).matchAll(/^export (?:interface|class|type) (\w+)/gm)) declared.add(m[1]!);
    const again = product
      .filter((f) => !f.startsWith('libs/contracts/internal/'))
      .flatMap((f) =>
        [...read(f).matchAll(/^(?:export )?(?:interface|class|type) (\w+)\b/gm)]
          .map((m) => m[1]!)
          .filter((name) => declared.has(name))
          .map((name) => `${relative(root, join(root, f))}: ${name}`),
      );
    expect(again).toEqual([]);
  });
});

import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Layers inside each service (docs/architecture.md, "Inside a service"). A service's code is in
 * feature folders (`libs/services/<service>/src/<feature>/`); each file is in one layer, by the role
 * its name declares:
 * - **composition**: Nest modules and entry points (`*.module.ts`, `index.ts`), which wire the rest;
 * - **edge**: what HTTP, Kafka and the job queue call (`*.controller.ts`, `*.handler(s).ts`,
 *   `*.processor.ts`, `*.calls.ts`, `*.sink.ts`);
 * - **data**: entities and stores, the only files that hold SQL (`*.entity.ts`, `*.store.ts`,
 *   `*-store.ts`, `*.repository.ts`);
 * - **application**: use cases and services (`*.use-case.ts`, `*.service.ts`) and everything else
 *   (workers, engines, domain functions, views, errors), which stores may use for their types and rules.
 * Arrows point down only: nothing but composition imports edge or composition, and data imports no
 * use case or service; two features never import each other; and `.query(` is written in a store only. What breaks
 * a rule today is listed, with why, in `layers-allowlist/<service>.json`; the lists only shrink (an
 * entry that no longer breaks its rule fails too).
 */
const root = fileURLToPath(new URL('../../', import.meta.url));
const SERVICES_DIR = 'libs/services';

type Layer = 'composition' | 'edge' | 'application' | 'data';
export function layerOf(file: string): Layer {
  const name = file.split('/').at(-1)!;
  if (/\.module\.ts$/.test(name) || name === 'index.ts') return 'composition';
  if (/\.(controller|handlers?|processor|calls|sink)\.ts$/.test(name)) return 'edge';
  if (/(\.entity|\.entities|\.store|-store|\.repository)\.ts$/.test(name)) return 'data';
  return 'application';
}
const RANK: Record<Layer, number> = { composition: 3, edge: 2, application: 1, data: 0 };
const isUseCase = (file: string) => /\.(use-case|service)\.ts$/.test(file);

/** Whether `from` importing `to` points up: into edge or composition from below, or from data into a use case or service. */
export function pointsUp(from: string, to: string): boolean {
  const a = layerOf(from);
  const b = layerOf(to);
  if (RANK[b] >= RANK.edge) return RANK[b] > RANK[a];
  return a === 'data' && isUseCase(to);
}

function tsFiles(dir: string): string[] {
  return readdirSync(join(root, dir), { withFileTypes: true }).flatMap((e) => {
    const path = `${dir}/${e.name}`;
    if (e.isDirectory()) return e.name === 'migrations' || e.name === 'node_modules' ? [] : tsFiles(path);
    return e.name.endsWith('.ts') && !/\.spec(-support)?\.ts$/.test(e.name) ? [path] : [];
  });
}

/** The service's files each relative import of `file` names (`./x.js` → `x.ts`). */
function imports(file: string, source: string): string[] {
  const out: string[] = [];
  for (const m of source.matchAll(/^(?:import|export)\s[^;]*?from\s+'(\.{1,2}\/[^']+)'/gms)) {
    const target = normalize(join(dirname(file), m[1]!.replace(/\.js$/, '.ts')));
    if (existsSync(join(root, target))) out.push(target);
  }
  return out;
}

/** The feature folder of a service file, or null for the service's root (its module, settings, consumer name). */
const featureOf = (file: string): string | null => {
  const parts = file.split('/');
  return parts.length > 5 ? parts[4]! : null;
};

export interface Breaks {
  /** `from → to`: a file importing one of a higher layer. */
  upward: string[];
  /** `a ↔ b`: two features of the service importing each other. */
  cycles: string[];
  /** Files outside a store that write `.query(`. */
  sql: string[];
}

export function breaksOf(service: string): Breaks {
  const files = tsFiles(`${SERVICES_DIR}/${service}/src`);
  const upward: string[] = [];
  const sql: string[] = [];
  const arrows = new Map<string, Set<string>>();
  for (const file of files) {
    const source = readFileSync(join(root, file), 'utf8');
    if (/\.query[<(]/.test(source) && layerOf(file) !== 'data') sql.push(file);
    const from = featureOf(file);
    for (const target of imports(file, source)) {
      if (pointsUp(file, target)) upward.push(`${file} → ${target}`);
      const to = featureOf(target);
      if (from && to && from !== to) arrows.set(from, (arrows.get(from) ?? new Set()).add(to));
    }
  }
  const cycles = [...arrows]
    .flatMap(([a, tos]) => [...tos].filter((b) => a < b && arrows.get(b)?.has(a)).map((b) => `${a} ↔ ${b}`))
    .sort();
  return { upward: upward.sort(), cycles, sql: sql.sort() };
}

const services = readdirSync(join(root, SERVICES_DIR), { withFileTypes: true })
  .filter((e) => e.isDirectory() && existsSync(join(root, SERVICES_DIR, e.name, 'src')))
  .map((e) => e.name);

type Allowed = { [K in keyof Breaks]?: Record<string, string> };
const allowed = (service: string): Allowed => {
  const file = join(root, 'test/architecture/layers-allowlist', `${service}.json`);
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as Allowed) : {};
};

describe('layers inside each service: arrows point down, features do not import each other both ways, SQL lives in stores', () => {
  it('classifies files by the role their names declare', () => {
    expect(layerOf('libs/services/x/src/a/a.controller.ts')).toBe('edge');
    expect(layerOf('libs/services/x/src/a/trigger.handlers.ts')).toBe('edge');
    expect(layerOf('libs/services/x/src/a/a.store.ts')).toBe('data');
    expect(layerOf('libs/services/x/src/a/workflow-store.ts')).toBe('data');
    expect(layerOf('libs/services/x/src/a/start.use-case.ts')).toBe('application');
    expect(layerOf('libs/services/x/src/x.module.ts')).toBe('composition');
    expect(pointsUp('libs/services/x/src/a/a.store.ts', 'libs/services/x/src/a/start.use-case.ts')).toBe(true);
    expect(pointsUp('libs/services/x/src/a/a.store.ts', 'libs/services/x/src/a/rules.ts')).toBe(false);
    expect(pointsUp('libs/services/x/src/a/start.use-case.ts', 'libs/services/x/src/a/a.controller.ts')).toBe(true);
    expect(pointsUp('libs/services/x/src/x.module.ts', 'libs/services/x/src/a/a.controller.ts')).toBe(false);
  });

  describe.each(services)('%s', (service) => {
    const breaks = breaksOf(service);
    const listed = allowed(service);
    it.each(['upward', 'cycles', 'sql'] as const)('%s: nothing beyond its allow-list, and no stale entry', (rule) => {
      const known = listed[rule] ?? {};
      expect({
        new: breaks[rule].filter((b) => !(b in known)),
        stale: Object.keys(known).filter((k) => !breaks[rule].includes(k)),
      }).toEqual({
        new: [],
        stale: [],
      });
      for (const reason of Object.values(known)) expect(reason.trim().length).toBeGreaterThan(10);
    });
  });
});

import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse, parseAllDocuments } from 'yaml';
import { SERVICE_NAMES, SERVICES, UPSTREAMS, urlVariableOf, type ServiceEntry } from '@herald/core';
import { allServices } from '@herald/service-catalog';

/**
 * One list of services: `SERVICES` in libs/core/src/service-directory.ts. The catalog, the gateway's
 * route table, settings and proxy are derived from it in code, and ESLint's scopes from the projects'
 * tags; what cannot be derived at run time (the projects, apps, README, docs and deployment files)
 * is held to it here, so adding or renaming a service fails this spec until every place agrees.
 */

const root = fileURLToPath(new URL('../..', import.meta.url));
const read = (...p: string[]) => readFileSync(path.join(root, ...p), 'utf8');
const names = [...SERVICE_NAMES];
const sorted = [...names].sort();
const entries = SERVICES as readonly ServiceEntry[];

interface ProjectJson {
  name: string;
  tags?: string[];
}
/** Every project.json under apps/ and libs/ (two levels of libs: libs/<lib>, libs/services/<service>). */
function projects(): { dir: string; json: ProjectJson }[] {
  const dirs = ['apps', 'libs', 'libs/services'].flatMap((base) =>
    readdirSync(path.join(root, base), { withFileTypes: true })
      .filter((d) => d.isDirectory())
      .map((d) => `${base}/${d.name}`),
  );
  return dirs
    .filter((dir) => existsSync(path.join(root, dir, 'project.json')))
    .map((dir) => ({ dir, json: JSON.parse(read(dir, 'project.json')) as ProjectJson }));
}

describe('the one list of services', () => {
  it('names each service once, with distinct ports and route prefixes', () => {
    expect(new Set(names).size).toBe(names.length);
    expect(new Set(entries.map((s) => s.defaultPort)).size).toBe(entries.length);
    const prefixes = entries.flatMap((s) => s.routes.map((r) => r.prefix));
    expect(new Set(prefixes).size).toBe(prefixes.length);
    expect(names.length).toBeGreaterThan(1);
  });

  it('the catalog has a definition of each, in the same order', () => {
    expect(allServices.map((s) => s.name)).toEqual(names);
  });

  it('each has a service library tagged type:service and scope:<name>, and an app', () => {
    const all = projects();
    const serviceLibs = all.filter((p) => p.json.tags?.includes('type:service'));
    expect(serviceLibs.map((p) => p.dir).sort()).toEqual(sorted.map((n) => `libs/services/${n}`));
    for (const p of serviceLibs) expect(p.json.tags).toContain(`scope:${path.basename(p.dir)}`);
    // apps/standalone hosts them all; apps/dashboard is the web app the edge serves (ADR 0028), no service
    const apps = all.filter((p) => p.dir.startsWith('apps/') && !['apps/standalone', 'apps/dashboard'].includes(p.dir));
    expect(apps.map((p) => path.basename(p.dir)).sort()).toEqual(sorted);
  });

  it("ESLint's per-service scopes (read from the project tags) are exactly these services", () => {
    const scopes = new Set(
      projects()
        .flatMap((p) => p.json.tags ?? [])
        .filter((t) => t.startsWith('scope:') && t !== 'scope:shared' && t !== 'scope:standalone'),
    );
    expect([...scopes].sort()).toEqual(sorted.map((n) => `scope:${n}`));
  });
});

describe('the README, docs and deployment files agree with the one list', () => {
  const readme = read('README.md');

  it("README: the PORT row's service ports", () => {
    const expected = `services: ${entries.map((s) => `${s.name} ${s.defaultPort}`).join(', ')}`;
    const row = readme.split('\n').find((l) => l.startsWith('| `PORT` |'));
    expect(row).toContain(expected);
  });

  it("README: the gateway's <SERVICE>_URL row", () => {
    const expected = `| ${UPSTREAMS.map((s) => `\`${urlVariableOf(s)}\``).join(', ')} | gateway`;
    expect(readme).toContain(expected);
  });

  it('README: the layout names every composition root', () => {
    expect(readme).toContain(`composition roots: ${names.join(' ')}, and standalone`);
  });

  it("docs/architecture.md: the services table has one row per service, with the gateway's routes of each", () => {
    const doc = read('docs', 'architecture.md');
    const table = doc.slice(doc.indexOf('| service | schema |'));
    const rows = table.split('\n').slice(2);
    const documented = rows
      .slice(
        0,
        rows.findIndex((l) => !l.startsWith('|')),
      )
      .map((l) => l.split('|').map((c) => c.trim()));
    expect(documented.map((cells) => cells[1])).toEqual(names);
    for (const cells of documented) {
      const entry = entries.find((s) => s.name === cells[1])!;
      // a prefix below another of the same service (`/uploads/files` below `/uploads`) is covered by it
      const top = entry.routes.filter((r) => !entry.routes.some((o) => r.prefix.startsWith(`${o.prefix}/`)));
      for (const route of top) expect(cells[3]).toContain(`\`${route.prefix}`);
    }
  });

  it('deploy/README.md: the list of processes and ports', () => {
    const text = read('deploy', 'README.md').replace(/\s+/g, ' ');
    const list = entries.map((s) => `${s.name} (${s.defaultPort})`);
    expect(text).toContain(`${list.slice(0, -1).join(', ')} and ${list.at(-1)}`);
  });

  it('docker-compose.yml: a service per entry on its port, and the gateway points at each upstream', () => {
    type ComposeService = { build?: { args?: Record<string, string> }; environment?: Record<string, string> };
    const compose = parse(read('docker-compose.yml'), { merge: true }) as { services: Record<string, ComposeService> };
    for (const s of entries)
      expect([s.name, compose.services[s.name]?.build?.args]).toEqual([
        s.name,
        { SERVICE: s.name, PORT: String(s.defaultPort) },
      ]);
    const env = compose.services.gateway?.environment ?? {};
    for (const s of UPSTREAMS)
      expect([urlVariableOf(s), env[urlVariableOf(s)]]).toEqual([
        urlVariableOf(s),
        `http://${s}:${entries.find((e) => e.name === s)!.defaultPort}`,
      ]);
  });

  it('deploy/k8s: a manifest per entry, listed in the kustomization, on its port; the ConfigMap points at each upstream', () => {
    const kustomization = parse(read('deploy', 'k8s', 'kustomization.yaml')) as { resources: string[] };
    expect(kustomization.resources.filter((r) => r.startsWith('services/'))).toEqual(
      names.map((n) => `services/${n}.yaml`),
    );
    expect(readdirSync(path.join(root, 'deploy', 'k8s', 'services')).sort()).toEqual(sorted.map((n) => `${n}.yaml`));
    for (const s of entries) {
      const docs = parseAllDocuments(read('deploy', 'k8s', 'services', `${s.name}.yaml`)).map(
        (d) => d.toJS() as Record<string, unknown>,
      );
      const service = docs.find((d) => d.kind === 'Service') as { spec: { ports: { port: number }[] } } | undefined;
      expect([s.name, service?.spec.ports.map((p) => p.port)]).toEqual([s.name, [s.defaultPort]]);
    }
    const properties = Object.fromEntries(
      read('deploy', 'k8s', 'config.properties')
        .split('\n')
        .filter((l) => /^[A-Z_]+=/.test(l))
        .map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]),
    );
    for (const s of UPSTREAMS)
      expect([urlVariableOf(s), properties[urlVariableOf(s)]]).toEqual([
        urlVariableOf(s),
        `http://${s}:${entries.find((e) => e.name === s)!.defaultPort}`,
      ]);
  });
});

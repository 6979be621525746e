import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse, parseAllDocuments } from 'yaml';
import { requiredVariables, ServiceConfig } from '@herald/core';
import { serviceNamed } from '@herald/service-catalog';

/**
 * Deployment descriptors stay in step with the code: every app in apps/ (standalone aside) is
 * deployed by docker-compose.yml and by deploy/k8s, with every variable its config schema requires.
 */

const root = fileURLToPath(new URL('../..', import.meta.url));
const read = (...p: string[]) => readFileSync(path.join(root, ...p), 'utf8');

/** Distributed-mode apps: apps/<name>/src/main.ts, standalone excepted. */
const apps = readdirSync(path.join(root, 'apps'), { withFileTypes: true })
  .filter(
    (d) => d.isDirectory() && d.name !== 'standalone' && existsSync(path.join(root, 'apps', d.name, 'src', 'main.ts')),
  )
  .map((d) => d.name)
  .sort();

/** Variables an app's config class requires (the gateway's adds Redis and the services it routes to). */
const requiredFor = (app: string) => requiredVariables((serviceNamed(app).config ?? ServiceConfig) as new () => object);
const required = requiredVariables(ServiceConfig);
const requiredByAny = [...new Set(apps.flatMap(requiredFor))].sort();
const mainOf = (app: string) => `dist/apps/${app}/src/main.js`;

// ------------------------------------------------------------------------- docker-compose.yml

interface ComposeService {
  build?: string | { context?: string; args?: Record<string, unknown> | string[] };
  command?: string | string[];
  environment?: Record<string, unknown> | string[];
  ports?: unknown[];
}
const compose = parse(read('docker-compose.yml'), { merge: true }) as { services?: Record<string, ComposeService> };
const services = compose.services ?? {};

/** `environment:` as a map; list entries without `=` (pass-through from the host) map to undefined. */
function environmentOf(service: ComposeService): Record<string, unknown> {
  const env = service.environment ?? {};
  if (!Array.isArray(env)) return env;
  return Object.fromEntries(
    env.map((entry) => {
      const i = String(entry).indexOf('=');
      return i < 0 ? [String(entry), undefined] : [String(entry).slice(0, i), String(entry).slice(i + 1)];
    }),
  );
}

/**
 * The shortest value compose interpolation can give: `${X:-default}` gives the default when X is
 * unset or empty, `${X:?msg}` fails rather than give an empty value, while `$X`, `${X}`, `${X-d}` and
 * `${X?msg}` give "" when X is set to "" (or unset, for the first two).
 */
function shortestExpansion(value: string): string {
  return value
    .replace(/\$\$/g, '$')
    .replace(
      /\$\{([A-Za-z_][A-Za-z0-9_]*)(?:(:-|:\?|-|\?)((?:[^{}]|\{[^{}]*\})*))?\}|\$([A-Za-z_][A-Za-z0-9_]*)/g,
      (_m, _name, op?: string, arg?: string) => (op === ':-' ? shortestExpansion(arg ?? '') : op === ':?' ? '?' : ''),
    );
}
const isEmpty = (value: unknown) =>
  value === undefined || value === null || shortestExpansion(String(value)).trim() === '';

describe('docker-compose.yml', () => {
  it('the config schema requires variables (so the checks below are not vacuous)', () => {
    expect(apps.length).toBeGreaterThan(0);
    expect(required).toEqual(expect.arrayContaining(['DATABASE_URL', 'INTERNAL_JWT_SECRET', 'KAFKA_BROKERS']));
  });

  it.each(apps)('every app has a compose service of the same name: %s', (app) => {
    expect(Object.keys(services)).toContain(app);
  });

  it.each(apps)('every app service sets each variable its config class requires: %s', (app) => {
    const env = environmentOf(services[app] ?? {});
    expect(requiredFor(app).filter((name) => !(name in env))).toEqual([]);
  });

  it('no service sets a variable to an empty value', () => {
    const empty = Object.entries(services).flatMap(([name, service]) =>
      Object.entries(environmentOf(service))
        .filter(([, value]) => isEmpty(value))
        .map(([variable]) => `${name}.${variable}`),
    );
    expect(empty).toEqual([]);
  });

  it('no secret has a default: each is `${NAME:?message}`, so compose refuses to start without it', () => {
    const secretName = /SECRET|PASSWORD|TOKEN|_KEY$/;
    const required = /^\$\{[A-Z][A-Z0-9_]*:\?[^{}]+\}$/;
    const offending = Object.entries(services).flatMap(([name, service]) =>
      Object.entries(environmentOf(service))
        .filter(([variable, value]) => secretName.test(variable) && !required.test(String(value)))
        .map(([variable, value]) => `${name}.${variable}=${String(value)}`),
    );
    expect(offending).toEqual([]);
    // nor anywhere in the file: no `${SECRET:-default}` or `${SECRET-default}`, no password in a URL
    const text = read('docker-compose.yml');
    const defaulted = [...text.matchAll(/\$\{([A-Z][A-Z0-9_]*)(:?-)/g)]
      .map((m) => m[1]!)
      .filter((v) => secretName.test(v));
    expect(defaulted).toEqual([]);
    const urlPasswords = [...text.matchAll(/[a-z]+:\/\/[^:/\s]+:([^@\s]+)@/g)].map((m) => m[1]!);
    expect(urlPasswords.filter((p) => !required.test(p))).toEqual([]);
    expect(text).not.toMatch(/change-me/i);
  });

  it.each(apps)('every app service builds its own app and migrates before serving: %s', (app) => {
    const service = services[app] ?? {};
    const args = typeof service.build === 'object' ? service.build.args : undefined;
    const serviceArg = Array.isArray(args)
      ? args.find((a) => a.startsWith('SERVICE='))?.slice('SERVICE='.length)
      : args?.SERVICE;
    expect(serviceArg).toBe(app);
    const command = [service.command ?? []].flat().join(' ');
    expect(command).toContain(`${mainOf(app)} migrate`);
    expect(command.indexOf(`${mainOf(app)} migrate`)).toBeLessThan(command.lastIndexOf(`exec node ${mainOf(app)}`));
  });

  it('only the gateway, mailpit and sending (its inbound SMTP listener, nothing else) publish ports to the host', () => {
    const publishing = Object.entries(services)
      .filter(([, s]) => (s.ports ?? []).length > 0)
      .map(([name]) => name)
      .sort();
    expect(publishing).toEqual(['gateway', 'mailpit', 'sending']);
    const inbound = String(environmentOf(services.sending!).INBOUND_SMTP_PORT);
    expect(services.sending!.ports).toEqual([`${inbound}:${inbound}`]);
  });
});

// ------------------------------------------------------------------------- deploy/k8s

interface K8sContainer {
  name: string;
  command?: string[];
  args?: string[];
  envFrom?: { configMapRef?: { name: string }; secretRef?: { name: string } }[];
}
interface K8sObject {
  kind: string;
  metadata: { name: string; labels?: Record<string, string> };
  spec?: { template?: { spec?: { containers?: K8sContainer[] } } };
}
interface Kustomization {
  resources?: string[];
  configMapGenerator?: Generator[];
  secretGenerator?: Generator[];
  patches?: { path?: string; target?: { kind?: string; labelSelector?: string } }[];
}
interface Generator {
  name: string;
  envs?: string[];
  literals?: string[];
}

const k8sDir = path.join(root, 'deploy', 'k8s');
const kustomization = parse(readFileSync(path.join(k8sDir, 'kustomization.yaml'), 'utf8')) as Kustomization;

/** Objects of the resources the kustomization lists (files, or directories with their own kustomization). */
function resourcesOf(dir: string, k: Kustomization): K8sObject[] {
  return (k.resources ?? []).flatMap((entry) => {
    const p = path.join(dir, entry);
    if (statSync(p).isDirectory())
      return resourcesOf(p, parse(readFileSync(path.join(p, 'kustomization.yaml'), 'utf8')) as Kustomization);
    return parseAllDocuments(readFileSync(p, 'utf8'))
      .map((d) => d.toJS() as K8sObject)
      .filter(Boolean);
  });
}
const objects = resourcesOf(k8sDir, kustomization);

const containersOf = (o: K8sObject) => o.spec?.template?.spec?.containers ?? [];
const argvOf = (c: K8sContainer) => [...(c.command ?? []), ...(c.args ?? [])];
const runs = (o: K8sObject, app: string) => containersOf(o).some((c) => argvOf(c).includes(mainOf(app)));
const migrates = (o: K8sObject) => containersOf(o).some((c) => argvOf(c).includes('migrate'));

/** KEY=VALUE lines of an env file; a git-ignored file (secrets.env) is read from its `.example`. */
function envFile(file: string): Record<string, string> {
  const p = path.join(k8sDir, file);
  const text = readFileSync(existsSync(p) ? p : `${p}.example`, 'utf8');
  return Object.fromEntries(
    text
      .split('\n')
      .map((line) => line.trim())
      .filter((line) => line && !line.startsWith('#') && line.includes('='))
      .map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]),
  );
}
const generated = (g: Generator): Record<string, string> => ({
  ...Object.assign({}, ...(g.envs ?? []).map(envFile)),
  ...Object.fromEntries((g.literals ?? []).map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)])),
});

/** envFrom sources of an object's containers, its own plus those the kustomization's patches add. */
function envSourcesOf(o: K8sObject): string[] {
  const labels = o.metadata.labels ?? {};
  const selects = (selector = '') =>
    selector
      .split(',')
      .filter(Boolean)
      .every((term) => {
        const [k, v] = term.split('=');
        return labels[k.trim()] === v?.trim();
      });
  const patches = (kustomization.patches ?? [])
    .filter((p) => p.path && p.target?.kind === o.kind && selects(p.target.labelSelector))
    .map((p) => parse(readFileSync(path.join(k8sDir, p.path!), 'utf8')) as K8sObject);
  return [o, ...patches].flatMap((x) =>
    containersOf(x).flatMap((c) => (c.envFrom ?? []).map((e) => e.configMapRef?.name ?? e.secretRef?.name ?? '')),
  );
}

describe('deploy/k8s', () => {
  it.each(apps)('every app has a Deployment running it: %s', (app) => {
    const deployments = objects.filter((o) => o.kind === 'Deployment' && runs(o, app) && !migrates(o));
    expect(deployments.map((d) => d.metadata.name)).toEqual([app]);
  });

  it.each(apps)('every app has a migrate Job: %s', (app) => {
    const jobs = objects.filter((o) => o.kind === 'Job' && runs(o, app) && migrates(o));
    expect(jobs).toHaveLength(1);
  });

  it.each(apps)('every app has a Service in front of its Deployment: %s', (app) => {
    expect(objects.filter((o) => o.kind === 'Service').map((o) => o.metadata.name)).toContain(app);
  });

  it('the shared ConfigMap and Secret set every variable ServiceConfig requires, none empty', () => {
    const shared = Object.assign(
      {},
      ...[...(kustomization.configMapGenerator ?? []), ...(kustomization.secretGenerator ?? [])].map(generated),
    ) as Record<string, string>;
    expect(requiredByAny.filter((name) => isEmpty(shared[name]))).toEqual([]);
  });

  it('every Deployment and migrate Job takes its env from the shared ConfigMap and Secret', () => {
    const sharedNames = [...(kustomization.configMapGenerator ?? []), ...(kustomization.secretGenerator ?? [])].map(
      (g) => g.name,
    );
    expect(sharedNames.length).toBeGreaterThan(0);
    const lacking = objects
      .filter((o) => o.kind === 'Deployment' || o.kind === 'Job')
      .filter((o) => !sharedNames.every((name) => envSourcesOf(o).includes(name)))
      .map((o) => `${o.kind}/${o.metadata.name}`);
    expect(lacking).toEqual([]);
  });
});

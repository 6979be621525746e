import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import { configureLogging, OBSERVES_WRITES_OF, SERVICE_NAMES, type HeraldRuntime } from '@herald/core';
import { HOSTED_CONTROLLERS, ReadYourWrites, type HostedControllers } from '@herald/messaging';
import { createStandaloneApp } from '@herald/runtime';
import { allServices } from '@herald/service-catalog';
import { createTestDatabase, TEST_INTERNAL_SECRET, type TestDatabase } from '@herald/testing';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';

/**
 * Read-your-writes (docs/consistency.md) waits, for each route, on the producers of the topics its
 * service consumes, or on those a route declares with `@ObservesWritesOf`. What a service consumes is
 * read from the running handlers, so these rules follow the code: a declaration names only producers
 * its service consumes from (any other would wait for nothing over Kafka), docs/consistency.md's
 * table says what each service observes, and every deployment gives each service the URLs of the
 * producers it asks.
 */

const root = fileURLToPath(new URL('../..', import.meta.url));
const read = (...p: string[]) => readFileSync(path.join(root, ...p), 'utf8');
const urlVariable = (service: string) => (service === 'gateway' ? 'GATEWAY_URL' : `${service.toUpperCase()}_URL`);

describe('read-your-writes: what each route observes is declared once, documented and deployable', () => {
  let db: TestDatabase;
  let app: NestFastifyApplication;
  let gate: ReadYourWrites;
  let hosted: HostedControllers;

  beforeAll(async () => {
    configureLogging(process.env.HERALD_TEST_LOG_LEVEL ?? 'silent');
    db = await createTestDatabase();
    const runtime: HeraldRuntime = {
      mode: 'standalone',
      databaseUrl: db.url,
      databasePoolSize: 2,
      internalJwtSecret: TEST_INTERNAL_SECRET,
      jobLeaseMs: 30_000,
    };
    app = await createStandaloneApp(runtime, allServices);
    await app.init();
    gate = app.get(ReadYourWrites);
    hosted = app.get(HOSTED_CONTROLLERS);
  }, 120_000);

  afterAll(async () => {
    await app?.close();
    await db?.drop();
  });

  const producersOf = () => new Map(SERVICE_NAMES.map((s) => [s, gate.producersFor(s)]));

  it('names only producers of what its service consumes in every @ObservesWritesOf', () => {
    const wrong: string[] = [];
    for (const [controller, service] of hosted) {
      const cls = controller as { name: string; prototype: Record<string, unknown> };
      const targets: [string, object][] = [
        [cls.name, cls as object],
        ...Object.getOwnPropertyNames(cls.prototype)
          .filter((m) => m !== 'constructor' && typeof cls.prototype[m] === 'function')
          .map((m): [string, object] => [`${cls.name}.${m}`, cls.prototype[m] as object]),
      ];
      for (const [where, target] of targets) {
        const declared = Reflect.getMetadata(OBSERVES_WRITES_OF, target) as string[] | undefined;
        for (const producer of declared ?? [])
          if (!gate.producersFor(service).includes(producer))
            wrong.push(`${where} (${service}) observes ${producer}, which publishes nothing ${service} consumes`);
      }
    }
    expect(wrong).toEqual([]);
    expect(hosted.size).toBeGreaterThan(20);
  });

  it("documents in docs/consistency.md's table the producers each service's copies are fed by", () => {
    const rows = read('docs', 'consistency.md')
      .split('\n')
      .map((line) => /^\| ([a-z]+) \| [^|]* \| ([^|]*) \|$/.exec(line))
      .filter((m): m is RegExpExecArray => m !== null && (SERVICE_NAMES as readonly string[]).includes(m[1]!));
    const documented = new Map(
      rows.map((m) => [
        m[1]!,
        m[2]!.trim() === '—'
          ? []
          : m[2]!
              .split(',')
              .map((p) => p.trim())
              .sort(),
      ]),
    );
    expect(documented).toEqual(new Map([...producersOf()].map(([s, p]) => [s, [...p].sort()])));
  });

  it('gives every service the URL of each producer it asks, in docker-compose.yml and deploy/k8s', () => {
    const needed = new Set(
      [...producersOf()].flatMap(([service, producers]) => producers.filter((p) => p !== service)),
    );
    const compose = parse(read('docker-compose.yml'), { merge: true }) as {
      services: Record<string, { environment?: Record<string, unknown> }>;
    };
    const missing: string[] = [];
    for (const [service, producers] of producersOf()) {
      const env = compose.services[service]?.environment ?? {};
      for (const p of producers)
        if (p !== service && !env[urlVariable(p)]) missing.push(`docker-compose.yml ${service}: ${urlVariable(p)}`);
    }
    // every service gets the one ConfigMap
    const configMap = new Set(
      read('deploy', 'k8s', 'config.properties')
        .split('\n')
        .map((l) => /^([A-Z_]+)=/.exec(l)?.[1])
        .filter(Boolean),
    );
    for (const p of needed)
      if (!configMap.has(urlVariable(p))) missing.push(`deploy/k8s/config.properties: ${urlVariable(p)}`);
    expect(missing).toEqual([]);
  });
});

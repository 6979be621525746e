import { hostedControllers } from '@herald/messaging';
import { APP_GUARD } from '@nestjs/core';
import { EdgeProxyModule } from './edge/edge-proxy.module.js';
import { GatewayCoreModule } from './gateway-core.module.js';
import { GatewayModule, gatewayService } from './gateway.module.js';

type Metadata = { module?: unknown; imports?: unknown[]; providers?: unknown[] };

/** Every module reachable from `root` through its imports, each once (static and dynamic ones alike). */
function modulesFrom(root: unknown): { module: unknown; imports: unknown[]; providers: unknown[] }[] {
  const seen = new Set<unknown>();
  const out: { module: unknown; imports: unknown[]; providers: unknown[] }[] = [];
  const visit = (m: unknown) => {
    if (!m || seen.has(m)) return;
    seen.add(m);
    const dynamic = typeof m === 'function' ? {} : (m as Metadata);
    const cls = typeof m === 'function' ? m : dynamic.module;
    const read = (key: string) => (Reflect.getMetadata(key, cls as object) as unknown[] | undefined) ?? [];
    const imports = [...read('imports'), ...(dynamic.imports ?? [])];
    out.push({ module: cls, imports, providers: [...read('providers'), ...(dynamic.providers ?? [])] });
    imports.forEach(visit);
  };
  visit(root);
  return out;
}

describe("the gateway's composition: one module per feature over one core", () => {
  it('every controller of its feature modules is hosted by the gateway, the proxy too where it runs', () => {
    const hosted = hostedControllers([{ name: 'gateway', modules: [gatewayService.module, EdgeProxyModule] }]);
    expect([...hosted].map(([c, s]) => `${s}:${(c as { name: string }).name}`).sort()).toEqual(
      [
        'ApiReferenceController',
        'AuthController',
        'BillingController',
        'ConfigController',
        'ContactCreatedHandler',
        'MeController',
        'MeteringHandlers',
        'OAuthController',
        'OpenApiController',
        'ProjectTeamController',
        'ProxyController',
        'SecurityController',
        'StripeBillingController',
        'StripeWebhookController',
      ].map((c) => `gateway:${c}`),
    );
  });

  it('one global guard, EdgeAuthGuard', () => {
    const guards = modulesFrom(GatewayModule)
      .flatMap((m) => m.providers)
      .filter((p) => (p as { provide?: unknown }).provide === APP_GUARD);
    expect(guards.map((p) => (p as { useClass: { name: string } }).useClass.name)).toEqual(['EdgeAuthGuard']);
  });

  it('the data source, outbox and job queue are imported once, by the core every feature module imports', () => {
    const modules = modulesFrom(GatewayModule);
    const named = (name: string) => modules.filter((m) => (m.module as { name: string }).name === name);
    for (const infra of ['PersistenceModule', 'ServiceMessagingModule', 'JobsModule'])
      expect(named(infra)).toHaveLength(1);
    const features = modules.filter((m) =>
      /^(Accounts|Projects|Reputation|Billing|Edge)Module$/.test((m.module as { name: string }).name),
    );
    expect(features).toHaveLength(5);
    for (const f of features) expect(f.imports).toContain(GatewayCoreModule);
    expect(modulesFrom(EdgeProxyModule).map((m) => m.module)).toContain(GatewayCoreModule);
  });
});

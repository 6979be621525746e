/** Where `@Module` keeps its lists (Nest's MODULE_METADATA keys). */
const CONTROLLERS = 'controllers';
const IMPORTS = 'imports';

/** Which hosted service each HTTP controller class belongs to (a route's reader of copies). */
export type HostedControllers = ReadonlyMap<unknown, string>;

export const HOSTED_CONTROLLERS = Symbol('HOSTED_CONTROLLERS');

type ModuleLike = { module?: unknown; controllers?: unknown[]; imports?: unknown[] } | (abstract new () => unknown);

/**
 * The controllers of each service's module and of the modules it imports (a service's feature
 * modules), first service first: in standalone mode one process serves every service's routes, and a
 * route reads the copies its own service keeps.
 */
export function hostedControllers(services: { name: string; modules: unknown[] }[]): HostedControllers {
  const owner = new Map<unknown, string>();
  for (const { name, modules } of services) {
    const seen = new Set<unknown>();
    const visit = (m: unknown): void => {
      if (!m || seen.has(m)) return;
      seen.add(m);
      const mod = m as ModuleLike;
      const cls = typeof mod === 'function' ? mod : mod.module;
      const dynamic = typeof mod === 'function' ? {} : mod;
      const controllers = [
        ...((cls ? (Reflect.getMetadata(CONTROLLERS, cls) as unknown[] | undefined) : undefined) ?? []),
        ...(dynamic.controllers ?? []),
      ];
      for (const c of controllers) if (!owner.has(c)) owner.set(c, name);
      const imports = [
        ...((cls ? (Reflect.getMetadata(IMPORTS, cls) as unknown[] | undefined) : undefined) ?? []),
        ...(dynamic.imports ?? []),
      ];
      for (const i of imports) visit(i);
    };
    for (const m of modules) visit(m);
  }
  return owner;
}

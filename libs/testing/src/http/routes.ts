/** One HTTP route a Nest module tree declares. */
export interface DeclaredRoute {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE' | 'PATCH' | 'ALL' | 'OPTIONS' | 'HEAD' | 'SEARCH';
  /** The full path with Nest's parameters (`/contacts/:id`). */
  path: string;
}

/** Nest's RequestMethod enum, by value. */
const METHODS: DeclaredRoute['method'][] = [
  'GET',
  'POST',
  'PUT',
  'DELETE',
  'PATCH',
  'ALL',
  'OPTIONS',
  'HEAD',
  'SEARCH',
];

const join = (...parts: string[]): string =>
  `/${parts
    .flatMap((p) => p.split('/'))
    .filter(Boolean)
    .join('/')}`;

/**
 * Every route the controllers of `modules` (and of the modules they import, dynamic ones included)
 * declare, read from Nest's decorator metadata: what a standalone Herald serves, without a
 * hand-kept list that a new route would escape.
 */
export function listHttpRoutes(modules: unknown[]): DeclaredRoute[] {
  const seen = new Set<unknown>();
  const routes = new Map<string, DeclaredRoute>();
  const visit = (entry: unknown): void => {
    if (!entry || seen.has(entry)) return;
    seen.add(entry);
    const dynamic = typeof entry === 'object' && 'module' in entry ? (entry as Record<string, unknown>) : undefined;
    const cls = (dynamic?.module ?? entry) as object;
    const meta = (key: string): unknown[] => (Reflect.getMetadata(key, cls) as unknown[] | undefined) ?? [];
    const imports = [...meta('imports'), ...((dynamic?.imports as unknown[]) ?? [])];
    const controllers = [...meta('controllers'), ...((dynamic?.controllers as unknown[]) ?? [])];
    for (const controller of controllers as (new () => object)[]) {
      const prefixes = [(Reflect.getMetadata('path', controller) as string | string[] | undefined) ?? '/'].flat();
      const proto = controller.prototype as Record<string, unknown>;
      for (const name of Object.getOwnPropertyNames(proto)) {
        const handler = proto[name];
        if (name === 'constructor' || typeof handler !== 'function') continue;
        const method = Reflect.getMetadata('method', handler) as number | undefined;
        if (method === undefined) continue;
        for (const prefix of prefixes)
          for (const sub of [(Reflect.getMetadata('path', handler) as string | string[] | undefined) ?? '/'].flat()) {
            const route = { method: METHODS[method]!, path: join(prefix, sub) };
            routes.set(`${route.method} ${route.path}`, route);
          }
      }
    }
    for (const imported of imports) {
      const ref = imported as { forwardRef?: () => unknown } | undefined;
      visit(typeof ref?.forwardRef === 'function' ? ref.forwardRef() : imported);
    }
  };
  for (const m of modules) visit(m);
  return [...routes.values()].sort((a, b) => `${a.path} ${a.method}`.localeCompare(`${b.path} ${b.method}`));
}

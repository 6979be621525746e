import { SERVICES, type ServiceRoute, type UpstreamName } from '@herald/core';

/** Services the gateway routes to in distributed mode. */
export type Upstream = UpstreamName;

export interface RouteRule extends ServiceRoute {
  service: Upstream;
}

/**
 * Which service owns which public path (the architecture's routing table), derived from the one
 * list of services (`SERVICES` in @herald/core). Every path here is project-scoped (a secret key,
 * or a dashboard session naming its project with X-Project-Id) except the `public` ones, whose
 * requests carry their own signatures. The gateway's own routes (/auth, /users, /projects,
 * /config) are not in the table. Longest prefix first, so `/uploads/files` wins over `/uploads`.
 */
export const ROUTES: readonly RouteRule[] = SERVICES.flatMap((s) =>
  s.routes.map((r: ServiceRoute): RouteRule => ({ ...r, service: s.name as Upstream })),
).sort((a, b) => b.prefix.length - a.prefix.length);

/**
 * Paths under a service's prefix that the gateway serves itself: the payment provider's webhooks
 * (`/webhooks/incoming/stripe`: billing is the gateway's), though `/webhooks` is the sending service's.
 */
export const GATEWAY_OWN_PREFIXES: readonly string[] = ['/webhooks/incoming'];

const within = (path: string, prefix: string) => path === prefix || path.startsWith(`${prefix}/`);

/** The rule owning a request path (query string ignored), if any; none for the gateway's own paths. */
export function routeFor(url: string): RouteRule | undefined {
  const path = url.split('?', 1)[0]!;
  if (GATEWAY_OWN_PREFIXES.some((p) => within(path, p))) return undefined;
  return ROUTES.find((r) => within(path, r.prefix));
}

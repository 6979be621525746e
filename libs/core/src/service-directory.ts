/**
 * The one list of Herald's services: names, default ports and the public path prefixes each owns.
 * Plain data (no modules), so that every layer can read it: the catalog joins it with the service
 * modules (`libs/services/catalog`), the gateway derives its route table, its `<SERVICE>_URL`
 * settings and its proxy upstreams from it, and `test/architecture/service-list.spec.ts` holds the
 * README, docs/architecture.md, deploy/ and docker-compose.yml to it. ESLint's per-service scopes
 * come from the Nx project tags (`scope:<service>`), which that test also holds to this list.
 *
 * Adding a service: an entry here, `libs/services/<name>` (tags `type:service`, `scope:<name>`) with
 * its ServiceDefinition in the catalog, `apps/<name>`, and the deployment files the test names.
 */

/** A public path prefix a service owns (the gateway's routing table). */
export interface ServiceRoute {
  prefix: string;
  /** Also accepts the project's public key (client-side tracking). */
  publicKey?: true;
  /** No key at all: links inside emails and the email infrastructure's callbacks (the service checks their signatures). */
  public?: true;
}

export interface ServiceEntry {
  name: string;
  /** HTTP port in distributed mode when PORT is not set. */
  defaultPort: number;
  /** The public entry (authenticates and routes); it has no URL variable and routes nothing to itself. */
  edge?: true;
  /** Project-scoped path prefixes the gateway forwards to the service (the gateway's own routes are not listed). */
  routes: readonly ServiceRoute[];
}

/** Every service, in start order. */
export const SERVICES = [
  { name: 'gateway', defaultPort: 3000, edge: true, routes: [] },
  {
    name: 'contacts',
    defaultPort: 3001,
    routes: [{ prefix: '/v1/track', publicKey: true }, { prefix: '/contacts' }, { prefix: '/events' }],
  },
  {
    name: 'sending',
    defaultPort: 3002,
    routes: [
      { prefix: '/t', public: true },
      { prefix: '/unsubscribe', public: true },
      { prefix: '/subscribe', public: true },
      { prefix: '/manage', public: true },
      { prefix: '/webhooks', public: true },
      { prefix: '/uploads/files', public: true },
      { prefix: '/v1/send' },
      { prefix: '/v1/verify' },
      { prefix: '/templates' },
      { prefix: '/emails' },
      { prefix: '/inbound' },
      { prefix: '/uploads' },
    ],
  },
  { name: 'campaigns', defaultPort: 3003, routes: [{ prefix: '/campaigns' }] },
  { name: 'segments', defaultPort: 3004, routes: [{ prefix: '/segments' }] },
  { name: 'workflows', defaultPort: 3005, routes: [{ prefix: '/workflows' }] },
  { name: 'domains', defaultPort: 3006, routes: [{ prefix: '/domains' }] },
  { name: 'analytics', defaultPort: 3007, routes: [{ prefix: '/activity' }, { prefix: '/analytics' }] },
  // below sending's public `/webhooks` (the relays' callbacks): the longer prefix wins
  { name: 'webhooks', defaultPort: 3008, routes: [{ prefix: '/webhooks/endpoints' }] },
] as const satisfies readonly ServiceEntry[];

export type ServiceName = (typeof SERVICES)[number]['name'];

/** The services behind the gateway: each has a `<NAME>_URL` variable in distributed mode. */
export type UpstreamName = Exclude<ServiceName, 'gateway'>;

export const SERVICE_NAMES: readonly ServiceName[] = SERVICES.map((s) => s.name);

export const UPSTREAMS: readonly UpstreamName[] = SERVICES.filter(
  (s): s is Extract<(typeof SERVICES)[number], { name: UpstreamName }> => !('edge' in s),
).map((s) => s.name);

/** The variable naming where a service listens, for its callers (the gateway's proxy, internal clients): `CONTACTS_URL`. */
export function urlVariableOf(name: UpstreamName): `${Uppercase<UpstreamName>}_URL` {
  return `${name.toUpperCase() as Uppercase<UpstreamName>}_URL`;
}

export function serviceEntry(name: string): ServiceEntry {
  const entry = (SERVICES as readonly ServiceEntry[]).find((s) => s.name === name);
  if (!entry) throw new Error(`unknown service "${name}"; known: ${SERVICE_NAMES.join(', ')}`);
  return entry;
}

/** Services the gateway routes to in distributed mode. */
export type Upstream = 'contacts' | 'sending' | 'campaigns' | 'segments' | 'workflows' | 'domains' | 'analytics';

export interface RouteRule {
  prefix: string;
  service: Upstream;
  /** Also accepts the project's public key (client-side tracking). */
  publicKey?: boolean;
  /** No key at all: links inside emails and the email infrastructure's callbacks (the service checks their signatures). */
  public?: boolean;
}

/**
 * Which service owns which public path (the architecture's routing table). Every path here is
 * project-scoped (a secret key, or a dashboard session naming its project with X-Project-Id)
 * except the `public` ones, whose requests carry their own signatures.
 * The gateway's own routes (/auth, /users, /projects, /config) are not in the table.
 */
export const ROUTES: readonly RouteRule[] = [
  { prefix: '/t', service: 'sending', public: true },
  { prefix: '/unsubscribe', service: 'sending', public: true },
  { prefix: '/subscribe', service: 'sending', public: true },
  { prefix: '/manage', service: 'sending', public: true },
  { prefix: '/webhooks', service: 'sending', public: true },
  { prefix: '/uploads/files', service: 'sending', public: true },
  { prefix: '/v1/track', service: 'contacts', publicKey: true },
  { prefix: '/contacts', service: 'contacts' },
  { prefix: '/events', service: 'contacts' },
  { prefix: '/v1/send', service: 'sending' },
  { prefix: '/v1/verify', service: 'sending' },
  { prefix: '/templates', service: 'sending' },
  { prefix: '/uploads', service: 'sending' },
  { prefix: '/domains', service: 'domains' },
  { prefix: '/segments', service: 'segments' },
  { prefix: '/campaigns', service: 'campaigns' },
  { prefix: '/workflows', service: 'workflows' },
  { prefix: '/activity', service: 'analytics' },
  { prefix: '/analytics', service: 'analytics' },
];

/** The rule owning a request path (query string ignored), if any. */
export function routeFor(url: string): RouteRule | undefined {
  const path = url.split('?', 1)[0]!;
  return ROUTES.find((r) => path === r.prefix || path.startsWith(`${r.prefix}/`));
}

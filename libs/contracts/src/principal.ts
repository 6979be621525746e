/**
 * Who is calling, as established by the gateway and passed to every service. API-key callers are
 * bound to one project; dashboard callers are users acting on a project they are a member of.
 */
export type ProjectRole = 'OWNER' | 'ADMIN' | 'MEMBER';

export type Principal =
  | { kind: 'api-key'; projectId: string; keyType: 'secret' | 'public' }
  | { kind: 'user'; userId: string; projectId?: string; role?: ProjectRole }
  /** Another Herald service calling an `/internal` route on a project's behalf. */
  | { kind: 'service'; service: string; projectId: string };

/** Header carrying the gateway-signed principal JWT to a service. */
export const PRINCIPAL_HEADER = 'x-herald-principal';

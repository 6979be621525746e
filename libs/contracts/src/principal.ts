/**
 * Who is calling, as established by the gateway and passed to every service. API-key callers are
 * bound to one project; dashboard callers are users acting on a project they are a member of.
 */
export type ProjectRole = 'OWNER' | 'ADMIN' | 'MEMBER';

export type Principal =
  /** `testMode`: a test key (`sk_test_…`, `pk_test_…`): its sends never reach a relay (docs/test-mode.md). */
  | { kind: 'api-key'; projectId: string; keyType: 'secret' | 'public'; testMode?: true }
  | { kind: 'user'; userId: string; projectId?: string; role?: ProjectRole }
  /** Another Herald service calling an `/internal` route on a project's behalf. */
  | { kind: 'service'; service: string; projectId: string };

/** Header carrying the gateway-signed principal JWT to a service. */
export const PRINCIPAL_HEADER = 'x-herald-principal';

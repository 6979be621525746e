import { Herald, HeraldError } from '@herald/sdk';

/**
 * The dashboard's only way to the API: `@herald/sdk` in session mode against this origin: no key,
 * the session cookie (HttpOnly, set by POST /auth/login) sent by the browser, and project-scoped
 * routes naming the project with `X-Project-Id`.
 */
const clients = new Map<string, Herald>();

/** The client for the account's own routes (no project), or for one project's routes. */
export function api(projectId?: string): Herald {
  const key = projectId ?? '';
  let client = clients.get(key);
  if (!client) {
    client = new Herald({ session: { projectId }, baseUrl: location.origin, maxRetries: 1 });
    clients.set(key, client);
  }
  return client;
}

/** The field errors of a failed call, by field name (the API's `error.errors`). */
export function fieldErrors(error: unknown): Record<string, string> {
  if (!(error instanceof HeraldError)) return {};
  const out: Record<string, string> = {};
  for (const e of error.errors ?? []) if (e.field && !out[e.field]) out[e.field] = e.message;
  return out;
}

/** What to tell the user about a failed call. */
export function messageOf(error: unknown): string {
  if (error instanceof HeraldError) return error.message;
  return error instanceof Error ? error.message : String(error);
}

export const isStatus = (error: unknown, status: number) => error instanceof HeraldError && error.status === status;

import { Herald, HeraldError } from '@herald/sdk';

/**
 * The dashboard's only way to the API: `@herald/sdk` against this origin, authenticated by the
 * session cookie (HttpOnly, set by POST /auth/login) instead of a key. The SDK sends
 * `Authorization: Bearer <apiKey>`; the dashboard has no key, so its fetch drops that header and
 * sends the cookie (same origin). Project-scoped routes name the project with `X-Project-Id`.
 */
const sessionFetch: typeof fetch = (input, init) => {
  const headers = new Headers(init?.headers);
  headers.delete('authorization');
  return fetch(input, { ...init, headers, credentials: 'same-origin' });
};

const clients = new Map<string, Herald>();

/** The client for the account's own routes (no project), or for one project's routes. */
export function api(projectId?: string): Herald {
  const key = projectId ?? '';
  let client = clients.get(key);
  if (!client) {
    client = new Herald({
      apiKey: 'session', // unused: sessionFetch drops the Authorization header
      baseUrl: location.origin,
      fetch: sessionFetch,
      maxRetries: 1,
      headers: projectId ? { 'x-project-id': projectId } : {},
    });
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

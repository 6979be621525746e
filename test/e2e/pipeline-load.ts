import pg from 'pg';
import { eventually, principalHeaders, type ServiceProcess } from '@herald/testing';

/** Counts read through the services' own HTTP APIs. */
/** How a test authenticates: an API key through the gateway, or a gateway-signed principal to a service. */
export type Auth = Record<string, string>;
export const asProject = (projectId: string): Auth => principalHeaders(projectId);

export async function trackedTotal(contacts: ServiceProcess, auth: Auth): Promise<number> {
  const res = await fetch(`${contacts.url}/events/stats`, { headers: auth });
  if (res.status !== 200) throw new Error(`events/stats answered ${res.status}`);
  return ((await res.json()) as { total: number }).total;
}

export async function countedTotal(analytics: ServiceProcess, auth: Auth): Promise<number> {
  const res = await fetch(`${analytics.url}/analytics/top-events?limit=100`, { headers: auth });
  if (res.status !== 200) throw new Error(`analytics/top-events answered ${res.status}`);
  return ((await res.json()) as { events: { count: number }[] }).events.reduce((n, e) => n + e.count, 0);
}

/**
 * Sends `total` tracked events with `concurrency` requests in flight. A request that fails because
 * its process was killed is retried (like any client would) until it succeeds; so the source of
 * truth for "what was written" is the contacts service's own count, not the number of requests.
 * `onProgress` runs after each success (used to kill processes mid-stream).
 */
export async function trackMany(
  target: () => ServiceProcess,
  auth: Auth,
  total: number,
  concurrency: number,
  onProgress: (done: number) => Promise<void> | void,
): Promise<void> {
  let next = 0;
  let done = 0;
  const worker = async () => {
    while (next < total) {
      const i = next++;
      for (let attempt = 0; ; attempt++) {
        try {
          const res = await fetch(`${target().url}/v1/track`, {
            method: 'POST',
            headers: { ...auth, 'content-type': 'application/json' },
            body: JSON.stringify({ email: `user${i % 50}@example.com`, event: `event-${i % 5}`, data: { n: i } }),
          });
          if (res.status === 200) break;
          if (res.status < 500) throw new Error(`track answered ${res.status}: ${await res.text()}`);
        } catch (err) {
          if (err instanceof Error && err.message.startsWith('track answered')) throw err;
          if (attempt > 600) throw err;
        }
        await new Promise((r) => setTimeout(r, 50));
      }
      done++;
      await onProgress(done);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
}

/**
 * The proof: analytics ends with exactly the count contacts wrote (nothing lost), the outbox is
 * drained, and a second look, after a later marker event has been counted, still agrees (no late
 * duplicate arrived).
 */
export async function expectConverged(
  contacts: ServiceProcess,
  analytics: ServiceProcess,
  auth: Auth,
  databaseUrl: string,
  minimum: number,
): Promise<void> {
  const written = await trackedTotal(contacts, auth);
  if (written < minimum) throw new Error(`only ${written} of ${minimum} events were written`);
  await eventually(async () => (await countedTotal(analytics, auth)) === written, {
    timeoutMs: 60_000,
    message: `analytics never counted the ${written} events written`,
  });
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await eventually(
      async () =>
        Number(
          (await client.query('SELECT count(*) AS n FROM contacts.outbox WHERE published_at IS NULL')).rows[0].n,
        ) === 0,
    );
  } finally {
    await client.end();
  }
  // one more event through the same path, counted, proves the pipeline has delivered since: a late
  // duplicate of the earlier ones would be counted by now
  const marker = await fetch(`${contacts.url}/v1/track`, {
    method: 'POST',
    headers: { ...auth, 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'user0@example.com', event: 'converged-marker' }),
  });
  if (marker.status !== 200) throw new Error(`the marker event answered ${marker.status}`);
  await eventually(async () => (await countedTotal(analytics, auth)) >= written + 1, {
    timeoutMs: 60_000,
    message: 'analytics never counted the marker event',
  });
  const final = (await countedTotal(analytics, auth)) - 1;
  if (final !== written) throw new Error(`analytics counted ${final} events, contacts wrote ${written}`);
}

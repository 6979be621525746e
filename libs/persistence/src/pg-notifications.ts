import { WatchedClient } from './connection-watchdog.js';

/** How often the LISTEN connection proves it is alive. */
const HEARTBEAT_MS = 10_000;

/**
 * One LISTEN connection per process and database for every channel (outbox relays, job queues).
 * PostgreSQL wakes every listening backend on each NOTIFY whatever its channel, so one listener
 * instead of one per relay and queue saves work on every commit. Pollers keep a fallback interval:
 * if the connection drops, wake-ups are only late until it is re-established. A connection that dies
 * without a word (a half-open network) is found by a heartbeat: its `SELECT 1` gets no answer, the
 * connection watchdog ends it, and it is re-established like one that dropped.
 */
export class PgNotifications {
  private static readonly hubs = new Map<string, PgNotifications>();
  private client?: WatchedClient;
  private connecting?: Promise<WatchedClient>;
  private heartbeat?: NodeJS.Timeout;
  private readonly handlers = new Map<string, Set<(payload: string) => void>>();
  private queue: Promise<unknown> = Promise.resolve();

  private constructor(private readonly url: string) {}

  static for(url: string): PgNotifications {
    let hub = PgNotifications.hubs.get(url);
    if (!hub) PgNotifications.hubs.set(url, (hub = new PgNotifications(url)));
    return hub;
  }

  /** Calls `handler` with the payload of every NOTIFY of `channel` until the returned function is called. */
  async listen(channel: string, handler: (payload: string) => void): Promise<() => Promise<void>> {
    const set = this.handlers.get(channel) ?? new Set();
    const first = set.size === 0;
    set.add(handler);
    this.handlers.set(channel, set);
    if (first) await this.serially(async () => void (await (await this.connect()).query(`LISTEN "${channel}"`)));
    return async () => {
      set.delete(handler);
      if (set.size > 0) return;
      this.handlers.delete(channel);
      if (this.handlers.size === 0) await this.close();
      else
        await this.serially(
          async () => void (await this.client?.query(`UNLISTEN "${channel}"`).catch(() => undefined)),
        );
    };
  }

  /** LISTEN/UNLISTEN one at a time on the shared connection. */
  private serially(step: () => Promise<void>): Promise<void> {
    const run = this.queue.then(step, step);
    this.queue = run.catch(() => undefined);
    return run;
  }

  private connect(): Promise<WatchedClient> {
    if (this.client) return Promise.resolve(this.client);
    this.connecting ??= (async () => {
      const client = new WatchedClient({ connectionString: this.url, application_name: 'herald-notifications' });
      client.on('notification', (n) => this.handlers.get(n.channel)?.forEach((h) => h(n.payload ?? '')));
      client.on('error', () => undefined);
      client.on('end', () => {
        clearInterval(this.heartbeat);
        if (this.client !== client) return;
        this.client = undefined;
        this.connecting = undefined;
        if (this.handlers.size > 0) setTimeout(() => void this.relisten(), 1000).unref();
      });
      try {
        await client.connect();
      } catch (err) {
        this.connecting = undefined;
        throw err;
      }
      this.client = client;
      this.heartbeat = setInterval(() => void client.query('SELECT 1').catch(() => undefined), HEARTBEAT_MS);
      this.heartbeat.unref();
      return client;
    })();
    return this.connecting;
  }

  private async relisten(): Promise<void> {
    try {
      const client = await this.connect();
      await this.serially(async () => {
        for (const channel of this.handlers.keys()) await client.query(`LISTEN "${channel}"`);
      });
    } catch {
      setTimeout(() => void this.relisten(), 2000).unref();
    }
  }

  private async close(): Promise<void> {
    clearInterval(this.heartbeat);
    const client = this.client;
    this.client = undefined;
    this.connecting = undefined;
    await client?.end().catch(() => undefined);
  }
}

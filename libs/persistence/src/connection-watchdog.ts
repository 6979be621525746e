import { createLogger } from '@herald/core';
import pg from 'pg';

/**
 * A database connection can die without a word: the server's host gone, a NAT entry or a proxy
 * dropped, a half-open TCP connection. A query sent on it then waits for ever, and so do the request
 * or consumer that sent it and, one by one, the pool's other connections. No per-query time limit
 * cures this without also killing the queries that are legitimately long (a large segment's
 * compute, a migration), so the watchdog asks the server instead: a connection whose query has been
 * out longer than `stalledQueryMs` while its backend is not running anything (idle, idle in a
 * transaction, or gone) is dead. Its socket is destroyed, so the query fails, the pool discards the
 * connection and the caller's retry takes a new one; a backend left behind (a transaction holding
 * locks) is terminated. A query the server is still running is left alone, however long it takes.
 * Connecting is bounded by `connectTimeoutMs`.
 */
export interface ConnectionWatchdogSettings {
  /** How long a query may be out before the watchdog asks the server whether its connection is alive. */
  stalledQueryMs: number;
  /** Longest a new connection may take to be ready. */
  connectTimeoutMs: number;
}

export const DEFAULT_CONNECTION_WATCHDOG: Readonly<ConnectionWatchdogSettings> = Object.freeze({
  stalledQueryMs: 15_000,
  connectTimeoutMs: 10_000,
});

const log = createLogger('persistence.watchdog');
let settings: ConnectionWatchdogSettings = { ...DEFAULT_CONNECTION_WATCHDOG };
const watched = new Set<WatchedClient>();
let timer: NodeJS.Timeout | undefined;
let checking = false;

/** Sets the process's watchdog settings (at boot, from DATABASE_STALLED_QUERY_MS and DATABASE_CONNECT_TIMEOUT_MS). */
export function configureConnectionWatchdog(next: Partial<ConnectionWatchdogSettings>): void {
  settings = { ...settings, ...next };
  if (timer) {
    clearInterval(timer);
    timer = undefined;
    schedule();
  }
}

type Callback = (...args: unknown[]) => void;

/**
 * A pg client the watchdog sees: it counts its queries out and when the oldest started. Services get
 * it from their pools (serviceDataSourceOptions' `extra.Client`) and use it for their own
 * connections (the outbox relay's lock, the LISTEN connection).
 */
export class WatchedClient extends pg.Client {
  private out = 0;
  /** When the query at the head of this connection's queue started waiting (undefined: none out). */
  waitingSince: number | undefined;
  readonly settings: pg.ClientConfig;

  constructor(config: pg.ClientConfig | string = {}) {
    const base = typeof config === 'string' ? { connectionString: config } : config;
    const withTimeout = { ...base, connectionTimeoutMillis: base.connectionTimeoutMillis || settings.connectTimeoutMs };
    super(withTimeout);
    this.settings = withTimeout;
    watched.add(this);
    schedule();
    this.once('end', () => watched.delete(this));
    // A connection's error reaches its query and whoever listens (the pool, TypeORM's query runner);
    // with no one listening, as on a client checked out of a pg pool between queries, it would be an
    // uncaught 'error' that ends the process.
    this.on('error', () => undefined);
  }

  /** Counts a query out until its answer (or failure); see `watchedQuery` below. */
  noteQuery(): () => void {
    this.out++;
    this.waitingSince ??= Date.now();
    let settled = false;
    return () => {
      if (settled) return;
      settled = true;
      this.out--;
      this.waitingSince = this.out > 0 ? Date.now() : undefined; // the next in the queue waits from now
    };
  }

  /** Ends this connection at once: its queries fail, and a pool holding it discards it. */
  condemn(why: string): void {
    destroyStream(this, new Error(`database connection stalled: ${why}`));
  }

  /** The backend's process id once connected. */
  get backendPid(): number | undefined {
    return (this as unknown as { processID?: number }).processID ?? undefined;
  }
}

// pg's overloads (text or config, values, callback, or a Submittable) all pass through here; set on
// the prototype so that callers keep pg's typed signatures
WatchedClient.prototype.query = function watchedQuery(this: WatchedClient, ...args: unknown[]) {
  const done = this.noteQuery();
  const last = args[args.length - 1];
  if (typeof last === 'function')
    args[args.length - 1] = (...r: unknown[]) => {
      done();
      (last as Callback)(...r);
    };
  const result = (pg.Client.prototype.query as (...a: unknown[]) => unknown).apply(this, args);
  if (result instanceof Promise) result.then(done, done);
  // a Submittable (a cursor, a stream) is read at its consumer's pace, idle between reads: not watched
  else if (typeof last !== 'function') done();
  return result;
} as pg.Client['query'];

function destroyStream(client: pg.Client, error?: Error): void {
  (client as unknown as { connection: { stream: { destroy(e?: Error): void } } }).connection.stream.destroy(error);
}

function schedule(): void {
  if (timer) return;
  const every = Math.max(100, Math.min(5_000, Math.floor(settings.stalledQueryMs / 3)));
  timer = setInterval(() => void check(), every);
  timer.unref();
}

/** One look: the stalled connections of each server, asked about in one query to that server. */
export async function checkStalledConnections(): Promise<number> {
  const now = Date.now();
  const stalled = [...watched].filter(
    (c) => c.waitingSince !== undefined && now - c.waitingSince > settings.stalledQueryMs && c.backendPid,
  );
  const byServer = new Map<string, WatchedClient[]>();
  for (const c of stalled) {
    const key = JSON.stringify([c.host, c.port, c.database, c.user]);
    byServer.set(key, [...(byServer.get(key) ?? []), c]);
  }
  let condemned = 0;
  for (const clients of byServer.values()) condemned += await judgeOnServer(clients);
  return condemned;
}

async function check(): Promise<void> {
  if (checking) return;
  checking = true;
  try {
    await checkStalledConnections();
  } finally {
    checking = false;
  }
}

async function judgeOnServer(clients: WatchedClient[]): Promise<number> {
  // a plain client (not watched): bounded in connecting and in its one query
  const probe = new pg.Client({
    ...clients[0]!.settings,
    connectionTimeoutMillis: Math.min(5_000, settings.connectTimeoutMs),
    query_timeout: 5_000,
    application_name: 'herald-watchdog',
  });
  probe.on('error', () => undefined);
  let answered = false;
  try {
    await probe.connect();
    const pids = clients.map((c) => c.backendPid!);
    const { rows } = await probe.query<{ pid: number; state: string | null }>(
      'SELECT pid, state FROM pg_stat_activity WHERE pid = ANY($1::int[])',
      [pids],
    );
    answered = true;
    const state = new Map(rows.map((r) => [r.pid, r.state]));
    let condemned = 0;
    for (const c of clients) {
      const s = state.get(c.backendPid!);
      if (s === 'active') continue; // the server is running it: a long query, left alone
      // its answer may have been read meanwhile (an event loop that was busy): only a query still out is judged
      const waitedMs = Date.now() - (c.waitingSince ?? Date.now());
      if (c.waitingSince === undefined || waitedMs <= settings.stalledQueryMs) continue;
      log.warn('database connection stalled: its query has no answer and the server runs nothing for it', {
        pid: c.backendPid,
        backendState: s ?? 'gone',
        waitedMs,
      });
      if (s !== undefined) await probe.query('SELECT pg_terminate_backend($1)', [c.backendPid]).catch(() => undefined);
      c.condemn(`no answer in ${waitedMs} ms, backend ${s ?? 'gone'}`);
      condemned++;
    }
    return condemned;
  } catch {
    return 0; // the server cannot be asked (the network is still away): ask again at the next look
  } finally {
    if (answered) void probe.end().catch(() => undefined);
    else destroyStream(probe); // a probe stuck in a dead network is not waited for
  }
}

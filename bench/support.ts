/**
 * Shared pieces of the contacts benches: a database of their own (on DATABASE_URL's server, or an
 * embedded one), standalone Herald on it, a keep-alive HTTP client, a closed-loop load driver,
 * percentiles, CPU accounting and a small table printer. Everything targets 127.0.0.1.
 */
import { readFileSync } from 'node:fs';
import http from 'node:http';
import { chmod, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import { monitorEventLoopDelay, type ELDHistogram } from 'node:perf_hooks';
import path from 'node:path';
import pg from 'pg';
import { Pool, type Dispatcher } from 'undici';
import { startEmbeddedPostgres } from '@herald/persistence';
import { freePort, ServiceProcess, type TestDnsServer } from '@herald/testing';

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** Nearest-rank percentile of an ascending array. */
export const pct = (sorted: ArrayLike<number>, p: number): number =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;

export const ms = (x: number): string =>
  Number.isFinite(x) ? `${x < 10 ? x.toFixed(2) : x < 100 ? x.toFixed(1) : Math.round(x)} ms` : '—';

export const num = (x: number): string => Math.round(x).toLocaleString('en-US');

export interface Summary {
  count: number;
  p50: number;
  p90: number;
  p99: number;
  max: number;
}

export function summarise(latencies: number[]): Summary {
  const s = Float64Array.from(latencies).sort();
  return { count: s.length, p50: pct(s, 50), p90: pct(s, 90), p99: pct(s, 99), max: s[s.length - 1] ?? NaN };
}

/** Prints rows as an aligned table (first row is the header). */
export function printTable(rows: string[][]): void {
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => (r[i] ?? '').length)));
  const line = (r: string[]) => r.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
  console.log(line(rows[0]!));
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const r of rows.slice(1)) console.log(line(r));
}

export interface BenchDatabase {
  /** The bench's own database. */
  url: string;
  /** Scratch directory (standalone data dir, embedded server). */
  dir: string;
  close(): Promise<void>;
}

/**
 * A fresh database for one bench: created on DATABASE_URL's server (dropped at the end), else an
 * embedded server in a temporary directory (removed at the end).
 */
export async function benchDatabase(name: string): Promise<BenchDatabase> {
  const db = await createBenchDatabase(name);
  let closed: Promise<void> | undefined;
  const close = () => (closed ??= db.close().finally(() => openDatabases.delete(close)));
  openDatabases.add(close);
  return { ...db, close };
}

/** Databases of this run not yet closed: an interrupted bench (SIGINT, SIGTERM) drops them before it exits. */
const openDatabases = new Set<() => Promise<void>>();
for (const signal of ['SIGINT', 'SIGTERM'] as const)
  process.once(signal, () => {
    console.error(`\n${signal}: dropping the bench databases`);
    void Promise.allSettled([...openDatabases].map((close) => close())).then(() => process.exit(130));
  });

async function createBenchDatabase(name: string): Promise<BenchDatabase> {
  const dir = await mkdtemp(path.join(os.tmpdir(), `herald-bench-${name}-`));
  await chmod(dir, 0o755);
  const server = process.env.DATABASE_URL;
  if (!server) {
    const embedded = await startEmbeddedPostgres({ dataDir: path.join(dir, 'pg') });
    return {
      url: embedded.url,
      dir,
      async close() {
        try {
          await embedded.stop();
        } finally {
          await rm(dir, { recursive: true, force: true });
        }
      },
    };
  }
  const dbName = `herald_bench_${name.replace(/\W/g, '_')}_${Date.now()}`;
  const admin = new pg.Client({ connectionString: server });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${dbName}`);
  await admin.end();
  const u = new URL(server);
  u.pathname = `/${dbName}`;
  return {
    url: u.toString(),
    dir,
    async close() {
      const c = new pg.Client({ connectionString: server });
      await c.connect();
      try {
        await c.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
      } finally {
        await c.end();
      }
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** The Node flags `npm start` runs Herald with (scripts/node-env.sh reads the same file); benches run from the repository root. */
export const START_NODE_OPTIONS = readFileSync('scripts/node-options', 'utf8').trim();

/** Node's module compile cache where `npm start` keeps it (scripts/node-env.sh; docs/operations.md, Boot). */
export const START_COMPILE_CACHE =
  process.env.NODE_COMPILE_CACHE || path.join(process.env.TMPDIR || '/tmp', 'herald-node-compile-cache');

/**
 * Herald in standalone mode on the bench database (migrated at start), with its data directory in
 * the bench's scratch directory and a rate limit high enough not to interfere.
 * BENCH_POOL_SIZE, when set, is passed as DATABASE_POOL_SIZE (default: the product's, 4 per service);
 * Node runs with the flags, malloc arenas and compile cache `npm start` gives it (scripts/node-env.sh), then BENCH_HERALD_NODE_OPTIONS
 * (e.g. `--import <a preload that runs the inspector profiler>`, or another `--max-semi-space-size`);
 * BENCH_HERALD_ENV adds settings, `NAME=value` pairs separated by commas (an A/B of a setting).
 */
export async function startStandalone(db: BenchDatabase, extra: Record<string, string> = {}): Promise<ServiceProcess> {
  const proc = new ServiceProcess('standalone', await freePort(), {
    DATABASE_URL: db.url,
    HERALD_DATA_DIR: path.join(db.dir, 'standalone'),
    RATE_LIMIT_PER_MINUTE: '100000000',
    LOG_LEVEL: 'warn',
    ...(process.env.BENCH_POOL_SIZE ? { DATABASE_POOL_SIZE: process.env.BENCH_POOL_SIZE } : {}),
    NODE_OPTIONS: [START_NODE_OPTIONS, process.env.BENCH_HERALD_NODE_OPTIONS].filter(Boolean).join(' '),
    MALLOC_ARENA_MAX: '2', // as scripts/node-env.sh
    NODE_COMPILE_CACHE: START_COMPILE_CACHE,
    ...Object.fromEntries(
      (process.env.BENCH_HERALD_ENV ?? '')
        .split(',')
        .filter((pair) => pair.includes('='))
        .map((pair) => [pair.slice(0, pair.indexOf('=')).trim(), pair.slice(pair.indexOf('=') + 1)]),
    ),
    ...extra,
  });
  await proc.start({ timeoutMs: 90_000 });
  return proc;
}

export interface HttpResult {
  status: number;
  body: string;
}

/**
 * A keep-alive HTTP/1.1 client for load loops: an undici pool of `maxSockets` connections. The
 * load driver shares the machine with Herald and PostgreSQL, so it should take as little CPU as
 * it can: undici needs about half of what node:http's Agent does per request.
 */
export function httpClient(baseUrl: string, maxSockets: number) {
  const pool = new Pool(baseUrl, { connections: maxSockets, pipelining: 1, keepAliveTimeout: 60_000 });
  const request = async (
    method: string,
    urlPath: string,
    headers: Record<string, string>,
    body?: string,
  ): Promise<HttpResult> => {
    const res = await pool.request({ method: method as Dispatcher.HttpMethod, path: urlPath, headers, body });
    return { status: res.statusCode, body: await res.body.text() };
  };
  return { request, close: () => void pool.destroy() };
}

/** CPU use over an interval: `machine` in % of all cores, the others in cores (1 = one core all the time). */
export interface CpuUse {
  /** The whole machine (from /proc/stat), 0–100, whatever runs on it. */
  machine: number;
  /** This process (the load driver). */
  driver: number;
  /** The processes this one spawned (the Herald server). */
  children: number;
  /** The PostgreSQL backends given by `pgPids` (asked at the start and at the end). */
  pg: number;
}

/** Starts measuring CPU use; the function it returns ends the interval. */
export async function cpuMeter(pgPids?: () => Promise<number[]>): Promise<() => Promise<CpuUse>> {
  const machine0 = await machineTicks();
  const child0 = await childTicks();
  const pg0 = pgPids ? await pidTicks(await pgPids()) : new Map<number, number>();
  const usage0 = process.cpuUsage();
  const started = performance.now();
  return async () => {
    const elapsedMs = performance.now() - started;
    const usage = process.cpuUsage(usage0);
    const machine1 = await machineTicks();
    const child1 = await childTicks();
    const pg1 = pgPids ? await pidTicks(await pgPids()) : new Map<number, number>();
    let pgTicks = 0;
    for (const [pid, t] of pg1) pgTicks += t - (pg0.get(pid) ?? 0);
    const tickMs = 1000 / CLOCK_TICKS;
    return {
      machine:
        machine1.total === machine0.total
          ? 0
          : (100 * (machine1.busy - machine0.busy)) / (machine1.total - machine0.total),
      driver: (usage.user + usage.system) / 1000 / elapsedMs,
      children: ((child1 - child0) * tickMs) / elapsedMs,
      pg: (pgTicks * tickMs) / elapsedMs,
    };
  };
}

export interface LoadResult {
  latencies: number[];
  ok: number;
  errors: number;
  firstError?: string;
  elapsedMs: number;
  cpu: CpuUse;
}

export interface LoadOptions {
  /** PostgreSQL backend pids to account CPU for. */
  pgPids?: () => Promise<number[]>;
}

/**
 * Closed loop: `concurrency` workers each run `op` back to back until `durationMs` has passed.
 * An op that throws counts as an error (its message is kept once).
 */
export async function closedLoop(
  concurrency: number,
  durationMs: number,
  op: (worker: number) => Promise<void>,
  options: LoadOptions = {},
): Promise<LoadResult> {
  const latencies: number[] = [];
  let errors = 0;
  let firstError: string | undefined;
  const meter = await cpuMeter(options.pgPids);
  const started = performance.now();
  const deadline = started + durationMs;
  await Promise.all(
    Array.from({ length: concurrency }, async (_, w) => {
      while (performance.now() < deadline) {
        const t = performance.now();
        try {
          await op(w);
          latencies.push(performance.now() - t);
        } catch (err) {
          errors++;
          firstError ??= err instanceof Error ? err.message : String(err);
        }
      }
    }),
  );
  const elapsedMs = performance.now() - started;
  return { latencies, ok: latencies.length, errors, firstError, elapsedMs, cpu: await meter() };
}

/**
 * Open loop: `op` is started `ratePerSecond` times a second on a fixed schedule for `durationMs`,
 * whatever the answers — the offered load of many independent clients. Each latency counts from
 * the request's scheduled start, so a stall shows as latency of every request it delays (no
 * coordinated omission), including time spent waiting for a free connection. `op` is given that
 * start (`performance.now()`'s clock): the schedule begins after the CPU meter's first reading, which
 * reads every process's stat (80–100 ms on a shared machine, more under load), so a schedule
 * computed before the call would start early by that much. `elapsedMs` runs to
 * the last answer, so a server that cannot keep up shows a lower rate than offered.
 *
 * With BENCH_TIMELINE set it also prints to stderr, per 500 ms of schedule, the wall-clock time,
 * requests, p50, p99 and max (to line a tail up with a server's log), and this process's own
 * event-loop delay (its stalls count as latency too).
 */
export async function openLoop(
  ratePerSecond: number,
  durationMs: number,
  op: (n: number, scheduledAt: number) => Promise<void>,
  options: LoadOptions = {},
): Promise<LoadResult> {
  const latencies: number[] = [];
  const timeline = process.env.BENCH_TIMELINE ? new Map<number, number[]>() : undefined;
  const loopDelay = timeline ? monitorEventLoopDelay({ resolution: 1 }) : undefined;
  loopDelay?.enable();
  let errors = 0;
  let firstError: string | undefined;
  const meter = await cpuMeter(options.pgPids);
  const interval = 1000 / ratePerSecond;
  const total = Math.floor((ratePerSecond * durationMs) / 1000);
  const running: Promise<void>[] = [];
  const started = performance.now();
  let issued = 0;
  while (issued < total) {
    const due = Math.min(total, Math.floor((performance.now() - started) / interval) + 1);
    for (; issued < due; issued++) {
      const scheduled = started + issued * interval;
      running.push(
        op(issued, scheduled).then(
          () => {
            const latency = performance.now() - scheduled;
            latencies.push(latency);
            if (timeline) {
              const bucket = Math.floor((scheduled - started) / 500);
              const values = timeline.get(bucket);
              if (values) values.push(latency);
              else timeline.set(bucket, [latency]);
            }
          },
          (err: unknown) => {
            errors++;
            firstError ??= err instanceof Error ? err.message : String(err);
          },
        ),
      );
    }
    await sleep(1);
  }
  await Promise.all(running);
  const elapsedMs = performance.now() - started;
  if (timeline && loopDelay) printTimeline(timeline, Date.now() - (performance.now() - started), loopDelay);
  return { latencies, ok: latencies.length, errors, firstError, elapsedMs, cpu: await meter() };
}

function printTimeline(timeline: Map<number, number[]>, startedAt: number, loopDelay: ELDHistogram): void {
  loopDelay.disable();
  for (const [bucket, values] of [...timeline].sort((a, b) => a[0] - b[0])) {
    const s = summarise(values);
    console.error(
      `${new Date(startedAt + bucket * 500).toISOString().slice(11, 23)}  n=${values.length}  p50=${ms(s.p50)}  p99=${ms(s.p99)}  max=${ms(s.max)}`,
    );
  }
  console.error(
    `load driver's event-loop delay: p50 ${ms(loopDelay.percentile(50) / 1e6)}, p99 ${ms(loopDelay.percentile(99) / 1e6)}, max ${ms(loopDelay.max / 1e6)}`,
  );
}

/** Share of all cores busy over `durationMs` (whatever else runs on the machine), 0–100. */
export async function machineBusy(durationMs: number): Promise<number> {
  const meter = await cpuMeter();
  await sleep(durationMs);
  return (await meter()).machine;
}

/** utime + stime (clock ticks) of the given processes (those still alive). */
async function pidTicks(pids: number[]): Promise<Map<number, number>> {
  const out = new Map<number, number>();
  for (const pid of pids) {
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => '');
    if (!stat) continue;
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' '); // fields from 3 (state) on
    out.set(pid, Number(fields[11]) + Number(fields[12])); // utime, stime
  }
  return out;
}

/** Pids of the PostgreSQL backends connected to the database of `url` (PostgreSQL on this host). */
export function backendPids(client: pg.Pool | pg.Client, url: string): () => Promise<number[]> {
  const dbName = decodeURIComponent(new URL(url).pathname.slice(1));
  return async () =>
    (await client.query(`SELECT pid FROM pg_stat_activity WHERE datname = $1`, [dbName])).rows.map(
      (r: { pid: number }) => r.pid,
    );
}

/** Connections the server can still accept, keeping `margin` for others. */
export async function freeConnections(client: pg.Pool | pg.Client, margin = 15): Promise<number> {
  const r = await client.query(
    `SELECT current_setting('max_connections')::int - (SELECT count(*) FROM pg_stat_activity) AS n`,
  );
  return Math.max(1, Number(r.rows[0].n) - margin);
}

const CLOCK_TICKS = 100; // USER_HZ on Linux

/** utime + stime (clock ticks) of the direct children of this process. */
async function childTicks(): Promise<number> {
  let total = 0;
  for (const entry of await readdir('/proc').catch(() => [] as string[])) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = await readFile(`/proc/${entry}/stat`, 'utf8').catch(() => '');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' '); // fields from 3 (state) on
    if (Number(fields[1]) !== process.pid) continue; // ppid
    total += Number(fields[11]) + Number(fields[12]); // utime, stime
  }
  return total;
}

async function machineTicks(): Promise<{ busy: number; total: number }> {
  try {
    const line = (await readFile('/proc/stat', 'utf8')).split('\n', 1)[0]!;
    const v = line.trim().split(/\s+/).slice(1).map(Number);
    const total = v.reduce((a, b) => a + b, 0);
    const idle = (v[3] ?? 0) + (v[4] ?? 0);
    return { busy: total - idle, total };
  } catch {
    return { busy: 0, total: 0 };
  }
}

/** A contact id as the service makes them (`cnt_` + 26 chars), built in SQL from a row number. */
export const sqlContactId = (n: string) => `'cnt_' || lpad(to_hex(${n}), 10, '0') || substr(md5(${n}::text), 1, 16)`;

/**
 * Waits until the contacts outbox (`'all'`: every service's) has nothing unpublished, or the time is
 * up; ms taken, or -1. In standalone an event stays unpublished until every consumer has applied it
 * (InProcessBus), so every outbox drained means every event's consumers are done with it.
 */
export async function waitOutboxDrained(
  client: pg.Pool | pg.Client,
  timeoutMs: number,
  which: 'contacts' | 'all' = 'contacts',
  pollMs = 250,
): Promise<{ pendingAtStart: number; drainMs: number }> {
  const started = performance.now();
  const schemas =
    which === 'contacts'
      ? ['contacts']
      : (
          await client.query<{ schema: string }>(
            `SELECT table_schema AS schema FROM information_schema.tables WHERE table_name = 'outbox' ORDER BY 1`,
          )
        ).rows.map((r) => r.schema);
  const count = schemas
    .map((schema) => `(SELECT count(*) FROM "${schema}".outbox WHERE published_at IS NULL)`)
    .join(' + ');
  const pending = async () => Number((await client.query(`SELECT ${count} AS n`)).rows[0].n);
  const pendingAtStart = await pending();
  let n = pendingAtStart;
  while (n > 0) {
    if (performance.now() - started > timeoutMs) return { pendingAtStart, drainMs: -1 };
    await sleep(pollMs);
    n = await pending();
  }
  return { pendingAtStart, drainMs: performance.now() - started };
}

export interface DbCounters {
  commits: number;
  inserted: number;
  updated: number;
}

/**
 * Transactions committed and rows inserted/updated in the database of `url` so far (pg_stat_database;
 * a busy backend may report late, and reports everything when it disconnects).
 */
export async function dbCounters(client: pg.Pool | pg.Client, url: string): Promise<DbCounters> {
  const dbName = decodeURIComponent(new URL(url).pathname.slice(1));
  const r = await client.query(
    `SELECT xact_commit, tup_inserted, tup_updated FROM pg_stat_database WHERE datname = $1`,
    [dbName],
  );
  const row = r.rows[0] as { xact_commit: string; tup_inserted: string; tup_updated: string };
  return { commits: Number(row.xact_commit), inserted: Number(row.tup_inserted), updated: Number(row.tup_updated) };
}

export const perEvent = (a: DbCounters, b: DbCounters, events: number): DbCounters => ({
  commits: (b.commits - a.commits) / events,
  inserted: (b.inserted - a.inserted) / events,
  updated: (b.updated - a.updated) / events,
});

export interface Answer {
  status: number;
  /** Time to the answer's last byte. */
  ms: number;
  /** The answer's first 2,000 characters. */
  text: string;
}

/**
 * One HTTP request with node:http (any body size, any headers, none added but its length): its
 * status and the time to the answer's last byte, resolved once the body is also sent (a server
 * that answers before reading the body still reads, or drops, the rest: that is part of the
 * request's cost). `fresh`: on a keep-alive connection of its own (node's `agent: false` would ask
 * the server to close it after the answer, under the upload). A server that closes the connection
 * under the upload may have answered: its answer is waited for, up to 2 s after the error; without
 * one, status 0, the time to the error and its code (`ECONNRESET`, `EPIPE`) as text.
 */
export function requestOnce(
  url: string,
  method: string,
  headers: Record<string, string>,
  body: string | Buffer,
  fresh = false,
): Promise<Answer> {
  return new Promise((resolve) => {
    const started = performance.now();
    const agent = fresh ? new http.Agent({ keepAlive: true, maxSockets: 1 }) : undefined;
    let answer: Answer | undefined;
    let sent = false;
    let text = '';
    let giveUp: NodeJS.Timeout | undefined;
    const settle = () => {
      if (!answer || !sent) return;
      clearTimeout(giveUp);
      agent?.destroy();
      resolve(answer);
    };
    const answered = (status: number) => {
      answer ??= { status, ms: performance.now() - started, text };
      // a server that answered and then neither reads nor closes: the upload is given up after 60 s
      if (!sent && !giveUp)
        giveUp = setTimeout(() => req.destroy(new Error('the server stopped reading the body')), 60_000);
      settle();
    };
    const req = http.request(
      url,
      { method, headers: { ...headers, 'content-length': Buffer.byteLength(body) }, ...(agent ? { agent } : {}) },
      (res) => {
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text = (text + chunk).slice(0, 2000)));
        for (const event of ['end', 'error', 'close']) res.on(event, () => answered(res.statusCode ?? 0));
      },
    );
    req.on('finish', () => {
      sent = true;
      settle();
    });
    req.on('error', (err: NodeJS.ErrnoException) => {
      sent = true;
      const failedAt = performance.now();
      setTimeout(() => {
        answer ??= { status: 0, ms: failedAt - started, text: err.code ?? err.message };
        settle();
      }, 2000);
      settle();
    });
    req.end(body);
  });
}

/**
 * A sender domain of the project (`headers` carry its secret key) verified over the loopback DNS
 * server Herald was started with (DNS_SERVERS), once the sending service knows it (read from the
 * database of `admin`); its name.
 */
export async function verifiedSenderDomain(
  baseUrl: string,
  headers: Record<string, string>,
  dns: TestDnsServer,
  admin: pg.Pool | pg.Client,
): Promise<string> {
  const domain = `bench-${Date.now().toString(36)}.example.test`;
  const created = await requestOnce(`${baseUrl}/domains`, 'POST', headers, JSON.stringify({ domain }));
  if (created.status !== 201) throw new Error(`POST /domains answered ${created.status}: ${created.text}`);
  const { id, records } = JSON.parse(created.text) as { id: string; records: { name: string; value: string }[] };
  for (const r of records) dns.set(r.name, 'TXT', r.value);
  const checked = await requestOnce(`${baseUrl}/domains/${id}/verify`, 'GET', headers, '');
  if (!checked.text.includes('"verified"')) throw new Error(`the domain was not verified: ${checked.text}`);
  for (const deadline = performance.now() + 30_000; ; await sleep(50)) {
    const r = await admin.query(`SELECT verified FROM sending.sender_domains WHERE domain_id = $1`, [id]);
    if (r.rows[0]?.verified) return domain;
    if (performance.now() > deadline) throw new Error('the sending service never learned of the verified domain');
  }
}

export interface ImportJob {
  status: string;
  totalRows: number;
  imported: number;
  updated: number;
  skipped: number;
  errors: { row: number; reason: string }[];
}

/**
 * `POST /contacts/import` of `csv` (multipart, as the e2e tests upload), `afterUpload` once it is
 * accepted, then its job polled every 100 ms until completed or failed: the upload's status, the
 * time from its start to the end, and the job (undefined when the upload was refused).
 */
export async function importAndWait(
  baseUrl: string,
  headers: Record<string, string>,
  csv: string,
  timeoutMs: number,
  afterUpload?: () => Promise<void>,
): Promise<{ status: number; ms: number; text: string; job?: ImportJob }> {
  const form = new FormData();
  form.append('file', new Blob([csv], { type: 'text/csv' }), 'contacts.csv');
  const { authorization } = headers;
  const auth = authorization ? { authorization } : {};
  const started = performance.now();
  const res = await fetch(`${baseUrl}/contacts/import`, { method: 'POST', headers: auth, body: form });
  const text = await res.text();
  if (res.status !== 202) return { status: res.status, ms: performance.now() - started, text };
  const { jobId } = JSON.parse(text) as { jobId: string };
  await afterUpload?.();
  for (;;) {
    const job = (await (await fetch(`${baseUrl}/contacts/import/${jobId}`, { headers: auth })).json()) as ImportJob;
    if (job.status === 'completed' || job.status === 'failed')
      return { status: res.status, ms: performance.now() - started, text, job };
    if (performance.now() - started > timeoutMs)
      throw new Error(`import ${jobId} not done after ${timeoutMs} ms: ${JSON.stringify(job)}`);
    await sleep(100);
  }
}

/**
 * The longest event-loop delay of the Herald scraped at `metricsUrl` (its METRICS_PORT's /metrics,
 * `ServiceProcess.metricsUrl`) since the previous call, in ms: the
 * herald_nodejs_eventloop_lag_max_seconds gauge, which each scrape resets.
 */
export async function loopStallMs(metricsUrl: string): Promise<number> {
  const text = await (await fetch(metricsUrl)).text();
  return Number(/^herald_nodejs_eventloop_lag_max_seconds (\S+)$/m.exec(text)?.[1] ?? NaN) * 1000;
}

/** The work's result and the longest event-loop stall of the Herald scraped at `metricsUrl` while it ran (a scrape right before and right after). */
export async function withLoopStall<T>(metricsUrl: string, work: () => Promise<T>): Promise<[T, number]> {
  await loopStallMs(metricsUrl);
  const value = await work();
  return [value, await loopStallMs(metricsUrl)];
}

/** Statuses as a table cell: `422`, or `200×3 413×1` when they differ (0, no answer: `none`). */
export function statusCounts(statuses: number[]): string {
  const counts = new Map<string, number>();
  for (const s of statuses)
    counts.set(s === 0 ? 'none' : String(s), (counts.get(s === 0 ? 'none' : String(s)) ?? 0) + 1);
  if (counts.size === 1) return [...counts.keys()][0]!;
  return [...counts].map(([s, n]) => `${s}×${n}`).join(' ');
}

/** What a refused answer said, from Herald's error body: `422 render_failed: <message>` (no answer: `no answer (ECONNRESET)`). */
export function refusalOf(a: Answer): string | undefined {
  if (a.status === 0) return `no answer (${a.text})`;
  if (a.status < 400) return undefined;
  try {
    const e = (JSON.parse(a.text) as { error: { code: string; errors?: { code: string; message: string }[] } }).error;
    const first = e.errors?.[0];
    return `${a.status} ${first ? `${first.code}: ${first.message}` : e.code}`;
  } catch {
    return `${a.status} ${a.text.slice(0, 120)}`;
  }
}

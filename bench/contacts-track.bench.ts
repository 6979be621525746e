/**
 * `/v1/track` throughput and latency: `npm run bench -- contacts-track`.
 * Standalone mode (one process: gateway guard with the project's secret key, contacts, in-process
 * bus) on a project that already has 100 000 contacts (seeded straight into contacts.contacts with
 * SQL, ids `cnt_` + 26 chars). Each event names an existing contact or a new one (half and half)
 * and patches its `plan`. Two runs of BENCH_SECONDS (20) each, after a warm-up:
 *  - capacity: a closed loop of BENCH_CONCURRENCY (64) keep-alive requests in flight, each sent as
 *    soon as the previous answered — the most Herald serves (latency there is 64 / rate, Little's law);
 *  - the target: an open loop offering BENCH_RATE (2 000) events/s on a fixed schedule, as many
 *    independent clients would, each latency counted from the request's scheduled start (a stall
 *    delays every request behind it and shows; up to 256 connections), after 3 s at the same rate on
 *    the same connections (its own row: a fresh client's first second, opening its connections, is
 *    slow and leaves a backlog). Target: ≥ 2 000 events/s sustained with p99 < 50 ms.
 * Both runs are made three times on the same database and project: with READ_YOUR_WRITES=false, then
 * with it (the default), then without it again (A-B-A: the later passes run on tables the earlier
 * ones grew, with autovacuum's work on them): the read-your-writes mechanism's cost on /v1/track
 * (docs/consistency.md; target: capacity and p99 within 10%), read against the mean of the passes
 * without it, printed beside each other.
 *
 * Beside it, with Herald stopped, the same database work straight through `pg` at the same
 * concurrency, one event at a time per connection (no batching) with the statements the service
 * runs: the contact read without a lock, then one guarded statement inserting or updating the
 * contact (or locking it FOR KEY SHARE), inserting the event and the outbox rows, with pg_notify —
 * on as many connections as requests in flight, on the standalone default pool of 4, and without
 * pg_notify; then the shape the service had before (a transaction locking the contact, one
 * statement per step). A LISTEN connection like Herald's is open throughout (PostgreSQL wakes it
 * at each NOTIFY). So the ratio to PostgreSQL's own limit is visible.
 *
 * Columns: CPU of the whole machine, of this process (the load driver), of Herald's process, and
 * of the PostgreSQL backends serving the bench database (from /proc, PostgreSQL on this host), and
 * commits per event (pg_stat_database, counted up to the disconnect of the backends, as they
 * report late). BENCH_POOL_SIZE sets Herald's DATABASE_POOL_SIZE (default 4 per service); BENCH_RAW=0
 * leaves out the raw rows (for quick A/B runs of Herald alone); BENCH_TIMELINE=1 prints each open
 * loop per 500 ms (wall clock, p50, p99, max) and the load driver's event-loop delay, to stderr.
 */
import { randomUUID } from 'node:crypto';
import os from 'node:os';
import pg from 'pg';
import { accountWithProject, bearer } from '@herald/testing';
import {
  backendPids,
  benchDatabase,
  closedLoop,
  openLoop,
  dbCounters,
  type DbCounters,
  freeConnections,
  httpClient,
  machineBusy,
  ms,
  num,
  perEvent,
  printTable,
  sleep,
  sqlContactId,
  startStandalone,
  summarise,
  waitOutboxDrained,
  type LoadResult,
} from './support.js';
import { target } from './targets.js';

const CONTACTS = 100_000;
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 64);
const RATE = Number(process.env.BENCH_RATE ?? 2000);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 20);
const WARMUP_SECONDS = 5;
const OPEN_WARMUP_SECONDS = 3;
/** BENCH_RAW=0 skips the raw PostgreSQL rows (quicker A/B runs of Herald alone; the report then lacks its reference). */
const RAW = process.env.BENCH_RAW !== '0';
const RAW_SECONDS = Math.max(5, Math.round(SECONDS / 2));
const NEW_SHARE = 0.5;
const EVENTS = ['signed-up', 'page-viewed', 'trial-started', 'purchase'];
const PLANS = ['free', 'pro', 'team'];

const pick = <T>(xs: T[]): T => xs[Math.floor(Math.random() * xs.length)]!;
let fresh = 0;
const run = Date.now().toString(36);
const nextEmail = () =>
  Math.random() < NEW_SHARE
    ? `new-${run}-${fresh++}@bench.test`
    : `seed-${1 + Math.floor(Math.random() * CONTACTS)}@example.com`;
const nextEvent = () => ({ email: nextEmail(), event: pick(EVENTS), data: { plan: pick(PLANS) } });

const db = await benchDatabase('track');
const admin = new pg.Pool({ connectionString: db.url, max: 2 });
const pgPids = backendPids(admin, db.url);
const rows: string[][] = [
  [
    'contacts-track',
    'events/s',
    'p50',
    'p90',
    'p99',
    'max',
    'errors',
    'machine busy',
    'cores: driver',
    'herald',
    'postgres',
    'commits/event',
  ],
];
const cores = (x: number) => (x > 0 ? x.toFixed(2) : '—');
const row = (label: string, r: LoadResult, work?: DbCounters) => {
  const s = summarise(r.latencies);
  rows.push([
    label,
    num((r.ok / r.elapsedMs) * 1000),
    ms(s.p50),
    ms(s.p90),
    ms(s.p99),
    ms(s.max),
    String(r.errors),
    `${Math.round(r.cpu.machine)}%`,
    cores(r.cpu.driver),
    cores(r.cpu.children),
    cores(r.cpu.pg),
    work ? work.commits.toFixed(1) : '',
  ]);
};
const idleBusy = await machineBusy(2000);
let herald: Awaited<ReturnType<typeof startStandalone>> | undefined;
try {
  // first without read-your-writes (READ_YOUR_WRITES=false), then with it, on the same database and
  // project: the mechanism's cost on /v1/track, measured in the same run (docs/consistency.md)
  herald = await startStandalone(db, { READ_YOUR_WRITES: 'false' });
  const project = await accountWithProject(herald.url);

  const seedStarted = performance.now();
  await admin.query(
    `INSERT INTO contacts.contacts (id, project_id, email, subscribed, data, created_at, updated_at)
     SELECT ${sqlContactId('i')}, $1, 'seed-' || i || '@example.com', true,
            jsonb_build_object('plan', (ARRAY['free','pro','team'])[1 + i % 3], 'seeded', true),
            now() - make_interval(secs => $2 - i), now() - make_interval(secs => $2 - i)
       FROM generate_series(1, $2::int) AS i`,
    [project.projectId, CONTACTS],
  );
  await admin.query(
    `INSERT INTO contacts.contact_fields (project_id, path, type) VALUES ($1, 'data.plan', 'string'), ($1, 'data.seeded', 'boolean') ON CONFLICT DO NOTHING`,
    [project.projectId],
  );
  await admin.query('ANALYZE contacts.contacts');
  const seedMs = performance.now() - seedStarted;

  const headers = bearer(project.secretKey);

  // ---- through Herald without read-your-writes ---------------------------------------------
  const withoutRyw = await trackLoads(herald.url, headers, pgPids);
  await waitOutboxDrained(admin, 120_000);
  await herald.stop();
  herald = await startStandalone(db);

  // ---- through Herald ---------------------------------------------------------------------
  const client = httpClient(herald.url, CONCURRENCY);
  // pg_stat_database counters lag (busy backends report late; the LISTEN backend only when it
  // disconnects), so the database work per event is counted over Herald's
  // whole run, up to its stop, against all tracked events (warm-up and the sequential run included)
  const countersBefore = await dbCounters(admin, db.url);
  const trackVia = (c: ReturnType<typeof httpClient>) => async () => {
    const res = await c.request('POST', '/v1/track', headers, JSON.stringify(nextEvent()));
    if (res.status !== 200) throw new Error(`/v1/track answered ${res.status}: ${res.body.slice(0, 300)}`);
  };
  const track = trackVia(client);
  const stored = async () =>
    Number(
      (
        await admin.query(`SELECT count(*) AS n FROM contacts.tracked_events WHERE project_id = $1`, [
          project.projectId,
        ])
      ).rows[0].n,
    );
  await closedLoop(CONCURRENCY, WARMUP_SECONDS * 1000, track);
  await waitOutboxDrained(admin, 60_000);
  const sequential = await closedLoop(1, 5000, track, { pgPids });
  await waitOutboxDrained(admin, 60_000);
  let before = await stored();
  const viaHerald = await closedLoop(CONCURRENCY, SECONDS * 1000, track, { pgPids });
  let after = await stored();
  if (after - before !== viaHerald.ok)
    console.error(`warning: ${viaHerald.ok} answers 200 but ${after - before} events stored`);
  const outbox = await waitOutboxDrained(admin, 120_000);
  client.close();

  const openClient = httpClient(herald.url, 256);
  // the same rate on the same connections first, as the capacity run has its warm-up: the first
  // second or so on a fresh client pays for opening its connections and the backlog that leaves
  const openWarmUp = await openLoop(RATE, OPEN_WARMUP_SECONDS * 1000, trackVia(openClient), { pgPids });
  await waitOutboxDrained(admin, 60_000);
  before = await stored();
  const atRate = await openLoop(RATE, SECONDS * 1000, trackVia(openClient), { pgPids });
  after = await stored();
  if (after - before !== atRate.ok)
    console.error(`warning: ${atRate.ok} answers 200 but ${after - before} events stored`);
  const outboxAtRate = await waitOutboxDrained(admin, 120_000);
  openClient.close();

  row(`POST /v1/track, READ_YOUR_WRITES=false, ${CONCURRENCY} in flight (capacity)`, withoutRyw.capacity);
  row(`POST /v1/track, READ_YOUR_WRITES=false, ${num(RATE)}/s offered (open loop)`, withoutRyw.atRate);
  row('POST /v1/track via Herald, 1 in flight (5 s)', sequential);
  const heraldRow = rows.length;
  row(`POST /v1/track via Herald, ${CONCURRENCY} in flight (capacity)`, viaHerald);
  row(
    `POST /v1/track via Herald, ${num(RATE)}/s offered, first ${OPEN_WARMUP_SECONDS} s on new connections (warm-up)`,
    openWarmUp,
  );
  row(`POST /v1/track via Herald, ${num(RATE)}/s offered (open loop)`, atRate);
  for (const r of [viaHerald, atRate]) if (r.firstError) console.error(`first error: ${r.firstError}`);
  const total = await stored();
  const writePaths = await trackWritePaths(herald.metricsUrl);
  await herald.stop(); // its backends disconnect and report their counters
  herald = undefined;
  const heraldWork = perEvent(countersBefore, await dbCounters(admin, db.url), total);
  rows[heraldRow]!.push(heraldWork.commits.toFixed(1));

  // ---- without read-your-writes once more (A-B-A) ------------------------------------------
  // the pass with it ran second, on tables grown by the first pass and with autovacuum's work on
  // them: the pass without it is run again after it, and the cost is read against the mean of both
  await waitOutboxDrained(admin, 120_000);
  herald = await startStandalone(db, { READ_YOUR_WRITES: 'false' });
  const withoutRywAfter = await trackLoads(herald.url, headers, pgPids);
  await waitOutboxDrained(admin, 120_000);
  await herald.stop();
  herald = undefined;
  row(`POST /v1/track, READ_YOUR_WRITES=false again, ${CONCURRENCY} in flight (capacity)`, withoutRywAfter.capacity);
  row(`POST /v1/track, READ_YOUR_WRITES=false again, ${num(RATE)}/s offered (open loop)`, withoutRywAfter.atRate);

  // ---- the same work straight through pg -------------------------------------------------
  type Shape = 'single-statement' | 'locking';
  const raw = async (connections: number, shape: Shape, notify = true): Promise<[LoadResult, DbCounters]> => {
    const pool = new pg.Pool({ connectionString: db.url, max: connections });
    // Herald's one LISTEN connection (PgNotifications): PostgreSQL wakes it at every NOTIFY
    const listener = new pg.Client({ connectionString: db.url, application_name: 'bench-notifications' });
    await listener.connect();
    await listener.query('LISTEN herald_outbox_contacts');
    const notifySql = (rows: string) =>
      notify
        ? `pg_notify('herald_outbox_contacts', (SELECT count(*) FROM ${rows})::text)`
        : `(SELECT count(*) FROM ${rows})`;
    const envelope = (type: string, key: string, payload: unknown) => ({
      eventId: randomUUID(),
      type,
      version: 1,
      projectId: project.projectId,
      occurredAt: new Date().toISOString(),
      key,
      source: 'contacts',
      correlationId: 'req-bench',
      payload,
    });
    const newId = (prefix: string) => `${prefix}_${randomUUID().replace(/-/g, '').slice(0, 26)}`;
    type Row = { id: string; email: string; subscribed: boolean; data: Record<string, unknown>; v?: string };
    /** What the service decides from the row read: the contact after the event, and the contact event to publish. */
    const decide = (ev: ReturnType<typeof nextEvent>, found: Row | undefined) => {
      if (!found) {
        const contact = { id: newId('cnt'), email: ev.email, subscribed: true, data: ev.data };
        return {
          kind: 'created' as const,
          contact,
          events: [
            envelope('contact.created', contact.id, {
              contactId: contact.id,
              email: contact.email,
              subscribed: true,
              data: contact.data,
            }),
          ],
        };
      }
      if (found.data.plan === ev.data.plan) return { kind: 'kept' as const, contact: found, events: [] };
      const contact = { ...found, data: { ...found.data, ...ev.data } };
      return {
        kind: 'changed' as const,
        contact,
        events: [
          envelope('contact.updated', contact.id, {
            contactId: contact.id,
            email: contact.email,
            subscribed: contact.subscribed,
            data: contact.data,
            changedKeys: ['data.plan'],
          }),
        ],
      };
    };
    // as ContactWriter.upsertManyAtomically + TrackEventUseCase: an unlocked read, then one guarded statement
    const singleStatement = async () => {
      const ev = nextEvent();
      // another connection wrote the same contact between the read and the write: read again (Herald takes its locking path)
      for (;;) {
        try {
          return await singleStatementOnce(ev);
        } catch (err) {
          if ((err as { code?: string }).code !== '40001') throw err;
        }
      }
    };
    const singleStatementOnce = async (ev: ReturnType<typeof nextEvent>) => {
      const found = (
        await pool.query(
          `SELECT *, xmin::text AS v FROM contacts.contacts WHERE project_id = $1 AND email = ANY($2::varchar[])`,
          [project.projectId, [ev.email]],
        )
      ).rows[0] as Row | undefined;
      const { kind, contact, events } = decide(ev, found);
      const eventId = newId('evt');
      const outbox = [
        ...events,
        envelope('event.tracked', contact.id, {
          eventRecordId: eventId,
          contactId: contact.id,
          email: contact.email,
          name: ev.event,
          data: ev.data,
        }),
      ];
      const values: unknown[] = [];
      const $ = (value: unknown, type: string) => `$${values.push(value)}::${type}`;
      const projectId = $(project.projectId, 'varchar');
      const contactPart = {
        created: () =>
          `c AS (INSERT INTO contacts.contacts (id, project_id, email, subscribed, data)
                 VALUES (${$(contact.id, 'varchar')}, ${projectId}, ${$(contact.email, 'varchar')}, true, ${$(JSON.stringify(contact.data), 'jsonb')})
                 ON CONFLICT (project_id, email) DO NOTHING RETURNING 1)`,
        changed: () =>
          `c AS (UPDATE contacts.contacts SET subscribed = ${$(contact.subscribed, 'boolean')}, data = ${$(JSON.stringify(contact.data), 'jsonb')}, updated_at = now()
                 WHERE project_id = ${projectId} AND id = ${$(contact.id, 'varchar')} AND xmin = ${$(found!.v, 'xid')} RETURNING 1)`,
        kept: () =>
          `c AS (SELECT 1 FROM contacts.contacts WHERE project_id = ${projectId} AND id = ${$(contact.id, 'varchar')} FOR KEY SHARE)`,
      }[kind]();
      await pool.query(
        `WITH ${contactPart},
         e AS (INSERT INTO contacts.tracked_events (id, project_id, contact_id, name, data, created_at)
               VALUES (${$(eventId, 'varchar')}, ${projectId}, ${$(contact.id, 'varchar')}, ${$(ev.event, 'varchar')}, ${$(JSON.stringify(ev.data), 'jsonb')}, ${$(new Date(), 'timestamptz')})),
         o AS (INSERT INTO contacts.outbox (event_id, topic, message_key, envelope)
               SELECT * FROM unnest(${$(
                 outbox.map((e) => e.eventId),
                 'uuid[]',
               )}, ${$(
                 outbox.map((e) => e.type),
                 'varchar[]',
               )}, ${$(
                 outbox.map((e) => e.key),
                 'varchar[]',
               )},
                                    ${$(
                                      outbox.map((e) => JSON.stringify(e)),
                                      'jsonb[]',
                                    )}) RETURNING 1)
         SELECT contacts.write_guard((SELECT count(*) FROM c) = 1), ${notifySql('o')}`,
        values,
      );
    };
    // the shape before: a transaction that locks the contact, one statement per step
    const outboxSql = `WITH o AS (
         INSERT INTO contacts.outbox (event_id, topic, message_key, envelope)
         SELECT * FROM unnest($1::uuid[], $2::varchar[], $3::varchar[], $4::jsonb[]) RETURNING 1)
       SELECT ${notifySql('o')}`;
    const outboxAdd = (c: pg.PoolClient, e: ReturnType<typeof envelope>) =>
      c.query(outboxSql, [[e.eventId], [e.type], [e.key], [JSON.stringify(e)]]);
    const locking = async () => {
      const ev = nextEvent();
      const c = await pool.connect();
      try {
        await c.query('BEGIN');
        const found = (
          await c.query(`SELECT * FROM contacts.contacts WHERE project_id = $1 AND email = $2 FOR UPDATE`, [
            project.projectId,
            ev.email,
          ])
        ).rows[0] as Row | undefined;
        const { kind, contact, events } = decide(ev, found);
        if (kind === 'created') {
          await c.query(
            `INSERT INTO contacts.contacts (id, project_id, email, subscribed, data) VALUES ($1, $2, $3, $4, $5::jsonb) ON CONFLICT (project_id, email) DO NOTHING`,
            [contact.id, project.projectId, contact.email, true, JSON.stringify(contact.data)],
          );
        } else if (kind === 'changed') {
          await c.query(
            `UPDATE contacts.contacts SET subscribed = $3, data = $4::jsonb, updated_at = now() WHERE project_id = $1 AND id = $2`,
            [project.projectId, contact.id, contact.subscribed, JSON.stringify(contact.data)],
          );
        }
        for (const e of events) await outboxAdd(c, e);
        const id = newId('evt');
        await c.query(
          `INSERT INTO contacts.tracked_events (id, project_id, contact_id, name, data, created_at) VALUES ($1, $2, $3, $4, $5::jsonb, $6)`,
          [id, project.projectId, contact.id, ev.event, JSON.stringify(ev.data), new Date()],
        );
        await outboxAdd(
          c,
          envelope('event.tracked', contact.id, {
            eventRecordId: id,
            contactId: contact.id,
            email: contact.email,
            name: ev.event,
            data: ev.data,
          }),
        );
        await c.query('COMMIT');
      } catch (err) {
        await c.query('ROLLBACK').catch(() => undefined);
        throw err;
      } finally {
        c.release();
      }
    };
    const work = shape === 'single-statement' ? singleStatement : locking;
    const c0 = await dbCounters(admin, db.url);
    const warm = await closedLoop(CONCURRENCY, 2000, work);
    const r = await closedLoop(CONCURRENCY, RAW_SECONDS * 1000, work, { pgPids });
    await pool.end(); // its backends disconnect and report their counters
    await listener.end();
    await sleep(200);
    if (r.firstError) console.error(`raw first error: ${r.firstError}`);
    return [r, perEvent(c0, await dbCounters(admin, db.url), warm.ok + r.ok)];
  };
  // as many connections as requests in flight, unless the server (shared with others) has fewer free
  const wide = Math.min(CONCURRENCY, await freeConnections(admin, 16));
  if (RAW) {
    row(`raw pg, same statements, ${wide} connections`, ...(await raw(wide, 'single-statement')));
    row(`raw pg, same statements, 4 connections`, ...(await raw(4, 'single-statement')));
    row(`raw pg, same, no pg_notify, ${wide} connections`, ...(await raw(wide, 'single-statement', false)));
    row(`raw pg, locking transaction (6 statements), ${wide} conn.`, ...(await raw(wide, 'locking')));
  }

  console.log(
    `\n/v1/track, standalone mode, ${num(CONTACTS)} contacts seeded with SQL in ${Math.round(seedMs)} ms; ${CONCURRENCY} requests in flight (closed loop, keep-alive)` +
      ` and ${num(RATE)}/s offered (open loop), ${SECONDS} s each after ${WARMUP_SECONDS} s (closed) and ${OPEN_WARMUP_SECONDS} s (open) of warm-up (raw: ${RAW_SECONDS} s after 2 s, ${CONCURRENCY} in flight); ${Math.round(NEW_SHARE * 100)}% new emails;` +
      ` ${os.cpus().length} cores, ${Math.round(idleBusy)}% busy with other work before the start; Node ${process.version}`,
  );
  printTable(rows);
  const offered = Math.floor(RATE * SECONDS);
  const p99AtRate = summarise(atRate.latencies).p99;
  const drained = (o: typeof outbox) =>
    `${num(o.pendingAtStart)} events unpublished at its end, ${o.drainMs < 0 ? 'not drained within 120 s' : `drained in ${Math.round(o.drainMs)} ms`}`;
  console.log(`\noutbox: after the capacity run ${drained(outbox)}; after the open-loop run ${drained(outboxAtRate)}`);
  console.log(
    `batches written (whole run, herald_track_batches_total / herald_track_events_written_total): ${writePaths}`,
  );
  const closedRate = (viaHerald.ok / viaHerald.elapsedMs) * 1000;
  const closedP99 = summarise(viaHerald.latencies).p99;
  // A-B-A: the passes without read-your-writes before and after the pass with it, averaged
  const rateOf = (r: LoadResult) => (r.ok / r.elapsedMs) * 1000;
  const offRates = [withoutRyw, withoutRywAfter].map((p) => rateOf(p.capacity));
  const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
  const offRate = mean(offRates);
  const offP99 = mean([withoutRyw, withoutRywAfter].map((p) => summarise(p.capacity.latencies).p99));
  const offOpenP99 = mean([withoutRyw, withoutRywAfter].map((p) => summarise(p.atRate.latencies).p99));
  console.log(
    `read-your-writes on vs off (target: within 10%; off is the mean of the passes before and after, ${offRates.map(num).join(' and ')} events/s): ` +
      `capacity ${num(closedRate)} vs ${num(offRate)} events/s (${((closedRate / offRate - 1) * 100).toFixed(1)}%), ` +
      `capacity p99 ${ms(closedP99)} vs ${ms(offP99)} (${((closedP99 / offP99 - 1) * 100).toFixed(1)}%), ` +
      `open-loop p99 ${ms(p99AtRate)} vs ${ms(offOpenP99)} (${((p99AtRate / offOpenP99 - 1) * 100).toFixed(1)}%) — ` +
      target({
        target: '/v1/track capacity with read-your-writes ≥ 90% of without (docs/consistency.md)',
        measured: `${num(closedRate)} events/s`,
        raw: `READ_YOUR_WRITES=false: ${num(offRate)} events/s (mean of ${offRates.map(num).join(' before, ')} after)`,
        ratio: closedRate / offRate,
        met: closedRate / offRate >= 0.9,
      }),
  );
  console.log(
    `target ≥ 2 000 events/s with p99 < 50 ms, read as capacity (closed loop, ${CONCURRENCY} in flight): ${num(closedRate)} events/s, p99 ${ms(closedP99)} — ` +
      target({
        target: '/v1/track ≥ 2,000 events/s with p99 < 50 ms, closed loop (issue 4)',
        measured: `${num(closedRate)} events/s, p99 ${ms(closedP99)}`,
        met: closedRate >= 2000 && closedP99 < 50,
      }),
  );
  console.log(
    `target ≥ 2 000 events/s with p99 < 50 ms, read as sustained offered load (open loop, ${num(RATE)}/s for ${SECONDS} s): ` +
      `${num(atRate.ok)} of ${num(offered)} answered 200, ${num((atRate.ok / atRate.elapsedMs) * 1000)} events/s, p99 ${ms(p99AtRate)} — ` +
      target({
        target: '/v1/track 2,000 events/s offered, all answered, p99 < 50 ms (issue 4)',
        measured: `${num(atRate.ok)} of ${num(offered)} at ${num(RATE)}/s, p99 ${ms(p99AtRate)}`,
        met: RATE >= 2000 && atRate.ok === offered && atRate.errors === 0 && p99AtRate < 50,
      }),
  );
  console.log(
    `Herald per event (its whole run, pg_stat_database): ${heraldWork.commits.toFixed(1)} commits, ${heraldWork.inserted.toFixed(1)} rows inserted, ${heraldWork.updated.toFixed(1)} rows updated` +
      ' (request, relay and in-process consumers)',
  );
} finally {
  await herald?.stop();
  await admin.end();
  await db.close();
}

/**
 * The capacity run and the open-loop run of /v1/track (each after its warm-up), as the main pass
 * makes them: for the pass without read-your-writes.
 */
async function trackLoads(
  baseUrl: string,
  headers: Record<string, string>,
  pgPids: ReturnType<typeof backendPids>,
): Promise<{ capacity: LoadResult; atRate: LoadResult }> {
  const trackVia = (c: ReturnType<typeof httpClient>) => async () => {
    const res = await c.request('POST', '/v1/track', headers, JSON.stringify(nextEvent()));
    if (res.status !== 200) throw new Error(`/v1/track answered ${res.status}: ${res.body.slice(0, 300)}`);
  };
  const client = httpClient(baseUrl, CONCURRENCY);
  await closedLoop(CONCURRENCY, WARMUP_SECONDS * 1000, trackVia(client));
  const capacity = await closedLoop(CONCURRENCY, SECONDS * 1000, trackVia(client), { pgPids });
  client.close();
  const open = httpClient(baseUrl, 256);
  await openLoop(RATE, OPEN_WARMUP_SECONDS * 1000, trackVia(open), { pgPids });
  const atRate = await openLoop(RATE, SECONDS * 1000, trackVia(open), { pgPids });
  open.close();
  return { capacity, atRate };
}

/** How Herald wrote its /v1/track batches, from its /metrics: `single_statement 812 (40,120 requests), locked 3 (95 requests)`. */
async function trackWritePaths(metricsUrl: string): Promise<string> {
  const text = await (await fetch(metricsUrl)).text();
  const read = (metric: string) =>
    new Map(
      [...text.matchAll(new RegExp(`^${metric}\\{path="(\\w+)"\\} (\\d+)$`, 'gm'))].map((m) => [m[1]!, Number(m[2])]),
    );
  const batches = read('herald_track_batches_total');
  const events = read('herald_track_events_written_total');
  return (
    [...batches].map(([path, n]) => `${path} ${num(n)} (${num(events.get(path) ?? 0)} requests)`).join(', ') ||
    'none reported'
  );
}

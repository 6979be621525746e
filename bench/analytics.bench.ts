/**
 * Analytics ingest and read latency: `npm run bench -- analytics`.
 *
 * Ingest: BENCH_EVENTS (5 000 000) email lifecycle events across BENCH_PROJECTS (100) projects,
 * in time order over the last 90 days (per email: sent; delivered 90%; opened 40%, a second open 10%;
 * clicked 10%; bounced 3%; 70% of the emails belong to one of 100 campaigns of their project),
 * through the analytics consumer's own path: `EventProcessor.processBatch` (one multi-row inbox
 * insert per batch) and the projector, in batches of BENCH_BATCH (500) events of one topic, as a
 * Kafka `eachBatch` delivers them, on BENCH_STREAMS (2) concurrent streams. Beside it, in the same
 * run, the raw limit: the same feed rows (read back from the feed) written with the same multi-row
 * `INSERT … SELECT unnest`, BATCH rows a statement on one connection, into a table with no index but
 * its key and no aggregates; only the inserts are timed.
 *
 * Reads, through Herald's gateway (standalone, one request at a time, BENCH_REQUESTS (200) each after
 * a warm-up), for one of the projects: `/analytics/timeseries` over 90 days (interval=day,
 * tz=Europe/Berlin, all six metrics), `/activity` first page, `/analytics/top-campaigns`.
 * Targets: timeseries p95 < 100 ms, activity p95 < 50 ms, top-campaigns p95 < 100 ms.
 */
import { v7 as uuidv7 } from 'uuid';
import type { EventEnvelope } from '@herald/contracts';
import { EventProcessor, Outbox } from '@herald/messaging';
import { createServiceDataSource, migrateServiceSchema } from '@herald/persistence';
import { ActivityProjector, analyticsSchema } from '@herald/service-analytics';
import { accountWithProject, bearer } from '@herald/testing';
import { benchDatabase, httpClient, machineBusy, ms, num, pct, printTable, startStandalone } from './support.js';
import { target } from './targets.js';

const EVENTS = Number(process.env.BENCH_EVENTS ?? 5_000_000);
const PROJECTS = Number(process.env.BENCH_PROJECTS ?? 100);
const BATCH = Number(process.env.BENCH_BATCH ?? 500);
const STREAMS = Number(process.env.BENCH_STREAMS ?? 2);
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 200);
const DAY = 86_400_000;

const db = await benchDatabase('analytics');
let herald: Awaited<ReturnType<typeof startStandalone>> | undefined;
try {
  const idleBusy = await machineBusy(2000);
  herald = await startStandalone(db, { LOG_LEVEL: 'error' });
  const measured = await accountWithProject(herald.url);
  const projects = [measured.projectId, ...Array.from({ length: PROJECTS - 1 }, (_, i) => `prj_bench_${i}`)];

  const ds = await createServiceDataSource(analyticsSchema, db.url, STREAMS + 2).initialize();
  await migrateServiceSchema(ds);
  const projector = new ActivityProjector({ prefetchWindowMs: 10_000, unsubscribeAttributionMs: 30 * DAY });
  const processor = new EventProcessor('analytics', ds, new Outbox('analytics', ds), {
    warn: (m, f) => console.warn(m, f),
    error: (m, f) => console.error(m, f),
  });
  const handlers = () => [
    { batch: (envs: EventEnvelope[], ctx: { manager: never }) => projector.apply(ctx.manager, envs) },
  ];

  // ---- the events, generated lazily per topic into batches of one topic ---------------------
  const now = Date.now();
  const rand = (n: number) => Math.floor(Math.random() * n);
  let made = 0;
  let emailSeq = 0;
  const pending = new Map<string, EventEnvelope[]>();
  const ready: EventEnvelope[][] = [];
  const push = (e: EventEnvelope) => {
    const list = pending.get(e.type) ?? [];
    list.push(e);
    made++;
    if (list.length >= BATCH) {
      ready.push(list);
      pending.delete(e.type);
    } else pending.set(e.type, list);
  };
  const event = (type: string, projectId: string, at: number, payload: Record<string, unknown>): EventEnvelope => ({
    eventId: uuidv7(),
    type,
    version: 1,
    projectId,
    occurredAt: new Date(at).toISOString(),
    key: payload.contactId as string,
    source: 'bench',
    payload,
  });
  const oneEmail = () => {
    const n = ++emailSeq;
    const projectId = projects[n % PROJECTS]!;
    const campaign =
      Math.random() < 0.7 ? { campaignId: `cmp_${n % PROJECTS}_${rand(100)}`, origin: 'campaign' } : { origin: 'api' };
    const p = {
      emailId: `eml_${n}`,
      contactId: `cnt_${n % 200_000}`,
      email: `c${n % 200_000}@example.com`,
      subject: 'Bench',
      ...campaign,
    };
    // emails go out in time order over the 90 days, as a stream delivers them (~2.4 events per email)
    const sentAt = now - 90 * DAY + Math.floor((n / (EVENTS / 2.4)) * 90 * DAY) + rand(60_000);
    push(event('email.sent', projectId, sentAt, p));
    if (Math.random() < 0.03)
      return push(event('email.bounced', projectId, sentAt + 2000, { ...p, bounceType: 'permanent' }));
    if (Math.random() < 0.9) push(event('email.delivered', projectId, sentAt + 1000, p));
    if (Math.random() < 0.4) {
      push(event('email.opened', projectId, sentAt + 60_000 + rand(DAY), p));
      if (Math.random() < 0.25) push(event('email.opened', projectId, sentAt + DAY + rand(DAY), p));
      if (Math.random() < 0.25)
        push(event('email.clicked', projectId, sentAt + 2 * DAY, { ...p, url: 'https://example.org' }));
    }
  };
  const nextBatch = (): EventEnvelope[] | undefined => {
    while (ready.length === 0 && made < EVENTS) oneEmail();
    if (ready.length > 0) return ready.shift();
    const rest = [...pending.values()].find((l) => l.length > 0);
    if (rest) pending.delete(rest[0]!.type);
    return rest;
  };

  // ---- ingest through the consumer's path ----------------------------------------------------
  const started = performance.now();
  let ingested = 0;
  let lastReport = started;
  await Promise.all(
    Array.from({ length: STREAMS }, async () => {
      for (let batch = nextBatch(); batch; batch = nextBatch()) {
        await processor.processBatch(batch, handlers as never, { trusted: true });
        ingested += batch.length;
        if (performance.now() - lastReport > 15_000) {
          lastReport = performance.now();
          console.log(`  … ${num(ingested)} events, ${num(ingested / ((lastReport - started) / 1000))}/s`);
        }
      }
    }),
  );
  const ingestSec = (performance.now() - started) / 1000;

  // ---- the raw limit: the same feed rows, same multi-row insert, no index but the key, no aggregates
  await ds.query(
    `CREATE TABLE analytics.bench_raw_items (LIKE analytics.activity_items INCLUDING DEFAULTS, PRIMARY KEY (event_id))`,
  );
  // the rows are read back from the feed in key order, BATCH at a time; only the inserts are timed
  let rawMs = 0;
  let rawRows = 0;
  let after = '00000000-0000-0000-0000-000000000000';
  for (;;) {
    const rows: Record<string, unknown>[] = await ds.query(
      `SELECT event_id, project_id, type, occurred_at, contact_id, contact_email, email_id, email_subject, campaign_id,
              workflow_id, workflow_name, data FROM analytics.activity_items WHERE event_id > $1 ORDER BY event_id LIMIT $2`,
      [after, BATCH],
    );
    if (rows.length === 0) break;
    after = rows[rows.length - 1]!.event_id as string;
    const col = (k: string) => rows.map((r) => r[k]);
    const t = performance.now();
    await ds.query(
      `INSERT INTO analytics.bench_raw_items (event_id, project_id, type, occurred_at, contact_id, contact_email,
         email_id, email_subject, campaign_id, workflow_id, workflow_name, data)
       SELECT * FROM unnest($1::uuid[], $2::varchar[], $3::varchar[], $4::timestamptz[], $5::varchar[], $6::varchar[],
         $7::varchar[], $8::varchar[], $9::varchar[], $10::varchar[], $11::varchar[], $12::jsonb[])`,
      [
        col('event_id'),
        col('project_id'),
        col('type'),
        col('occurred_at'),
        col('contact_id'),
        col('contact_email'),
        col('email_id'),
        col('email_subject'),
        col('campaign_id'),
        col('workflow_id'),
        col('workflow_name'),
        rows.map((r) => JSON.stringify(r.data)),
      ],
    );
    rawMs += performance.now() - t;
    rawRows += rows.length;
  }
  const rawSec = rawMs / 1000;
  await ds.query(`DROP TABLE analytics.bench_raw_items`);
  await ds.query(`VACUUM ANALYZE analytics.activity_items, analytics.activity_hourly, analytics.campaign_stats`);
  await ds.destroy();

  // ---- reads through the gateway ---------------------------------------------------------------
  const client = httpClient(herald.url, 1);
  const headers = bearer(measured.secretKey);
  const from = new Date(now - 90 * DAY).toISOString();
  const to = new Date(now).toISOString();
  const routes: [string, string, number][] = [
    [
      '/analytics/timeseries (90 days)',
      `/analytics/timeseries?from=${from}&to=${to}&interval=day&tz=Europe%2FBerlin`,
      100,
    ],
    ['/activity first page', '/activity', 50],
    ['/analytics/top-campaigns', '/analytics/top-campaigns?metric=openRate&limit=10', 100],
  ];
  const reads: string[][] = [['route', 'p50', 'p95', 'p99', 'target p95', 'result']];
  for (const [name, path, limit] of routes) {
    const latencies: number[] = [];
    for (let i = 0; i < REQUESTS + 20; i++) {
      const t = performance.now();
      const res = await client.request('GET', path, headers);
      if (res.status !== 200) throw new Error(`${path} answered ${res.status}: ${res.body.slice(0, 300)}`);
      if (i >= 20) latencies.push(performance.now() - t);
    }
    const s = Float64Array.from(latencies).sort();
    const p95 = pct(s, 95);
    reads.push([
      name,
      ms(pct(s, 50)),
      ms(p95),
      ms(pct(s, 99)),
      `< ${limit} ms`,
      target({
        target: `${name} p95 < ${limit} ms (${num(EVENTS)} events, ${PROJECTS} projects)`,
        measured: `p95 ${ms(p95)}`,
        met: p95 < limit,
      }),
    ]);
  }
  client.close();

  console.log(
    `\nanalytics bench: ${num(EVENTS)} events, ${PROJECTS} projects, batches of ${BATCH}, ${STREAMS} streams; machine busy before start ${idleBusy.toFixed(0)}%\n`,
  );
  printTable([
    ['ingest', 'rows', 'seconds', 'rows/s'],
    ['projection (inbox + feed + aggregates)', num(ingested), ingestSec.toFixed(1), num(ingested / ingestSec)],
    ['raw multi-row insert of the same feed rows', num(rawRows), rawSec.toFixed(1), num(rawRows / rawSec)],
  ]);
  console.log('');
  printTable(reads);
} finally {
  await herald?.stop();
  await db.close();
}

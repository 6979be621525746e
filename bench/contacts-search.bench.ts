/**
 * Contact search latency: `npm run bench -- contacts-search`.
 * Standalone mode; one project with 1 000 000 contacts (seeded with `INSERT … SELECT
 * generate_series` straight into contacts.contacts, then ANALYZE). Emails look like
 * `carol.483920@gmail.com`: ten first names, half the domains example.com, the rest gmail.com,
 * outlook.com, acme.io and ~1 000 corpNNN.test. BENCH_SEARCHES (300) first-page searches
 * `GET /contacts?search=…`, one at a time after a warm-up, cycle through four kinds of
 * substrings: common (example, gmail, alice, …: 10–50% of the project), medium (4 digits, a
 * corp domain: hundreds to ~1 000), rare (`.483920@`: one contact) and none (no match).
 * Target: p99 < 100 ms.
 *
 * Beside it, straight through `pg`, the statements the service runs for a first page: the page,
 * `… WHERE project_id = $1 AND email LIKE $2 ORDER BY created_at DESC, id DESC LIMIT 21`, and the
 * `total` (a count of up to 1 000 matches in contacts, and past that a `count(*)` over
 * contacts.contact_search), timed separately, per kind. BENCH_EXPLAIN=1 also prints
 * EXPLAIN (ANALYZE, BUFFERS) of each for one substring of each kind.
 */
import os from 'node:os';
import pg from 'pg';
import { accountWithProject, bearer } from '@herald/testing';
import {
  benchDatabase,
  httpClient,
  machineBusy,
  ms,
  num,
  printTable,
  sqlContactId,
  startStandalone,
  summarise,
} from './support.js';
import { target } from './targets.js';

const CONTACTS = Number(process.env.BENCH_CONTACTS ?? 1_000_000);
const SEARCHES = Number(process.env.BENCH_SEARCHES ?? 300);
const WARMUP = 30;

const rand = (n: number) => Math.floor(Math.random() * n);
const KINDS: Record<string, () => string> = {
  common: () => ['example', 'gmail', 'alice', 'example.com', 'outlook', '@acme.io', 'grace.'][rand(7)]!,
  medium: () => (Math.random() < 0.5 ? String(1000 + rand(9000)) : `corp${100 + rand(900)}.`),
  rare: () => `.${1 + rand(CONTACTS)}@`,
  none: () => ['zzqx', 'nobody-here', 'qwxz.', '@nowhere.test'][rand(4)]!,
};
const kinds = Object.keys(KINDS);

const db = await benchDatabase('search');
const admin = new pg.Pool({ connectionString: db.url, max: 2 });
let herald: Awaited<ReturnType<typeof startStandalone>> | undefined;
try {
  const idleBusy = await machineBusy(2000);
  herald = await startStandalone(db);
  const project = await accountWithProject(herald.url);

  const seedStarted = performance.now();
  const CHUNK = 250_000;
  for (let from = 1; from <= CONTACTS; from += CHUNK) {
    await admin.query(
      `INSERT INTO contacts.contacts (id, project_id, email, subscribed, data, created_at, updated_at)
       SELECT ${sqlContactId('i')}, $1,
              (ARRAY['alice','bob','carol','dave','erin','frank','grace','heidi','ivan','judy'])[1 + (i / 7) % 10] || '.' || i || '@' ||
              CASE i % 10 WHEN 5 THEN 'gmail.com' WHEN 6 THEN 'gmail.com' WHEN 7 THEN 'outlook.com' WHEN 8 THEN 'acme.io'
                          WHEN 9 THEN 'corp' || (i / 10) % 997 || '.test' ELSE 'example.com' END,
              i % 20 <> 0, jsonb_build_object('plan', (ARRAY['free','pro','team'])[1 + i % 3]),
              now() - make_interval(secs => $2 - i), now() - make_interval(secs => $2 - i)
         FROM generate_series($3::int, $4::int) AS i`,
      [project.projectId, CONTACTS, from, Math.min(CONTACTS, from + CHUNK - 1)],
    );
  }
  const insertMs = performance.now() - seedStarted;
  await admin.query('VACUUM ANALYZE contacts.contacts, contacts.contact_search');
  const seedMs = performance.now() - seedStarted;

  // ---- through Herald, one request at a time ----------------------------------------------
  const client = httpClient(herald.url, 1);
  const headers = bearer(project.secretKey);
  const search = async (term: string): Promise<{ ms: number; total: number }> => {
    const t = performance.now();
    const res = await client.request('GET', `/contacts?search=${encodeURIComponent(term)}`, headers);
    const elapsed = performance.now() - t;
    if (res.status !== 200)
      throw new Error(`GET /contacts?search=${term} answered ${res.status}: ${res.body.slice(0, 300)}`);
    return { ms: elapsed, total: (JSON.parse(res.body) as { total: number }).total };
  };
  for (let i = 0; i < WARMUP; i++) await search(KINDS[kinds[i % kinds.length]!]!());
  const api = new Map<string, { ms: number[]; totals: number[] }>(kinds.map((k) => [k, { ms: [], totals: [] }]));
  for (let i = 0; i < SEARCHES; i++) {
    const kind = kinds[i % kinds.length]!;
    const r = await search(KINDS[kind]!());
    api.get(kind)!.ms.push(r.ms);
    api.get(kind)!.totals.push(r.total);
  }
  client.close();
  await herald.stop();
  herald = undefined;

  // ---- the same two statements straight through pg ----------------------------------------
  const c = new pg.Client({ connectionString: db.url });
  await c.connect();
  const pageSql = `SELECT *, created_at::text AS created_at_key FROM contacts.contacts WHERE project_id = $1 AND email LIKE $2 ORDER BY created_at DESC, id DESC LIMIT 21`;
  // the total as the service counts it: up to 1 000 matches in contacts, past that all of them in contact_search
  const probeSql = `SELECT count(*) AS n FROM (SELECT 1 FROM contacts.contacts WHERE project_id = $1 AND email LIKE $2 LIMIT 1000) m`;
  const countSql = `SELECT count(*) AS n FROM contacts.contact_search WHERE project_id = $1 AND email LIKE $2`;
  const like = (term: string) => `%${term.replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`;
  const raw = new Map<string, { page: number[]; count: number[]; both: number[] }>(
    kinds.map((k) => [k, { page: [], count: [], both: [] }]),
  );
  for (let i = 0; i < WARMUP; i++)
    await c.query(pageSql, [project.projectId, like(KINDS[kinds[i % kinds.length]!]!())]);
  for (let i = 0; i < SEARCHES; i++) {
    const kind = kinds[i % kinds.length]!;
    const params = [project.projectId, like(KINDS[kind]!())];
    const t0 = performance.now();
    await c.query(pageSql, params);
    const t1 = performance.now();
    const probe = await c.query(probeSql, params);
    if (Number(probe.rows[0].n) >= 1000) await c.query(countSql, params);
    const t2 = performance.now();
    const r = raw.get(kind)!;
    r.page.push(t1 - t0);
    r.count.push(t2 - t1);
    r.both.push(t2 - t0);
  }

  const all = summarise([...api.values()].flatMap((v) => v.ms));
  const rows: string[][] = [
    [
      'contacts-search',
      'n',
      'total p50 / max',
      'API p50',
      'API p99',
      'raw page p50',
      'raw page p99',
      'raw count p50',
      'raw count p99',
      'raw both p99',
    ],
  ];
  for (const kind of kinds) {
    const a = summarise(api.get(kind)!.ms);
    const totals = summarise(api.get(kind)!.totals);
    const r = raw.get(kind)!;
    const [page, count, both] = [summarise(r.page), summarise(r.count), summarise(r.both)];
    rows.push([
      kind,
      String(a.count),
      `${num(totals.p50)} / ${num(totals.max)}`,
      ms(a.p50),
      ms(a.p99),
      ms(page.p50),
      ms(page.p99),
      ms(count.p50),
      ms(count.p99),
      ms(both.p99),
    ]);
  }
  const rawAll = summarise([...raw.values()].flatMap((v) => v.both));
  const rawPage = summarise([...raw.values()].flatMap((v) => v.page));
  const rawCount = summarise([...raw.values()].flatMap((v) => v.count));
  rows.push([
    'all',
    String(all.count),
    '',
    ms(all.p50),
    ms(all.p99),
    ms(rawPage.p50),
    ms(rawPage.p99),
    ms(rawCount.p50),
    ms(rawCount.p99),
    ms(rawAll.p99),
  ]);
  console.log(
    `\nGET /contacts?search=…, standalone mode, ${num(CONTACTS)} contacts in one project (INSERT … SELECT generate_series: ${Math.round(insertMs)} ms, with VACUUM ANALYZE ${Math.round(seedMs)} ms);` +
      ` ${SEARCHES} first-page searches one at a time after ${WARMUP} warm-up; raw = the same page and count statements with pg, one after the other; ${os.cpus().length} cores, ${Math.round(idleBusy)}% busy with other work before the start; Node ${process.version}`,
  );
  printTable(rows);
  console.log(
    `\ntarget p99 < 100 ms: ${target({
      target: `GET /contacts?search= p99 < 100 ms over ${num(CONTACTS)} contacts`,
      measured: `p99 ${ms(all.p99)}`,
      raw: `the same statements with pg: p99 ${ms(rawAll.p99)}`,
      met: all.p99 < 100,
    })} (p99 ${ms(all.p99)}, max ${ms(all.max)}); count(*) share of the raw time: ${Math.round((100 * rawCount.p50) / rawAll.p50)}% at the median`,
  );

  if (process.env.BENCH_EXPLAIN === '1') {
    for (const term of ['example', 'corp123.', '4821', '.483920@', 'zzqx']) {
      for (const [name, sql] of [
        ['page', pageSql],
        ['count probe', probeSql],
        ['count', countSql],
      ] as const) {
        const plan = await c.query(`EXPLAIN (ANALYZE, BUFFERS) ${sql}`, [project.projectId, like(term)]);
        console.log(
          `\nEXPLAIN ${name} '%${term}%':\n  ${plan.rows.map((r: Record<string, string>) => r['QUERY PLAN']).join('\n  ')}`,
        );
      }
    }
  }
  await c.end();
} finally {
  await herald?.stop();
  await admin.end();
  await db.close();
}

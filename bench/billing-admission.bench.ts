/**
 * What the billing check adds to every send: `npm run bench -- billing-admission`.
 * Standalone (the gateway answers in-process, over loopback HTTP as in production): one request at a
 * time on keep-alive connections, after a warm-up, of
 * (raw) `GET /health/live`: the HTTP round trip alone, the limit of any internal call;
 * (a) `POST /internal/calls/gateway.admission` for a project without caps (suspension and caps looked up);
 * (b) the same for a project with a cap (plus the reservation: one upsert of the usage row).
 * Prints median, p99 and requests/s of each, the raw limit beside them.
 */
import pg from 'pg';
import { principalHeaders, TEST_INTERNAL_SECRET } from '@herald/testing';
import { benchDatabase, ms, num, pct, printTable, startStandalone } from './support.js';

const N = Number(process.env.BENCH_REQUESTS ?? 2000);
const WARMUP = 200;

async function measure(url: string, init: RequestInit): Promise<{ p50: number; p99: number; rps: number }> {
  for (let i = 0; i < WARMUP; i++) await (await fetch(url, init)).arrayBuffer();
  const times: number[] = [];
  const started = performance.now();
  for (let i = 0; i < N; i++) {
    const t = performance.now();
    const res = await fetch(url, init);
    await res.arrayBuffer();
    if (res.status !== 200) throw new Error(`${url} answered ${res.status}`);
    times.push(performance.now() - t);
  }
  const elapsed = performance.now() - started;
  times.sort((a, b) => a - b);
  return { p50: pct(times, 50), p99: pct(times, 99), rps: (N / elapsed) * 1000 };
}

const db = await benchDatabase('billing-admission');
const herald = await startStandalone(db, { INTERNAL_JWT_SECRET: TEST_INTERNAL_SECRET });
try {
  const client = new pg.Client({ connectionString: db.url });
  await client.connect();
  await client.query(
    `INSERT INTO gateway.billing_limits (project_id, transactional) VALUES ('prj_bench_capped', 2000000000)`,
  );
  await client.end();
  const admission = (projectId: string): RequestInit => ({
    method: 'POST',
    headers: principalHeaders(projectId, TEST_INTERNAL_SECRET, { kind: 'service', service: 'sending', projectId }),
    body: JSON.stringify({ category: 'transactional', count: 1 }),
  });
  const raw = await measure(`${herald.url}/health/live`, {});
  const open = await measure(`${herald.url}/internal/calls/gateway.admission`, admission('prj_bench_open'));
  const capped = await measure(`${herald.url}/internal/calls/gateway.admission`, admission('prj_bench_capped'));
  printTable([
    ['request', 'p50', 'p99', 'req/s'],
    ['raw: GET /health/live', ms(raw.p50), ms(raw.p99), num(raw.rps)],
    ['admission, no cap', ms(open.p50), ms(open.p99), num(open.rps)],
    ['admission, with cap (reserves)', ms(capped.p50), ms(capped.p99), num(capped.rps)],
  ]);
  console.log(`added to each /v1/send request (median): no cap ${ms(open.p50)}, capped ${ms(capped.p50)}`);
} finally {
  await herald.stop();
  await db.close();
}

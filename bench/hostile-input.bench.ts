/**
 * Hostile bodies, route by route: `npm run bench -- hostile-input`.
 *
 * Sends each pathological body (libs/testing `pathologicalBodies`, the shapes the hostile-input e2e
 * sends) and a seeded set of fuzz bodies to every public and dashboard body route of one standalone
 * Herald, BENCH_REPEAT times each (default 3), and prints the slowest routes by their median answer
 * time and by the event loop's longest block during the request (herald_nodejs_eventloop_lag_max
 * from /metrics). Beside each figure, the raw limit measured in the same run on the same body:
 * `JSON.parse` of it in this process (the least any JSON route must spend on it before refusing it).
 * The target: every pathological answer within 200 ms.
 */
import http from 'node:http';
import { allServices } from '@herald/service-catalog';
import {
  accountWithProject,
  hostileJson,
  listHttpRoutes,
  pathologicalBodies,
  SeededRandom,
  type TestProject,
} from '@herald/testing';
import { benchDatabase, ms, pct, printTable, startStandalone } from './support.js';

const REPEAT = Number(process.env.BENCH_REPEAT ?? 3);
const median = (xs: number[]) => pct(Float64Array.from(xs).sort(), 50);

const routes = listHttpRoutes(allServices.map((s) => s.module)).filter(
  (r) =>
    ['POST', 'PUT', 'PATCH'].includes(r.method) &&
    !/^\/(internal|health|metrics)(\/|$)/.test(r.path) &&
    !r.path.startsWith('/auth/logout'),
);
const concrete = (p: string) => p.replace(/:[A-Za-z]+/g, 'prb_x').replace('*', 'x');

/** Raw limit: JSON.parse of the body in this process (median of REPEAT, after one warm-up). */
function parseCost(body: string): number {
  try {
    JSON.parse(body);
  } catch {
    /* a body that is not JSON costs its scan all the same */
  }
  const runs: number[] = [];
  for (let i = 0; i < REPEAT; i++) {
    const t = performance.now();
    try {
      JSON.parse(body);
    } catch {
      /* idem */
    }
    runs.push(performance.now() - t);
  }
  return median(runs);
}

const db = await benchDatabase('hostile');
const herald = await startStandalone(db, { WEBHOOK_SIGNING_SECRET: 'hostile-input-bench-secret-0123456789' });
try {
  const account: TestProject = await accountWithProject(herald.url);
  const send = (method: string, path: string, body: string) =>
    new Promise<{ status: number; ms: number }>((resolve) => {
      const started = performance.now();
      let settled = false;
      const finish = (status: number) => {
        if (settled) return;
        settled = true;
        resolve({ status, ms: performance.now() - started });
      };
      const req = http.request(
        `${herald.url}${path}`,
        {
          method,
          headers: {
            cookie: account.cookie,
            'x-project-id': account.projectId,
            'content-type': 'application/json',
            'content-length': Buffer.byteLength(body),
          },
        },
        (res) => {
          res.resume();
          res.on('end', () => finish(res.statusCode ?? 0));
          res.on('error', () => finish(res.statusCode ?? 0));
        },
      );
      req.on('error', () => setTimeout(() => finish(0), 50));
      req.end(body);
    });
  const loopBlockMs = async (): Promise<number> => {
    const text = await (await fetch(`${herald.url}/metrics`)).text();
    return Number(/^herald_nodejs_eventloop_lag_max_seconds (\S+)$/m.exec(text)?.[1] ?? NaN) * 1000;
  };

  interface Row {
    route: string;
    shape: string;
    status: number;
    answer: number;
    block: number;
    parse: number;
  }
  const measure = async (route: { method: string; path: string }, shape: string, body: string): Promise<Row> => {
    const answers: number[] = [];
    const blocks: number[] = [];
    let status = 0;
    for (let i = 0; i < REPEAT; i++) {
      await loopBlockMs();
      const res = await send(route.method, concrete(route.path), body);
      blocks.push(await loopBlockMs());
      answers.push(res.ms);
      status = res.status;
    }
    return {
      route: `${route.method} ${route.path}`,
      shape,
      status,
      answer: median(answers),
      block: median(blocks),
      parse: parseCost(body),
    };
  };

  const rows: Row[] = [];
  for (const { shape, body } of pathologicalBodies())
    for (const route of routes) rows.push(await measure(route, shape, body));
  const rng = new SeededRandom(19);
  const fuzz: Row[] = [];
  for (let round = 0; round < 3; round++)
    for (const route of routes) fuzz.push(await measure(route, `fuzz ${round}`, hostileJson(rng)));

  const show = (title: string, list: Row[], by: 'answer' | 'block') => {
    console.log(`\n${title}`);
    printTable([
      ['route', 'body', 'status', 'answer (median)', 'loop blocked', 'raw JSON.parse'],
      ...[...list]
        .sort((a, b) => b[by] - a[by])
        .slice(0, 10)
        .map((r) => [r.route, r.shape, String(r.status), ms(r.answer), ms(r.block), ms(r.parse)]),
    ]);
  };
  console.log(
    `node ${process.version}; ${routes.length} body routes, ${pathologicalBodies().length} pathological shapes, ` +
      `${REPEAT} runs each; target: every answer within 200 ms`,
  );
  show('pathological bodies: slowest answers', rows, 'answer');
  show('pathological bodies: longest event-loop blocks', rows, 'block');
  show('fuzz bodies (seed 19, 3 rounds): slowest answers', fuzz, 'answer');
  const shapes = [...new Set(rows.map((r) => r.shape))];
  console.log('\nper shape: slowest route vs the median route, beside JSON.parse of the body');
  printTable([
    ['body', 'slowest route', 'its answer', 'median route', 'raw JSON.parse'],
    ...shapes.map((shape) => {
      const of = rows.filter((r) => r.shape === shape).sort((a, b) => b.answer - a.answer);
      return [shape, of[0]!.route, ms(of[0]!.answer), ms(median(of.map((r) => r.answer))), ms(of[0]!.parse)];
    }),
  ]);
  const bad = [...rows, ...fuzz].filter((r) => r.status >= 500 || r.status === 0);
  if (bad.length) console.log(`\n${bad.length} answers were 5xx or failed: ${bad.map((r) => r.route).join(', ')}`);
} finally {
  await herald.stop();
  await db.close();
}

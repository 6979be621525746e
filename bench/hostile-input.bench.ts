/**
 * Hostile input against one standalone Herald: `npm run bench -- hostile-input`.
 *
 * 1. Route by route: each pathological body (libs/testing `pathologicalBodies`, the shapes the
 *    hostile-input e2e sends) and a seeded set of fuzz bodies to every public and dashboard body
 *    route, BENCH_REPEAT times each (default 3); the slowest routes by their median answer time and
 *    by the event loop's longest block during the request (herald_nodejs_eventloop_lag_max from
 *    /metrics), each beside the raw limit measured in the same run on the same body: `JSON.parse` of
 *    it in this process (the least any JSON route must spend on it before refusing it). The issue's
 *    target: every pathological answer within 200 ms.
 * 2. Shape by shape (issue 36, item 3): the event loop's worst stall over BENCH_REPEAT runs of each
 *    hostile shape — a Liquid template on /v1/send and a campaign's test send that runs until the
 *    render limits stop it, /v1/send bodies without a key, over the route's limit and at the largest
 *    legitimate size, CSV imports of 50,000 columns and of 100,000 rows (upload to completed job,
 *    then its events' drain), and each pathological JSON shape's worst route from (1) — beside the
 *    same figure, in the same run, for two benign requests: a /v1/send of 2 KB to one recipient and
 *    a POST /contacts. The gauge holds the longest delay since the last scrape and is reset by each
 *    scrape: it is read right before and right after the measured work. Target: no shape above 100 ms.
 *
 * The run's load average is printed with the figures: the machine may be shared.
 */
import { randomBytes } from 'node:crypto';
import os from 'node:os';
import pg from 'pg';
import { allServices } from '@herald/service-catalog';
import {
  accountWithProject,
  bearer,
  hostileJson,
  listHttpRoutes,
  pathologicalBodies,
  SeededRandom,
  startDnsServer,
  type TestProject,
} from '@herald/testing';
import {
  benchDatabase,
  importAndWait,
  loopStallMs,
  ms,
  num,
  pct,
  printTable,
  refusalOf,
  requestOnce as request,
  startStandalone,
  statusCounts,
  verifiedSenderDomain,
  waitOutboxDrained,
  withLoopStall,
  type Answer,
} from './support.js';

const REPEAT = Number(process.env.BENCH_REPEAT ?? 3);
const STALL_TARGET_MS = 100;
const MiB = 1024 * 1024;
/** /v1/send's body limit at the default MAX_ATTACHMENT_BYTES (10 MiB): its base64 and 4 MiB of content (send-body-limit.ts). */
const SEND_LIMIT = Math.ceil((10 * MiB) / 3) * 4 + 4 * MiB;
const median = (xs: number[]) => pct(Float64Array.from(xs).sort(), 50);
const loadAverage = () => `load average ${os.loadavg()[0]!.toFixed(2)} on ${os.cpus().length} cores`;

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

/** One hostile shape's figures over the runs. */
interface ShapeRow {
  shape: string;
  status: string;
  answers: number[];
  worst: number;
  benign: BenignRun[];
  notes: Set<string>;
}

/** A benign /v1/send and POST /contacts measured in one run: each one's status and stall. */
interface BenignRun {
  send: { status: number; stall: number };
  contact: { status: number; stall: number };
}

/**
 * An answer and what to print about it (an import's outcome); `aside`: a benign request's, only
 * noted; `earlierStall`: the stall up to a scrape the operation made (an import's upload).
 */
type Noted = Answer & { note?: string; aside?: boolean; earlierStall?: number };

const db = await benchDatabase('hostile');
const dns = await startDnsServer();
const admin = new pg.Pool({ connectionString: db.url, max: 2 });
const herald = await startStandalone(db, {
  WEBHOOK_SIGNING_SECRET: 'hostile-input-bench-secret-0123456789',
  DNS_SERVERS: dns.address,
});
try {
  const loadAtStart = loadAverage();
  const account: TestProject = await accountWithProject(herald.url);
  const keyHeaders = bearer(account.secretKey);
  const send = (method: string, path: string, body: string) =>
    request(
      `${herald.url}${path}`,
      method,
      { cookie: account.cookie, 'x-project-id': account.projectId, 'content-type': 'application/json' },
      body,
    );
  const api = (method: string, path: string, payload: unknown) =>
    request(`${herald.url}${path}`, method, keyHeaders, JSON.stringify(payload));
  const stallOf = <T>(work: () => Promise<T>) => withLoopStall(herald.url, work);

  /** Error lines Herald logged (its last 20 KB of output, read after each shape): a 5xx's cause. */
  const serverErrors = new Set<string>();
  const noteServerErrors = () => {
    for (const line of herald.output.split('\n'))
      if (line.includes('"level":"error"')) serverErrors.add(line.slice(0, 400));
  };

  // ---- a verified sender domain (loopback DNS), as /v1/send and campaigns need ------------------
  const from = `news@${await verifiedSenderDomain(herald.url, keyHeaders, dns, admin)}`;

  // ---- the benign pair, measured in every run of every shape --------------------------------------
  let seq = 0;
  const receipt = `<html><body><p>Hello {{ name ?? "there" }},</p>${'<p>Thank you for your order; your receipt follows.</p>'.repeat(36)}</body></html>`;
  const benign = async (): Promise<BenignRun> => {
    const [s, sendStall] = await stallOf(() =>
      api('POST', '/v1/send', { to: `benign-${seq++}@bench.test`, from, subject: 'Your receipt', body: receipt }),
    );
    const [c, contactStall] = await stallOf(() =>
      api('POST', '/contacts', { email: `benign-${seq++}@bench.test`, data: { plan: 'pro' } }),
    );
    return { send: { status: s.status, stall: sendStall }, contact: { status: c.status, stall: contactStall } };
  };

  // ---- 1. route by route ------------------------------------------------------------------------
  interface Row {
    route: string;
    shape: string;
    status: number;
    answer: number;
    block: number;
    worst: number;
    parse: number;
  }
  const measure = async (route: { method: string; path: string }, shape: string, body: string): Promise<Row> => {
    const answers: number[] = [];
    const blocks: number[] = [];
    let status = 0;
    for (let i = 0; i < REPEAT; i++) {
      const [res, block] = await stallOf(() => send(route.method, concrete(route.path), body));
      blocks.push(block);
      answers.push(res.ms);
      status = res.status;
    }
    return {
      route: `${route.method} ${route.path}`,
      shape,
      status,
      answer: median(answers),
      block: median(blocks),
      worst: Math.max(...blocks),
      parse: parseCost(body),
    };
  };

  const rows: Row[] = [];
  const shapeRows: ShapeRow[] = [];
  for (const { shape, body } of pathologicalBodies()) {
    const of: Row[] = [];
    for (const route of routes) of.push(await measure(route, shape, body));
    rows.push(...of);
    const worst = of.reduce((a, b) => (b.worst > a.worst ? b : a));
    const runs: BenignRun[] = [];
    for (let i = 0; i < REPEAT; i++) runs.push(await benign());
    shapeRows.push({
      shape: `JSON: ${shape}; worst of ${routes.length} routes: ${worst.route}`,
      status: String(worst.status),
      answers: of.map((r) => r.answer),
      worst: worst.worst,
      benign: runs,
      notes: new Set(),
    });
  }
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
      `${REPEAT} runs each; target: every answer within 200 ms; ${loadAtStart} at the start`,
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
  noteServerErrors();
  const bad = [...rows, ...fuzz].filter((r) => r.status >= 500 || r.status === 0);
  if (bad.length) console.log(`\n${bad.length} answers were 5xx or failed: ${bad.map((r) => r.route).join(', ')}`);

  // ---- 2. shape by shape ------------------------------------------------------------------------
  /**
   * Runs `op` REPEAT times, each run after the benign pair, and records its answers and the stall
   * around it; `then` (the import's events draining) is measured right after, as a row of its own.
   */
  const measureShape = async (
    shape: string,
    op: (run: number) => Promise<Noted[]>,
    then?: { shape: string; op: () => Promise<number> },
  ): Promise<void> => {
    const row: ShapeRow = { shape, status: '', answers: [], worst: 0, benign: [], notes: new Set() };
    const after: ShapeRow = { ...row, shape: then?.shape ?? '', status: '—', answers: [], notes: new Set() };
    const statuses: number[] = [];
    for (let run = 0; run < REPEAT; run++) {
      row.benign.push(await benign());
      const [answers, stall] = await stallOf(() => op(run));
      row.worst = Math.max(row.worst, stall, ...answers.map((a) => a.earlierStall ?? 0));
      for (const a of answers) {
        if (a.earlierStall !== undefined)
          row.notes.add(`run ${run + 1}: stall ${ms(a.earlierStall)} to the 202, ${ms(stall)} in the job`);
        if (a.aside) {
          row.notes.add(`a benign /v1/send sent alongside answered ${a.status} in ${ms(a.ms)}`);
          continue;
        }
        statuses.push(a.status);
        row.answers.push(a.ms);
        const why = a.note ?? refusalOf(a);
        if (why) row.notes.add(why.slice(0, 160));
      }
      if (then) {
        const [drainMs, drainStall] = await stallOf(then.op);
        after.answers.push(drainMs);
        after.worst = Math.max(after.worst, drainStall);
      }
    }
    row.status = statusCounts(statuses);
    noteServerErrors();
    shapeRows.push(row);
    if (then) shapeRows.push({ ...after, benign: row.benign });
    console.error(`measured: ${shape}`);
  };
  const times = (n: number, one: (i: number) => Promise<Answer>) =>
    Promise.all(Array.from({ length: n }, (_, i) => one(i)));
  /** `n` at once, and a benign /v1/send right after them (does it wait behind them, or fail?). */
  const timesBeside = async (n: number, one: (i: number) => Promise<Answer>): Promise<Noted[]> => {
    const all = times(n, one);
    const aside = api('POST', '/v1/send', { to: `aside-${seq++}@bench.test`, from, subject: 'Hi', body: receipt });
    return [...(await all), { ...(await aside), aside: true }];
  };

  // Liquid that runs until the render limits stop it. `xs` is as long as the data rules allow (1,000
  // items: the 2,000 of the issue are refused by the data limit before anything renders); every
  // request's template differs (a comment), so none is answered from the parse cache.
  const xs = Array.from({ length: 1000 }, (_, i) => i);
  const loops = '{% for a in xs %}{% for b in xs %}{% increment n %}{% endfor %}{% endfor %}';
  const growth = '{{ x | append: x }}'.repeat(Math.floor(400_000 / 19));
  const hostileSend = (body: string, data: Record<string, unknown>) => (i: number) =>
    api('POST', '/v1/send', {
      to: `liquid-${seq++}@bench.test`,
      from,
      subject: 'Hi',
      body: `<!--${i}.${seq}-->${body}`,
      data,
    });
  const loopSend = hostileSend(loops, { xs });
  const growthSend = hostileSend(growth, { x: 'y'.repeat(16_384) });
  await measureShape('/v1/send: nested for over 1,000 items × 1,000', async () => [await loopSend(0)]);
  await measureShape('/v1/send: nested for over 1,000 items × 1,000, 10 at once', () => timesBeside(10, loopSend));
  await measureShape('/v1/send: 400 KB of {{ x | append: x }} (x 16 KB)', async () => [await growthSend(0)]);
  await measureShape('/v1/send: 400 KB of {{ x | append: x }} (x 16 KB), 10 at once', () =>
    timesBeside(10, growthSend),
  );

  // the same loops through a campaign's test send, to a subscribed contact holding `xs`
  const tester = `tester-${Date.now().toString(36)}@bench.test`;
  const contact = await api('POST', '/contacts', { email: tester, data: { xs } });
  const campaign = await api('POST', '/campaigns', {
    name: 'Loops',
    subject: 'Hi',
    body: loops,
    from,
    audienceType: 'ALL',
  });
  if (contact.status >= 300 || campaign.status >= 300)
    throw new Error(`the campaign's setup answered ${contact.status}, ${campaign.status}: ${campaign.text}`);
  const campaignId = (JSON.parse(campaign.text) as { data: { id: string } }).data.id;
  await measureShape('POST /campaigns/:id/test: the nested for (campaign body)', async () => [
    await api('POST', `/campaigns/${campaignId}/test`, { email: tester }),
  ]);

  // bodies at and over /v1/send's size limits
  const sendBody = (bytes: number) => {
    const head = `{"to":"big-${seq++}@bench.test","from":"${from}","subject":"Big","body":"<p>x</p>","attachments":[{"filename":"a.bin","content":"`;
    const tail = '"}]}';
    return Buffer.from(head + 'A'.repeat(bytes - head.length - tail.length) + tail);
  };
  const huge = sendBody(39_000_000);
  const over = sendBody(SEND_LIMIT + 1);
  const noKey = { 'content-type': 'application/json' };
  const url = `${herald.url}/v1/send`;
  await measureShape('/v1/send: 39 MB body, no key', async () => [await request(url, 'POST', noKey, huge, true)]);
  await measureShape('/v1/send: 39 MB body, no key, 10 at once', () =>
    times(10, () => request(url, 'POST', noKey, huge, true)),
  );
  await measureShape(`/v1/send: valid key, ${(over.length / 1e6).toFixed(2)} MB (1 byte over the limit)`, async () => [
    await request(url, 'POST', keyHeaders, over, true),
  ]);
  const attachments = Array.from({ length: 10 }, (_, i) => ({
    filename: `part-${i}.bin`,
    content: randomBytes(MiB).toString('base64'),
    contentType: 'application/octet-stream',
  }));
  const largest = (i: number) =>
    JSON.stringify({ to: `large-${seq++}-${i}@bench.test`, from, subject: 'Your files', body: receipt, attachments });
  await measureShape(
    `/v1/send: valid key, ${(Buffer.byteLength(largest(0)) / 1e6).toFixed(1)} MB (10 attachments of 1 MiB)`,
    async () => [await request(url, 'POST', keyHeaders, largest(0), true)],
  );

  // CSV imports, from the upload to the completed job; then the contacts' events drained
  const importCsv = async (csv: string): Promise<Noted[]> => {
    let earlierStall: number | undefined;
    const done = await importAndWait(herald.url, keyHeaders, csv, 600_000, async () => {
      earlierStall = await loopStallMs(herald.url);
    });
    if (!done.job) return [done];
    const { status, imported, skipped, errors } = done.job;
    const reasons = [...new Set(errors.map((e) => e.reason))].join(', ');
    const note = `${status}: ${num(imported)} imported, ${num(skipped)} skipped${reasons ? ` (${reasons})` : ''}`;
    return [{ ...done, note, earlierStall }];
  };
  const drained = async () => {
    const { drainMs } = await waitOutboxDrained(admin, 600_000);
    if (drainMs < 0) throw new Error("contacts' outbox was not drained in 600 s");
    return drainMs;
  };
  const wide = (run: number) => {
    const cells = ',1'.repeat(49_999);
    const header = `email,${Array.from({ length: 49_999 }, (_, i) => `c${i + 1}`).join(',')}`;
    return [header, ...[0, 1, 2].map((r) => `wide-${run}-${r}@bench.test${cells}`)].join('\n') + '\n';
  };
  const tall = (run: number) =>
    `email,name,plan\n${Array.from({ length: 100_000 }, (_, i) => `r${run}-${String(i).padStart(6, '0')}@bench.test,Name ${i},${['free', 'pro', 'team'][i % 3]}`).join('\n')}\n`;
  const importRow = (shape: string, csv: (run: number) => string) =>
    measureShape(shape, (run) => importCsv(csv(run)), {
      shape: '  then its contact events drained (outbox)',
      op: drained,
    });
  await importRow(`CSV import: 50,000 columns × 3 rows (${(wide(0).length / 1e6).toFixed(2)} MB), to completed`, wide);
  await importRow(`CSV import: 100,000 rows (${(tall(0).length / 1e6).toFixed(2)} MB), to completed`, tall);

  // ---- the table --------------------------------------------------------------------------------
  const benignCell = (runs: BenignRun[]) => {
    const failed = runs.flatMap((r) => [r.send.status, r.contact.status]).filter((s) => s >= 300 || s === 0);
    const worst = (pick: (r: BenignRun) => number) => ms(Math.max(...runs.map(pick)));
    return `${worst((r) => r.send.stall)} / ${worst((r) => r.contact.stall)}${failed.length ? ` (answered ${statusCounts(failed)})` : ''}`;
  };
  console.log(
    `\nper hostile shape: the event loop's worst stall over ${REPEAT} runs (herald_nodejs_eventloop_lag_max_seconds, ` +
      `read before and after), beside a benign /v1/send (2 KB, one recipient) and POST /contacts in the same runs; ` +
      `${loadAtStart} at the start, ${loadAverage()} at the end`,
  );
  printTable([
    ['shape', 'status', 'answer p50', 'worst stall', 'benign stall: send / contact', `target ≤ ${STALL_TARGET_MS} ms`],
    ...shapeRows.map((r) => [
      r.shape,
      r.status,
      ms(median(r.answers)),
      ms(r.worst),
      benignCell(r.benign),
      r.worst <= STALL_TARGET_MS ? 'met' : 'NOT met',
    ]),
  ]);
  const notes = shapeRows.filter((r) => r.notes.size > 0);
  if (notes.length) console.log('\nwhat the refused and imported answers said:');
  for (const r of notes) console.log(`  ${r.shape}: ${[...r.notes].join(' | ')}`);
  if (serverErrors.size) console.log(`\nerrors Herald logged:\n${[...serverErrors].join('\n')}`);
  const over100 = shapeRows.filter((r) => !(r.worst <= STALL_TARGET_MS)).length;
  console.log(
    `\n${over100 === 0 ? 'target met' : `target NOT met: ${over100} of ${shapeRows.length} shapes`} (no stall above ${STALL_TARGET_MS} ms)`,
  );
} finally {
  await herald.stop();
  await admin.end();
  await dns.stop();
  await db.close();
}

/**
 * Issue 41's target for `POST /v1/send/batch`, measured inside `npm run bench -- sending` (step 0,
 * delivery off) on the same Herald in the same run: the emails/s of one batch of 100 items against
 * 100 single `/v1/send`s of the same bodies, sent one after another (a client's loop) and 32 in
 * flight (a client that parallelises; Herald then groups them itself). Each email has one
 * recipient, a new address (a contact created), the bench's digest body. Rounds alternate the three
 * forms; the figures are each form's emails over its total time. Target: the batch ≥ 5× the emails/s
 * of 100 single sends (one after another). `BENCH_ONLY=batch` runs this part alone.
 */
import { ms, num, printTable, summarise } from './support.js';
import { target } from './targets.js';

type Client = {
  request(
    method: string,
    path: string,
    headers: Record<string, string>,
    body?: string,
  ): Promise<{ status: number; body: string }>;
};

export interface BatchAgainstSingles {
  size: number;
  rounds: number;
  /** Elapsed ms of each round, per form. */
  batch: number[];
  sequential: number[];
  concurrent: number[];
}

const perSecond = (emails: number, elapsed: number[]) =>
  (emails * elapsed.length * 1000) / elapsed.reduce((a, b) => a + b, 0);

export async function measureBatchAgainstSingles(options: {
  client: Client;
  headers: Record<string, string>;
  /** A /v1/send body (an object) for a new recipient each call. */
  nextItem: () => Record<string, unknown>;
  size?: number;
  rounds?: number;
  concurrency?: number;
}): Promise<BatchAgainstSingles> {
  const { client, headers, nextItem } = options;
  const size = options.size ?? 100;
  const rounds = options.rounds ?? Number(process.env.BENCH_BATCH_ROUNDS ?? 10);
  const concurrency = options.concurrency ?? 32;
  const post = async (path: string, body: string) => {
    const res = await client.request('POST', path, headers, body);
    if (res.status !== 200) throw new Error(`${path} answered ${res.status}: ${res.body.slice(0, 300)}`);
    return res.body;
  };
  const batch = async () => {
    const body = await post('/v1/send/batch', JSON.stringify(Array.from({ length: size }, nextItem)));
    const items = (JSON.parse(body) as { data: { items: { emails?: unknown[] }[] } }).data.items;
    if (items.length !== size || items.some((i) => i.emails?.length !== 1))
      throw new Error(`the batch was not sent whole: ${body.slice(0, 300)}`);
  };
  const sequential = async () => {
    for (let i = 0; i < size; i++) await post('/v1/send', JSON.stringify(nextItem()));
  };
  const concurrent = async () => {
    let next = 0;
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        while (next++ < size) await post('/v1/send', JSON.stringify(nextItem()));
      }),
    );
  };
  const timed = async (f: () => Promise<void>) => {
    const t = performance.now();
    await f();
    return performance.now() - t;
  };
  // warm-up: JIT, pools, caches of both paths
  for (let i = 0; i < 3; i++) await batch();
  await concurrent();
  await sequential();
  const out: BatchAgainstSingles = { size, rounds, batch: [], sequential: [], concurrent: [] };
  for (let r = 0; r < rounds; r++) {
    // the order rotates, so that no form always runs first after a pause
    const forms = [
      ['batch', batch],
      ['sequential', sequential],
      ['concurrent', concurrent],
    ] as const;
    for (let k = 0; k < forms.length; k++) {
      const [name, f] = forms[(k + r) % forms.length]!;
      out[name].push(await timed(f));
    }
  }
  return out;
}

export function printBatchAgainstSingles(m: BatchAgainstSingles): void {
  console.log(
    `\nPOST /v1/send/batch of ${m.size} against ${m.size} single /v1/send, same Herald (standalone, delivery off), same run; ${m.rounds} rounds`,
  );
  const rows = [['form', 'emails/s', 'per 100 emails p50', 'p99', 'max']];
  const line = (label: string, elapsed: number[]) => {
    const s = summarise(elapsed);
    rows.push([label, num(perSecond(m.size, elapsed)), ms(s.p50), ms(s.p99), ms(s.max)]);
  };
  line(`one POST /v1/send/batch of ${m.size} items`, m.batch);
  line(`${m.size} POST /v1/send, one after another`, m.sequential);
  line(`${m.size} POST /v1/send, 32 in flight`, m.concurrent);
  printTable(rows);
  const batch = perSecond(m.size, m.batch);
  const sequential = perSecond(m.size, m.sequential);
  const concurrent = perSecond(m.size, m.concurrent);
  console.log('');
  printTable([
    ['target (issue 41)', 'measured', 'result'],
    [
      `batch of ${m.size} ≥ 5× the emails/s of ${m.size} single sends`,
      `${num(batch)}/s against ${num(sequential)}/s = ${(batch / sequential).toFixed(1)}×`,
      target({
        target: `/v1/send/batch of ${m.size} ≥ 5× the emails/s of single sends one after another (issue 41)`,
        measured: `${num(batch)}/s`,
        raw: `${num(sequential)}/s single sends`,
        ratio: batch / sequential,
        met: batch >= 5 * sequential,
      }),
    ],
    ['(against 32 single sends in flight)', `${(batch / concurrent).toFixed(1)}× (${num(concurrent)}/s)`, ''],
  ]);
}

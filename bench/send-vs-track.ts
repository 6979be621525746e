/**
 * Issue 38's target for `/v1/send`, measured inside `npm run bench -- sending` (step 1, delivery off)
 * against `/v1/track` on the same Herald in the same run: both at capacity (closed loop, the same
 * number in flight), then `/v1/send` offered at half of `/v1/track`'s capacity (open loop, no
 * coordinated omission). Each request names a new address, so each upserts a new contact: a track
 * writes the contact and its event, a send the contact and its email (rendered, queued).
 * Targets: accepted `/v1/send` ≥ 50% of `/v1/track`'s capacity; p99 < 100 ms at half of that rate.
 *
 * After each run (warm-ups included) the bench waits for Herald's asynchronous work to finish
 * (`drain`: every outbox published, so every consumer has applied every event), so that no run pays
 * for the backlog of the one before (a track's consumers lagging into the send run made sends look
 * dearer and tracks cheaper). Each run's CPU is then also given with that work included: Herald's
 * CPU from the run's start to the end of its drain, per request.
 */
import { closedLoop, cpuMeter, ms, num, openLoop, printTable, summarise, type LoadResult } from './support.js';
import { target } from './targets.js';

type Client = {
  request(
    method: string,
    path: string,
    headers: Record<string, string>,
    body?: string,
  ): Promise<{ status: number; body: string }>;
};

/** A run and the asynchronous work it left (consumers, relays), drained before the next run. */
export interface DrainedRun extends LoadResult {
  /** Time from the run's last answer until every outbox was published (ms). */
  drainMs: number;
  /** Herald's CPU from the run's start to the end of its drain, per request answered (ms). */
  cpuWithAsyncMs: number;
}

export interface SendAgainstTrack {
  track: DrainedRun;
  send: DrainedRun;
  paced: DrainedRun;
  pacedRate: number;
}

const rate = (r: LoadResult) => (r.ok / r.elapsedMs) * 1000;
/** Herald's CPU per request in ms (the spawned process's cores × time / requests). */
const cpuPer = (r: LoadResult) => (r.cpu.children * r.elapsedMs) / Math.max(1, r.ok);

export async function measureSendAgainstTrack(options: {
  client: Client;
  headers: Record<string, string>;
  /** A /v1/send body for a new recipient each call. */
  nextSend: () => string;
  run: string;
  concurrency: number;
  durationMs: number;
  pgPids: () => Promise<number[]>;
  /** Waits until Herald's asynchronous work is done (every outbox published); ms taken. */
  drain: () => Promise<number>;
}): Promise<SendAgainstTrack> {
  const { client, headers, concurrency, durationMs, pgPids, drain } = options;
  const drained = async (run: () => Promise<LoadResult>): Promise<DrainedRun> => {
    const meter = await cpuMeter();
    const started = performance.now();
    const result = await run();
    const drainMs = await drain();
    const cpu = await meter();
    const cpuWithAsyncMs = (cpu.children * (performance.now() - started)) / Math.max(1, result.ok);
    return { ...result, drainMs, cpuWithAsyncMs };
  };
  let seq = 0;
  const track = async () => {
    const body = JSON.stringify({
      event: 'digest-read',
      email: `tracker-${options.run}-${seq++}@bench.test`,
      data: { plan: 'pro' },
    });
    const res = await client.request('POST', '/v1/track', headers, body);
    if (res.status !== 200) throw new Error(`/v1/track answered ${res.status}: ${res.body.slice(0, 300)}`);
  };
  const send = async () => {
    const res = await client.request('POST', '/v1/send', headers, options.nextSend());
    if (res.status !== 200) throw new Error(`/v1/send answered ${res.status}: ${res.body.slice(0, 300)}`);
  };
  // warm-up: JIT, pools, caches of both paths
  await drained(() => closedLoop(concurrency, 2000, track));
  await drained(() => closedLoop(concurrency, 2000, send));
  const trackRun = await drained(() => closedLoop(concurrency, durationMs, track, { pgPids }));
  const sendRun = await drained(() => closedLoop(concurrency, durationMs, send, { pgPids }));
  const pacedRate = Math.max(1, Math.round(rate(trackRun) / 2));
  const paced = await drained(() => openLoop(pacedRate, durationMs, send, { pgPids }));
  return { track: trackRun, send: sendRun, paced, pacedRate };
}

export function printSendAgainstTrack(m: SendAgainstTrack, concurrency: number): void {
  console.log(
    `\n/v1/send against /v1/track, same Herald (standalone, delivery off), same run; ${concurrency} in flight for the closed loops`,
  );
  const rows = [
    [
      'request',
      'count',
      'per second',
      'p50',
      'p99',
      'max',
      'errors',
      'herald cores',
      'postgres cores',
      'herald CPU/request',
      'drained after',
      'CPU/request, async work included',
    ],
  ];
  const line = (label: string, r: DrainedRun) => {
    const s = summarise(r.latencies);
    rows.push([
      label,
      num(r.ok),
      num(rate(r)),
      ms(s.p50),
      ms(s.p99),
      ms(s.max),
      String(r.errors),
      r.cpu.children.toFixed(2),
      r.cpu.pg.toFixed(2),
      ms(cpuPer(r)),
      r.drainMs < 0 ? 'not in time' : ms(r.drainMs),
      ms(r.cpuWithAsyncMs),
    ]);
  };
  line('POST /v1/track, capacity (closed loop)', m.track);
  line('POST /v1/send, capacity (closed loop)', m.send);
  line(`POST /v1/send, ${num(m.pacedRate)}/s offered (open loop)`, m.paced);
  printTable(rows);
  for (const [label, r] of [
    ['track', m.track],
    ['send', m.send],
    ['paced send', m.paced],
  ] as const)
    if (r.firstError) console.error(`first error (${label}): ${r.firstError}`);
  const share = rate(m.send) / rate(m.track);
  const p99 = summarise(m.paced.latencies).p99;
  const trackLimit = `/v1/track ${num(rate(m.track))}/s`;
  console.log('');
  printTable([
    ['target (issue 38)', 'measured', 'raw limit (same run)', 'result'],
    [
      '/v1/send accepted ≥ 50% of /v1/track capacity',
      `${num(rate(m.send))}/s = ${Math.round(share * 100)}%`,
      trackLimit,
      target({
        target: '/v1/send accepted ≥ 50% of /v1/track capacity (issue 38)',
        measured: `${num(rate(m.send))}/s`,
        raw: trackLimit,
        ratio: share,
        met: share >= 0.5,
      }),
    ],
    [
      `/v1/send p99 < 100 ms at half of /v1/track capacity (${num(m.pacedRate)}/s)`,
      ms(p99),
      `${num(rate(m.paced))}/s answered`,
      target({
        target: `/v1/send p99 < 100 ms at half of /v1/track capacity (issue 38)`,
        measured: `${ms(p99)} at ${num(m.pacedRate)}/s, ${m.paced.errors} errors`,
        met: p99 < 100 && m.paced.errors === 0,
      }),
    ],
    ['CPU per request: send / track', `${ms(cpuPer(m.send))} / ${ms(cpuPer(m.track))}`, '', ''],
    [
      'the same, async work included',
      `${ms(m.send.cpuWithAsyncMs)} / ${ms(m.track.cpuWithAsyncMs)}`,
      `ratio ${(m.track.cpuWithAsyncMs / m.send.cpuWithAsyncMs).toFixed(2)}`,
      '',
    ],
  ]);
}

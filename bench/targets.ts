/**
 * The targets a bench judges, recorded for `npm run bench -- all` (bench/all.bench.ts).
 *
 * A bench judges each of its targets with {@link target}: the verdict comes back for the bench's own
 * table, and when `BENCH_TARGETS_FILE` names a file (the `all` runner sets it), the judgement is
 * appended to it as one JSON line. A **ratio** target compares a figure with a raw limit measured in
 * the same run (Herald against raw nodemailer, raw SQL, the same route without a feature): the machine
 * cancels out, so a miss is a regression and `all` exits non-zero; so does a missed **invariant** (a
 * ledger that does not add up). An **absolute** target (a latency, a rate) depends on the machine:
 * `all` reports it, met or not, without failing.
 */
import { appendFileSync, readFileSync } from 'node:fs';
import { basename } from 'node:path';

export interface Judgement {
  /** The bench that judged it (its file name without `.bench.js`). */
  bench: string;
  /** The target, as the issue states it: "/v1/send accepted ≥ 50% of /v1/track's capacity". */
  target: string;
  /** The figure measured, with its unit. */
  measured: string;
  /** The raw limit measured in the same run, with its unit ('' for an absolute target). */
  raw: string;
  /** measured / raw, for a ratio target. */
  ratio?: number;
  /** A correctness check beside the speed (the ledger adds up, nothing lost): a miss fails the run. */
  invariant?: boolean;
  met: boolean;
}

export type TargetInput = Omit<Judgement, 'bench' | 'raw'> & { raw?: string };

/** The file `all` collects judgements in. */
export const TARGETS_FILE_VARIABLE = 'BENCH_TARGETS_FILE';

/** The bench this process runs: `dist/bench/<name>.bench.js` → `<name>`. */
export function benchName(script = process.argv[1] ?? ''): string {
  return basename(script).replace(/\.bench\.[cm]?js$/, '');
}

/** Judges one target: records it for `all` (when it runs this bench) and answers the bench's verdict column. */
export function target(input: TargetInput): 'met' | 'NOT met' {
  const judgement: Judgement = { bench: benchName(), raw: '', ...input };
  const file = process.env[TARGETS_FILE_VARIABLE];
  if (file) appendFileSync(file, `${JSON.stringify(judgement)}\n`);
  return judgement.met ? 'met' : 'NOT met';
}

/** The judgements a run recorded (one JSON object a line; a line cut by a crash is skipped). */
export function readJudgements(file: string): Judgement[] {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return [];
  }
  const out: Judgement[] = [];
  for (const line of text.split('\n')) {
    if (!line.trim()) continue;
    try {
      out.push(JSON.parse(line) as Judgement);
    } catch {
      // a bench killed mid-write
    }
  }
  return out;
}

export const isRatio = (j: Judgement): boolean => j.ratio !== undefined;

/** Whether missing `j` fails the run: a ratio target (the machine cancels out) or an invariant. */
export const failsRun = (j: Judgement): boolean => isRatio(j) || j.invariant === true;

export interface BenchRun {
  bench: string;
  /** The process's exit code (null when killed by a signal). */
  exitCode: number | null;
  seconds: number;
  /** A bench with figures and no target of its own (cold start, the gateway's added latency). */
  figuresOnly?: boolean;
}

export interface Verdict {
  /** The table's rows, header first. */
  rows: string[][];
  /** Why the run fails: ratio targets missed, benches that failed or judged nothing. */
  failures: string[];
}

/**
 * The judging table of a run of several benches: one row per target (bench, target, measured, raw
 * limit, ratio, verdict), and the reasons the run fails. A bench that exited non-zero or recorded no
 * target (unless it has figures only) fails the run too: one that stopped judging would pass silently.
 */
export function judge(runs: BenchRun[], judgements: Judgement[]): Verdict {
  const rows: string[][] = [['bench', 'target', 'measured', 'raw limit (same run)', 'ratio', 'verdict']];
  const failures: string[] = [];
  for (const run of runs) {
    const mine = judgements.filter((j) => j.bench === run.bench);
    if (run.exitCode !== 0)
      failures.push(`${run.bench} exited with ${run.exitCode === null ? 'a signal' : `code ${run.exitCode}`}`);
    if (mine.length === 0 && run.figuresOnly) rows.push([run.bench, '(figures only: no target)', '', '', '', '']);
    else if (mine.length === 0) {
      failures.push(`${run.bench} judged no target`);
      rows.push([run.bench, '(no target judged)', '', '', '', 'FAILED']);
    }
    for (const j of mine) {
      const verdict = j.met ? 'met' : failsRun(j) ? 'NOT met (fails the run)' : 'NOT met (absolute: the machine)';
      if (!j.met && failsRun(j)) failures.push(`${j.bench}: ${j.target}`);
      rows.push([
        j.bench,
        j.target,
        j.measured,
        j.raw,
        j.ratio === undefined ? '' : j.ratio >= 2 ? `${j.ratio.toFixed(1)}×` : `${(j.ratio * 100).toFixed(0)}%`,
        verdict,
      ]);
    }
  }
  return { rows, failures };
}

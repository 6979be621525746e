/**
 * Every bench, judged: `npm run bench -- all` (issue 40 item 4).
 *
 * Runs each bench of {@link BENCHES} one after another with its short profile (sizes cut so the
 * whole run takes minutes; `BENCH_PROFILE=full` runs each with its own defaults), its output streamed
 * as it goes, each bench in its own process (`node dist/bench/<name>.bench.js`, as `npm run bench --
 * <name>` runs it). Each bench judges its targets through bench/targets.ts into one file; at the end
 * one table lists every target (measured, raw limit measured in the same run, ratio, verdict), and the
 * run exits non-zero when a ratio target is missed or a bench failed or judged nothing. Absolute
 * targets (latencies, rates) are reported, met or not, without failing: they measure the machine.
 * `BENCH_ALL_ONLY=sending,campaigns` runs a subset. The machine's load is printed at each step.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { BENCHES, type BenchPlan } from './suite.js';
import { printTable } from './support.js';
import { type BenchRun, judge, readJudgements, TARGETS_FILE_VARIABLE } from './targets.js';

function load(): string {
  return os
    .loadavg()
    .map((x) => x.toFixed(1))
    .join(' ');
}

function run(plan: BenchPlan, env: NodeJS.ProcessEnv): Promise<BenchRun> {
  const started = performance.now();
  const script = path.join(path.dirname(new URL(import.meta.url).pathname), `${plan.name}.bench.js`);
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [script], { env, stdio: 'inherit' });
    child.on('exit', (code) =>
      resolve({ bench: plan.name, exitCode: code, seconds: Math.round((performance.now() - started) / 1000) }),
    );
    child.on('error', () => resolve({ bench: plan.name, exitCode: null, seconds: 0 }));
  });
}

async function main(): Promise<void> {
  const full = process.env.BENCH_PROFILE === 'full';
  const only = process.env.BENCH_ALL_ONLY?.split(',').map((s) => s.trim());
  const dir = mkdtempSync(path.join(os.tmpdir(), 'herald-bench-all-'));
  const file = path.join(dir, 'targets.jsonl');
  const runs: BenchRun[] = [];
  const skipped: string[][] = [];
  const here = path.dirname(new URL(import.meta.url).pathname);
  try {
    for (const plan of BENCHES) {
      if (only && !only.includes(plan.name)) continue;
      const why = plan.skip?.() ?? (existsSync(path.join(here, `${plan.name}.bench.js`)) ? undefined : 'not built');
      if (why) {
        skipped.push([plan.name, why]);
        continue;
      }
      console.log(`\n=== ${plan.name} (${full ? 'full' : 'short'} profile; load ${load()}) ===\n`);
      const env = { ...(full ? {} : plan.short), ...process.env, [TARGETS_FILE_VARIABLE]: file };
      const r = { ...(await run(plan, env)), figuresOnly: plan.figuresOnly };
      runs.push(r);
      console.log(`\n=== ${plan.name}: ${r.exitCode === 0 ? 'done' : `exit ${r.exitCode}`} in ${r.seconds} s ===`);
    }
    const verdict = judge(runs, readJudgements(file));
    console.log(`\nEvery target (${full ? 'full' : 'short'} profile; load ${load()} at the end):\n`);
    printTable(verdict.rows);
    console.log('');
    printTable([
      ['bench', 'seconds'],
      ...runs.map((r) => [r.bench, String(r.seconds)]),
      ['total', String(runs.reduce((s, r) => s + r.seconds, 0))],
    ]);
    if (skipped.length) {
      console.log('\nnot run:');
      for (const [name, why] of skipped) console.log(`  ${name}: ${why}`);
    }
    if (verdict.failures.length) {
      console.log(`\nFAILED (${verdict.failures.length}):`);
      for (const f of verdict.failures) console.log(`  ${f}`);
      process.exitCode = 1;
    } else console.log('\nevery ratio target met, every bench ran');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();

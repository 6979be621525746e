/**
 * Faults in turn under one steady load (the network and cluster scenarios): each step sets its fault,
 * lets `seconds` of load be answered, heals it, and waits until the API answers 2xx again. Then the
 * load stops, the backlog drains and every step is judged on its own window of the ledger: the
 * oracle's invariants (nothing lost, stuck or duplicated), the API answering again within
 * `STUCK_LIMIT_MS` of the heal, and the backlog drained within it once the load stopped — no consumer
 * left stuck by a fault.
 */
import { eventually } from '@herald/testing';
import type { FaultHerald } from './herald.js';
import type { LoadDriver } from './load.js';
import { errorRate, judge, recoveryMs, within, type Verdict } from './oracle.js';
import { recordRow, rowFrom, type FaultRow } from './report.js';

export const STUCK_LIMIT_MS = 60_000;

export interface FaultStep {
  name: string;
  /** Seconds of load answered while the fault holds. */
  seconds: number;
  fault(): unknown;
  heal?(): unknown;
}

interface Phase {
  name: string;
  at: number;
  healedAt: number;
}

/** The steps whose name holds one of the words of `filter` (e.g. FAULTS_NET_ONLY), or all. */
export function selectSteps(steps: FaultStep[], filter = ''): FaultStep[] {
  const words = filter.split(/[ ,]+/).filter(Boolean);
  return words.length ? steps.filter((s) => words.some((w) => s.name.toLowerCase().includes(w.toLowerCase()))) : steps;
}

/** Every request of the last 3 s answered 2xx: the API is back (or the deadline says it is not). */
function answeringAgain(load: LoadDriver): Promise<void> {
  return eventually(
    () => {
      const recent = load.ledger.filter((e) => e.startedAt >= Date.now() - 3_000);
      return recent.length >= 10 && recent.every((e) => e.status !== null && e.status < 300);
    },
    { timeoutMs: STUCK_LIMIT_MS + 30_000, intervalMs: 250, message: 'every answer 2xx again' },
  ).then(
    () => undefined,
    () => undefined, // judged by the step's recovery: none
  );
}

/**
 * Runs `steps` under `load` (started), stops it, lets `herald` settle, records one row per step
 * (scenario `<prefix>: <step>`) and answers the rows with the whole ledger's verdict.
 */
export async function runFaultSteps(
  prefix: string,
  herald: FaultHerald,
  load: LoadDriver,
  steps: FaultStep[],
): Promise<{ rows: FaultRow[]; whole: Verdict; drainedMs: number }> {
  const phases: Phase[] = [];
  for (const step of steps) {
    const at = Date.now();
    await step.fault();
    await load.answeredSince(at, step.seconds * load.rate);
    await step.heal?.();
    const healedAt = Date.now();
    phases.push({ name: step.name, at, healedAt });
    await answeringAgain(load);
    console.log(`${prefix}: ${step.name}: ${Math.round((Date.now() - healedAt) / 1000)} s to answer again`);
  }
  await load.stop();
  // the load has stopped after the API answered again: what is left is the consumers' backlog
  const drainedMs = await herald.settle(load.ledger);
  const state = await herald.finalState();
  const rows = phases.map((p, i) => {
    const end = phases[i + 1]?.at ?? Infinity;
    const window = within(load.ledger, p.at, end);
    const recovered = recoveryMs(window, p.healedAt, end);
    const tooSlow = recovered !== null && recovered > STUCK_LIMIT_MS;
    const row = rowFrom(
      `${prefix}: ${p.name}`,
      judge(window, state),
      {
        // from the fault to the first answer after the last failure (0: nothing failed), as the kill scenario counts
        recoveryMs: recovered === null ? null : recoveryMs(window, p.at, end),
        errorRate: errorRate(within(load.ledger, p.at, p.healedAt + 1000)),
      },
      { note: tooSlow ? [`answered again ${Math.round(recovered / 1000)} s after the heal`] : [] },
    );
    return { ...row, passed: row.passed && !tooSlow };
  });
  const last = rows[rows.length - 1];
  if (last && drainedMs > STUCK_LIMIT_MS)
    rows[rows.length - 1] = {
      ...last,
      passed: false,
      note: [last.note, `backlog drained ${Math.round(drainedMs / 1000)} s after the load stopped`]
        .filter(Boolean)
        .join('; '),
    };
  for (const r of rows) {
    recordRow(r);
    console.log(JSON.stringify(r));
  }
  return { rows, whole: judge(load.ledger, state), drainedMs };
}

/**
 * The fault suite's table (issue 44): each scenario appends its row to the run's rows file as it
 * ends; `npm run faults` prints them all as one table once Jest is done (test/faults/run.sh).
 */
import { appendFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Verdict } from './oracle.js';

export interface FaultRow {
  scenario: string;
  acknowledged: number;
  lost: number;
  duplicated: number;
  inDoubt: number;
  /** Milliseconds from the fault to recovery, null when it did not recover in the scenario's time (absent: not measured). */
  recoveryMs?: number | null;
  /** Share of requests during the fault not answered with a 2xx, 0–1 (absent: not measured). */
  errorRate?: number;
  /** Whether the scenario's invariant held. */
  passed: boolean;
  note?: string;
}

/**
 * The rows of one run: test-results/faults-<build folder>.jsonl, so that runs from separate builds
 * (HERALD_DIST) side by side neither mix nor clear each other's rows.
 */
export const ROWS_FILE = path.join(
  process.cwd(),
  'test-results',
  `faults-${path.basename(process.env.HERALD_DIST ?? 'dist')}.jsonl`,
);

export function recordRow(row: FaultRow): void {
  mkdirSync(path.dirname(ROWS_FILE), { recursive: true });
  appendFileSync(ROWS_FILE, `${JSON.stringify(row)}\n`);
}

const COLUMNS = [
  'scenario',
  'acknowledged',
  'lost',
  'duplicated',
  'in doubt',
  'recovery',
  'errors during fault',
  'invariant',
];

/** The rows as one plain-text table, columns padded to their widest cell. */
export function formatTable(rows: readonly FaultRow[]): string {
  const cells = rows.map((r) => [
    r.scenario,
    String(r.acknowledged),
    String(r.lost),
    String(r.duplicated),
    String(r.inDoubt),
    r.recoveryMs === undefined ? '-' : r.recoveryMs === null ? 'none' : `${(r.recoveryMs / 1000).toFixed(1)} s`,
    r.errorRate === undefined ? '-' : `${(r.errorRate * 100).toFixed(1)} %`,
    r.passed ? 'held' : `BROKEN${r.note ? `: ${r.note}` : ''}`,
  ]);
  const widths = COLUMNS.map((c, i) => Math.max(c.length, ...cells.map((row) => row[i]!.length)));
  const line = (row: readonly string[]) =>
    row
      .map((c, i) => (i === 0 || i === row.length - 1 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!)))
      .join('  ')
      .trimEnd();
  return [line(COLUMNS), line(widths.map((w) => '-'.repeat(w))), ...cells.map(line)].join('\n');
}

/**
 * A scenario's row from its verdict: stuck emails count as lost (a consumer that never caught up
 * loses what it holds, as far as the user can tell); the invariant holds when nothing was lost,
 * stuck or duplicated. The note names the first few of each.
 */
export function rowFrom(
  scenario: string,
  v: Verdict,
  fault: { recoveryMs?: number | null; errorRate?: number },
  extra: { lost?: number; duplicated?: number; note?: string[] } = {},
): FaultRow {
  const lost = v.lost.length + v.stuck.length + (extra.lost ?? 0);
  const duplicated = v.duplicated.length + (extra.duplicated ?? 0);
  const note = [
    ...(extra.note ?? []),
    ...v.lost.slice(0, 3).map((l) => `${l.entry.kind} ${l.entry.id ?? l.entry.recipient}: ${l.why}`),
    ...v.stuck.slice(0, 3).map((id) => `email ${id} stuck`),
    ...v.duplicated.slice(0, 3).map((d) => `${d.messageId} x${d.copies}`),
    ...(fault.recoveryMs === null ? ['never recovered: no request succeeded after the last failure'] : []),
  ];
  return {
    scenario,
    acknowledged: v.acknowledged,
    lost,
    duplicated,
    inDoubt: v.inDoubt.length,
    ...fault,
    passed: lost === 0 && duplicated === 0 && fault.recoveryMs !== null,
    ...(note.length ? { note: note.join('; ') } : {}),
  };
}

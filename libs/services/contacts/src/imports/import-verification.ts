import { isInvalidVerdict, type ListVerification } from '@herald/verification';
import type { ImportRowError, VerdictCounts } from './contact-import.entity.js';

/** A row of an import whose address is valid, ready to be written. */
export interface ValidRow {
  /** Row number in the file, the header being row 1. */
  row: number;
  email: string;
  data: Record<string, unknown>;
}

export interface VerifiedRows {
  /** The rows to import. */
  kept: ValidRow[];
  /** Rows left out for an invalid verdict (skipInvalid only). */
  errors: ImportRowError[];
  /** Rows imported with a verdict. */
  warnings: ImportRowError[];
  /** Rows with each verdict, and `checked`: the rows verified. */
  verdicts: VerdictCounts;
}

/**
 * Verifies a batch of an import's rows (their new domains are looked up first: call it outside any
 * transaction; `signal`, the job's, stops the lookups when the job's lease is lost). Each row with a verdict is counted under it and reported with it (and the typo
 * suggestion); with `skipInvalid`, a row with an invalid verdict (invalid_domain, disposable) is an
 * error and left out, every other verdict a warning on a row that is imported.
 */
export async function verifyRows(
  rows: ValidRow[],
  verification: ListVerification,
  skipInvalid: boolean,
  signal?: AbortSignal,
): Promise<VerifiedRows> {
  await verification.learn(
    rows.map((r) => r.email),
    signal,
  );
  const out: VerifiedRows = { kept: [], errors: [], warnings: [], verdicts: { checked: rows.length } };
  for (const r of rows) {
    const found = verification.verdictOf(r.email);
    if (!found) {
      out.kept.push(r);
      continue;
    }
    out.verdicts[found.verdict] = (out.verdicts[found.verdict] ?? 0) + 1;
    const report: ImportRowError = { row: r.row, email: r.email, reason: found.verdict };
    if (found.suggestion) report.suggestion = found.suggestion;
    if (skipInvalid && isInvalidVerdict(found.verdict)) out.errors.push(report);
    else {
      out.warnings.push(report);
      out.kept.push(r);
    }
  }
  return out;
}

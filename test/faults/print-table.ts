/** Prints the run's rows file (report.ts: ROWS_FILE) as the fault suite's table (run by test/faults/run.sh after Jest). */
import { existsSync, readFileSync } from 'node:fs';
import { formatTable, ROWS_FILE, type FaultRow } from './report.js';

const rows: FaultRow[] = existsSync(ROWS_FILE)
  ? readFileSync(ROWS_FILE, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as FaultRow)
  : [];
process.stdout.write(rows.length ? `${formatTable(rows)}\n` : 'no fault scenario recorded a row\n');

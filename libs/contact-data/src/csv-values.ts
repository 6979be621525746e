/**
 * CSV import rules (spec: "CSV import rules", items 1, 4 and 5): how one row becomes an email and a
 * data patch. The result's `data` is then applied with applyDataPatch like any other write.
 */
import { RESERVED_DATA_KEYS } from './data-patch.js';

/** Columns silently dropped from a CSV row (matched case-insensitively, after trimming the header). */
export const DROPPED_CSV_COLUMNS: readonly string[] = [
  'id',
  'subscribed',
  'createdAt',
  'updatedAt',
  'unsubscribeUrl',
  'subscribeUrl',
  'manageUrl',
];

const BOOLEANS: ReadonlyMap<string, boolean> = new Map([
  ['true', true],
  ['false', false],
  ['yes', true],
  ['no', false],
]);
const PLAIN_NUMBER_RE = /^-?(\d+)(\.\d+)?$/;
const LEADING_ZERO_RE = /^-?0\d/;

/**
 * Types one CSV cell. The cell is trimmed first; then:
 * - `true`, `false`, `yes`, `no` in any case → boolean (yes → true, no → false);
 * - a plain integer or decimal (`-?\d+(\.\d+)?`) → number, except (these stay strings):
 *   a leading zero followed by more digits (`007`, `02134`, `00.5`; but `0`, `0.5`, `-0.5` are numbers),
 *   an integer part beyond Number.MAX_SAFE_INTEGER (phone numbers, long ids; also for decimals);
 * - everything else → the trimmed string: leading `+` (`+4915112345678`), scientific notation (`1e10`),
 *   `.5`, `5.`, `1,000`, ISO 8601 dates (they are typed `date` by inferFieldType, not converted here);
 * - an empty or whitespace-only cell → `''` (which applyDataPatch ignores).
 */
export function typeCsvCell(raw: string): string | number | boolean {
  const cell = typeof raw === 'string' ? raw.trim() : '';
  const bool = BOOLEANS.get(cell.toLowerCase());
  if (bool !== undefined) return bool;
  const num = PLAIN_NUMBER_RE.exec(cell);
  if (!num || LEADING_ZERO_RE.test(cell)) return cell;
  if (!Number.isSafeInteger(Number(num[1]))) return cell;
  const value = Number(cell);
  return Object.is(value, -0) ? 0 : value;
}

const DROPPED = new Set([...DROPPED_CSV_COLUMNS, ...RESERVED_DATA_KEYS].map((c) => c.toLowerCase()));

export interface CsvRow {
  /** The trimmed email cell (not lower-cased: normalise with normaliseEmail); undefined when there is no email column or the cell is empty. */
  email: string | undefined;
  /** Data patch for the contact: one key per remaining column (header trimmed, case kept). */
  data: Record<string, unknown>;
}

/**
 * Maps one CSV row to an email and a data patch.
 * - The first column whose trimmed header is `email` (any case) gives the email.
 * - Columns in DROPPED_CSV_COLUMNS or RESERVED_DATA_KEYS (any case) are dropped, as are columns
 *   with an empty header.
 * - Every other column becomes a flat data key (a header `profile.tier` is the key "profile.tier",
 *   not a nested object) with the value typeCsvCell gives; empty and missing cells become `''`.
 * - When two columns have the same header, the later non-empty cell wins.
 * Cells beyond the last header are ignored.
 */
export function mapCsvRow(headers: string[], cells: string[]): CsvRow {
  let email: string | undefined;
  let emailSeen = false;
  const data: Record<string, unknown> = {};
  headers.forEach((header, i) => {
    const name = typeof header === 'string' ? header.trim() : '';
    const raw = typeof cells[i] === 'string' ? cells[i] : '';
    const lower = name.toLowerCase();
    if (lower === 'email') {
      if (!emailSeen) {
        emailSeen = true;
        email = raw.trim() === '' ? undefined : raw.trim();
      }
      return;
    }
    if (name === '' || DROPPED.has(lower) || lower === '__proto__') return;
    const value = typeCsvCell(raw);
    if (value === '' && Object.prototype.hasOwnProperty.call(data, name)) return;
    Object.defineProperty(data, name, { value, enumerable: true, writable: true, configurable: true });
  });
  return { email, data };
}

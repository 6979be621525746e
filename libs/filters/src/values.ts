/**
 * Value rules both evaluators share: which strings qualify as dates, how a `data.<path>` is read,
 * and which strings a filter may carry.
 */
import { isIsoDate, isPlainObject } from '@herald/contact-data';
import type { Scalar } from './model.js';

/**
 * A string qualifies as a date for date operators when `isIsoDate` accepts it (`YYYY-MM-DD` or
 * `YYYY-MM-DDTHH:MM:SS[.sss]Z`, real calendar days) and its year is not 0000 (PostgreSQL has no
 * year zero). A slash date never qualifies.
 */
export function qualifiesAsDate(value: unknown): value is string {
  return isIsoDate(value) && !value.startsWith('0000');
}

/** The instant (epoch ms, UTC) of a qualifying date string; a bare day is its UTC midnight. */
export function dateInstant(value: string): number {
  return Date.parse(value.length === 10 ? `${value}T00:00:00Z` : value);
}

/**
 * `qualifiesAsDate` as a PostgreSQL regular expression (advanced regex flavour), so SQL guards a
 * cast with exactly the test the matcher applies: months of the right length, Feb 29 only in leap
 * years, hours 00-23, exactly three fraction digits or none, `Z` only, no year 0000.
 * A unit test checks it against `qualifiesAsDate` on generated strings.
 */
export const DATE_SQL_REGEX =
  '^(?!0000)(?:' +
  '\\d{4}-(?:(?:0[13578]|1[02])-(?:0[1-9]|[12]\\d|3[01])|(?:0[469]|11)-(?:0[1-9]|[12]\\d|30)|02-(?:0[1-9]|1\\d|2[0-8]))' +
  '|(?:\\d\\d(?:0[48]|[2468][048]|[13579][26])|(?:[02468][048]|[13579][26])00)-02-29' +
  ')(?:T(?:[01]\\d|2[0-3]):[0-5]\\d:[0-5]\\d(?:\\.\\d{3})?Z)?$';

/**
 * The value at a `data.<path>`: each key descends into a plain object; anything else on the way
 * (an array, a string, a missing key) gives undefined. Arrays are leaves: `data.tags.0` never
 * addresses an element. A JSON null comes back as null.
 */
export function valueAtPath(data: unknown, keys: readonly string[]): unknown {
  let current: unknown = data;
  for (const key of keys) {
    if (!isPlainObject(current) || !Object.hasOwn(current, key)) return undefined;
    current = current[key];
  }
  return current;
}

/** True when a key could address an array element in PostgreSQL's `#>` (SQL then checks the parent is an object). */
export function mayIndexArray(key: string): boolean {
  return /\d/.test(key);
}

/** A string a filter may carry: PostgreSQL text holds neither NUL nor lone UTF-16 surrogates. */
export function isStorableString(s: string): boolean {
  return !s.includes('\u0000') && !/\p{Cs}/u.test(s);
}

/** `s` escaped for a LIKE pattern with PostgreSQL's default escape character (backslash). */
export function escapeLike(s: string): string {
  return s.replace(/[\\%_]/g, (ch) => `\\${ch}`);
}

export function isScalar(value: unknown): value is Scalar {
  return (
    typeof value === 'string' || typeof value === 'boolean' || (typeof value === 'number' && Number.isFinite(value))
  );
}

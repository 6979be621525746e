/**
 * Type inference of custom fields (spec: "Type inference of custom fields").
 *
 * The function here classifies ONE value. "The type is fixed by the first non-null value seen for a
 * key in the project" is the caller's bookkeeping: call inferFieldType on each value and keep the
 * first non-null answer.
 */

export type FieldType = 'string' | 'number' | 'boolean' | 'date';

/** A plain JSON-style object (`{}` literal, JSON.parse result or null-prototype object); not an array, Date, Buffer... */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value) as unknown;
  return proto === Object.prototype || proto === null;
}

const DAY_RE = /^(\d{4})-(\d{2})-(\d{2})$/;
const TIMESTAMP_RE = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.\d{3})?Z$/;

function isLeapYear(year: number): boolean {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}

function isRealDay(year: number, month: number, day: number): boolean {
  if (month < 1 || month > 12 || day < 1) return false;
  const days = [31, isLeapYear(year) ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
  return day <= days[month - 1]!;
}

/**
 * True for the two date shapes the spec accepts, with real values:
 * - `YYYY-MM-DD` (a real calendar date: no 2023-02-29, no month 13);
 * - `YYYY-MM-DDTHH:MM:SSZ` or `YYYY-MM-DDTHH:MM:SS.sssZ` (exactly three fraction digits, UTC `Z` only,
 *   hours 00-23, minutes and seconds 00-59).
 * Anything else (offsets like +02:00, lower-case t/z, slash dates, week dates) is not a date.
 */
export function isIsoDate(s: unknown): s is string {
  if (typeof s !== 'string') return false;
  const day = DAY_RE.exec(s);
  if (day) return isRealDay(Number(day[1]), Number(day[2]), Number(day[3]));
  const ts = TIMESTAMP_RE.exec(s);
  if (!ts) return false;
  const [hh, mm, ss] = [Number(ts[4]), Number(ts[5]), Number(ts[6])];
  return isRealDay(Number(ts[1]), Number(ts[2]), Number(ts[3])) && hh <= 23 && mm <= 59 && ss <= 59;
}

/**
 * The type of one value, or null when the value gives no type:
 * - null / undefined → null (a null never fixes a type);
 * - plain objects and arrays → null (they are not leaves; see flattenLeaves for nested keys;
 *   arrays are leaves for flattenLeaves but have no filterable type);
 * - finite number → 'number'; boolean → 'boolean';
 * - string matching isIsoDate → 'date';
 * - anything else → 'string' (including numeric-looking strings such as "42", slash dates such as
 *   "12/03/2024", NaN/Infinity and non-JSON values).
 */
export function inferFieldType(value: unknown): FieldType | null {
  if (value === null || value === undefined) return null;
  if (Array.isArray(value) || isPlainObject(value)) return null;
  if (typeof value === 'number' && Number.isFinite(value)) return 'number';
  if (typeof value === 'boolean') return 'boolean';
  if (isIsoDate(value)) return 'date';
  return 'string';
}

/**
 * Every leaf of a (nested) data object as `[dottedPath, value]`, depth first in key order.
 * Plain objects are descended into (`{profile: {tier: 'gold'}}` → `['data.profile.tier', 'gold']`);
 * everything else is a leaf, including arrays and null. An empty nested object yields nothing.
 * Keys are joined with '.' as they are (a key that itself contains a dot is not escaped).
 */
export function flattenLeaves(data: Record<string, unknown>, prefix = 'data.'): Array<[string, unknown]> {
  const out: Array<[string, unknown]> = [];
  const walk = (obj: Record<string, unknown>, path: string): void => {
    for (const [key, value] of Object.entries(obj)) {
      if (isPlainObject(value)) walk(value, `${path}${key}.`);
      else out.push([`${path}${key}`, value]);
    }
  };
  if (isPlainObject(data)) walk(data, prefix);
  return out;
}

/**
 * The rules for the data object (spec: "Rules for the data object"), shared by every write path:
 * contacts API, /v1/track, /v1/send, CSV rows, workflow UPDATE_CONTACT.
 */
import { isPlainObject } from './field-types.js';

/** Keys silently dropped from any data payload (no storage, no error). Matched exactly (case-sensitive). */
export const RESERVED_DATA_KEYS: readonly string[] = [
  'id',
  'svc_id',
  'svc_email',
  'email',
  'unsubscribeUrl',
  'subscribeUrl',
  'manageUrl',
];

/**
 * Keys dropped as well, for safety rather than by the spec (documented in docs/contacts.md):
 * assigning `__proto__` on a plain object would replace its prototype instead of storing a key, and
 * the HTTP edge (Nest's validation pipe) strips `constructor` and `prototype` from every body, so
 * every other write path drops them too.
 */
export const UNSAFE_DATA_KEYS: readonly string[] = ['__proto__', 'constructor', 'prototype'];

/** Upper bound callers enforce on the stored data object (JSON byte length); the spec leaves the size limit open. */
export const MAX_DATA_BYTES = 64 * 1024;

export interface DataPatchResult {
  /** What to store (a new object; `current` is not modified). */
  data: Record<string, unknown>;
  /** Top-level keys whose stored value changed (added, modified by deep-equal comparison, or deleted), sorted. */
  changedKeys: string[];
  /** Non-persistent values (`{value, persistent: false}`), for rendering this request only. */
  transient: Record<string, unknown>;
  /** `data` merged with `transient` (transient wins). */
  renderData: Record<string, unknown>;
}

const RESERVED = new Set([...RESERVED_DATA_KEYS, ...UNSAFE_DATA_KEYS]);

export function isReservedDataKey(key: string): boolean {
  return RESERVED.has(key);
}

/** `{value, persistent}` with exactly these two own keys and a boolean `persistent`; anything else is a plain value. */
function asPersistenceWrapper(value: unknown): { value: unknown; persistent: boolean } | undefined {
  if (!isPlainObject(value)) return undefined;
  const keys = Object.keys(value);
  if (keys.length !== 2 || !('value' in value) || typeof value['persistent'] !== 'boolean') return undefined;
  return { value: value['value'], persistent: value['persistent'] };
}

/** Structural equality of JSON-like values (object key order ignored). */
export function deepEqual(a: unknown, b: unknown): boolean {
  if (Object.is(a, b)) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return a === b;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((item, i) => deepEqual(item, b[i]));
  const ra = a as Record<string, unknown>;
  const rb = b as Record<string, unknown>;
  const ka = Object.keys(ra);
  if (ka.length !== Object.keys(rb).length) return false;
  return ka.every((k) => Object.prototype.hasOwnProperty.call(rb, k) && deepEqual(ra[k], rb[k]));
}

/** Own-property assignment that is safe for any key name. */
function put(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

/**
 * Applies a data patch to the stored data. Never throws.
 *
 * For each top-level key of `patch`:
 * - reserved key (RESERVED_DATA_KEYS) → dropped, also from transient/renderData;
 * - `undefined` → treated as not sent;
 * - `null` → deletes the key;
 * - `''` (exactly the empty string) → ignored, the stored value is kept;
 * - `{value, persistent: false}` → `transient[key] = value` as sent (even null or ''); the stored key
 *   is untouched;
 * - `{value, persistent: true}` → `value` goes through the same rules (null deletes, '' is ignored,
 *   anything else is stored);
 * - anything else (string, number, boolean, array, nested object) → stored as sent, replacing the
 *   key's whole previous value (patching is top-level only; nested values are not interpreted).
 *
 * A `patch` that is undefined, null or not a plain object changes nothing.
 */
export function applyDataPatch(
  current: Record<string, unknown>,
  patch: Record<string, unknown> | undefined,
): DataPatchResult {
  const base: Record<string, unknown> = isPlainObject(current) ? current : {};
  const data: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(base)) put(data, key, value);
  const transient: Record<string, unknown> = {};

  if (isPlainObject(patch)) {
    for (const [key, sent] of Object.entries(patch)) {
      if (RESERVED.has(key) || sent === undefined) continue;
      let value: unknown = sent;
      const wrapper = asPersistenceWrapper(sent);
      if (wrapper) {
        if (!wrapper.persistent) {
          put(transient, key, wrapper.value);
          continue;
        }
        value = wrapper.value;
      }
      if (value === null) delete data[key];
      else if (value === '' || value === undefined) continue;
      else put(data, key, value);
    }
  }

  const keys = new Set([...Object.keys(base), ...Object.keys(data)]);
  const changedKeys = [...keys]
    .filter((key) => {
      const had = Object.prototype.hasOwnProperty.call(base, key);
      const has = Object.prototype.hasOwnProperty.call(data, key);
      return had !== has || !deepEqual(base[key], data[key]);
    })
    .sort();

  const renderData: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(data)) put(renderData, key, value);
  for (const [key, value] of Object.entries(transient)) put(renderData, key, value);

  return { data, changedKeys, transient, renderData };
}

/** JSON byte length (UTF-8) of a data object; Infinity when it cannot be serialised, so a size check fails. */
export function dataSize(data: unknown): number {
  try {
    const json = JSON.stringify(data);
    return json === undefined ? 0 : Buffer.byteLength(json, 'utf8');
  } catch {
    return Number.POSITIVE_INFINITY;
  }
}

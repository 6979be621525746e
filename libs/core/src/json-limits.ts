/**
 * Bounds on the shape of a JSON value, checked in one iterative pass (time linear in the value,
 * no recursion, so 10,000 levels of nesting cannot overflow the stack), stopping at the first
 * breach. The HTTP edge checks every request body with them before any transformation or
 * validation runs; the contacts feature checks the data object with its own, tighter ones.
 */
export interface JsonLimits {
  /** Levels of objects/arrays below the root (the root object itself is depth 1). */
  maxDepth: number;
  /** Keys of one object. */
  maxKeys: number;
  /** Items of one array. */
  maxItems: number;
  /** Values in the whole tree (every object, array, string, number, boolean, null). */
  maxValues: number;
  /** Characters of one key. */
  maxKeyLength: number;
  /** Characters of one string value (Infinity: no bound). */
  maxStringLength: number;
}

/** What is wrong with a value: where, and which limit or rule it breaks. */
export interface JsonProblem {
  /** Dotted path of the offending value or key (`data.profile.tier`, `to[0]`). */
  path: string;
  /** The limit's name in {@link JsonLimits}, or `text` (a NUL byte or a lone UTF-16 surrogate). */
  limit: keyof JsonLimits | 'text';
  message: string;
}

/** A NUL byte or a lone UTF-16 surrogate: text PostgreSQL, JSON consumers and SMTP cannot hold. */
const UNSTORABLE = /\0|\p{Cs}/u;

/** True when `s` holds a NUL byte or a lone surrogate (linear: one regular-expression scan). */
export function isUnstorableText(s: string): boolean {
  return UNSTORABLE.test(s);
}

interface Frame {
  value: unknown;
  depth: number;
  key: string | number | undefined;
  parent: Frame | undefined;
}

/** `prefix.key` / `prefix[3]`, built only when a problem is reported. */
function pathOf(frame: Frame | undefined, root: string, extraKey?: string): string {
  const parts: (string | number)[] = extraKey === undefined ? [] : [extraKey];
  for (let f = frame; f && f.key !== undefined; f = f.parent) parts.push(f.key);
  let path = root;
  for (let i = parts.length - 1; i >= 0; i--) {
    const p = parts[i]!;
    path = typeof p === 'number' ? `${path}[${p}]` : path ? `${path}.${p}` : p;
  }
  return path || root;
}

/** Shortens a path for a message (a key may be long and the nesting deep). */
const shown = (path: string): string => (path.length > 200 ? `${path.slice(0, 200)}…` : path);

/**
 * The first breach of `limits` in `value` (undefined when there is none), found in one pass over
 * the value in time linear in its size. `root` prefixes every path (`data` for a data object).
 */
export function findJsonProblem(value: unknown, limits: JsonLimits, root = ''): JsonProblem | undefined {
  const stack: Frame[] = [{ value, depth: 0, key: undefined, parent: undefined }];
  let values = 0;
  while (stack.length > 0) {
    const frame = stack.pop()!;
    const v = frame.value;
    if (++values > limits.maxValues) {
      const path = pathOf(frame, root);
      return {
        path,
        limit: 'maxValues',
        message: `The body holds more than ${limits.maxValues} values`,
      };
    }
    if (typeof v === 'string') {
      if (v.length > limits.maxStringLength) {
        const path = pathOf(frame, root);
        return {
          path,
          limit: 'maxStringLength',
          message: `${shown(path) || 'The value'} is longer than ${limits.maxStringLength} characters`,
        };
      }
      if (isUnstorableText(v)) {
        const path = pathOf(frame, root);
        return {
          path,
          limit: 'text',
          message: `${shown(path) || 'The value'} contains a NUL character or an unpaired UTF-16 surrogate`,
        };
      }
      continue;
    }
    if (v === null || typeof v !== 'object') continue;
    const depth = frame.depth + 1;
    if (depth > limits.maxDepth) {
      const path = pathOf(frame, root);
      return {
        path,
        limit: 'maxDepth',
        message: `${shown(path) || 'The body'} is nested more than ${limits.maxDepth} levels deep`,
      };
    }
    if (Array.isArray(v)) {
      if (v.length > limits.maxItems) {
        const path = pathOf(frame, root);
        return {
          path,
          limit: 'maxItems',
          message: `${shown(path) || 'The array'} has more than ${limits.maxItems} items`,
        };
      }
      for (let i = v.length - 1; i >= 0; i--) stack.push({ value: v[i], depth, key: i, parent: frame });
      continue;
    }
    const keys = Object.keys(v);
    if (keys.length > limits.maxKeys) {
      const path = pathOf(frame, root);
      return {
        path,
        limit: 'maxKeys',
        message: `${shown(path) || 'The object'} has more than ${limits.maxKeys} keys`,
      };
    }
    for (let i = keys.length - 1; i >= 0; i--) {
      const key = keys[i]!;
      if (key.length > limits.maxKeyLength) {
        const path = pathOf(frame, root, `${key.slice(0, 40)}…`);
        return {
          path,
          limit: 'maxKeyLength',
          message: `A key of ${shown(pathOf(frame, root)) || 'the body'} is longer than ${limits.maxKeyLength} characters`,
        };
      }
      if (isUnstorableText(key)) {
        const path = pathOf(frame, root, key);
        return {
          path,
          limit: 'text',
          message: `The key ${shown(JSON.stringify(path))} contains a NUL character or an unpaired UTF-16 surrogate`,
        };
      }
      stack.push({ value: (v as Record<string, unknown>)[key], depth, key, parent: frame });
    }
  }
  return undefined;
}

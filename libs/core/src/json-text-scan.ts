import type { JsonLimits, JsonProblem } from './json-limits.js';

/**
 * The shape limits of {@link JsonLimits} checked on the text of a JSON document, before it is parsed:
 * one forward pass, strings skipped with `indexOf`, nothing allocated but one small frame per level
 * of nesting. A body of 40,000 keys is refused here in a few milliseconds, where `JSON.parse` alone
 * spends tens building the object (and the garbage collector more, later) only for the limit check
 * to refuse it.
 *
 * What it counts is what the text holds: a key repeated in one object counts each time (JSON.parse
 * would keep the last). It reports depth, keys, items, values and key length, with the path of the
 * offending value as {@link findJsonProblem} names it. It does not look inside strings for NUL bytes
 * or lone surrogates (escapes must be decoded first: `findJsonProblem` does that on the parsed value),
 * nor does it validate the JSON: on text that is not well-formed it stops and reports nothing, and
 * the parser gives its own answer.
 */
export function scanJsonText(text: string, limits: JsonLimits, root = ''): JsonProblem | undefined {
  /** One open object or array: how it was reached from its parent, and what it holds so far. */
  interface Frame {
    array: boolean;
    /** Items (array) or keys (object) so far. */
    count: number;
    /** Offsets of the current key (object): `text.slice(keyStart, keyEnd)` is its JSON string. */
    keyStart: number;
    keyEnd: number;
    /** Object: true when the next string is a key. */
    expectKey: boolean;
  }
  const frames: Frame[] = [];
  let values = 0;
  const n = text.length;

  /** The path of the value being read in the innermost frame (or of that frame itself with `self`). */
  const pathHere = (self: boolean, extraKey?: string): string => {
    const last = self ? frames.length - 1 : frames.length;
    let path = root;
    const add = (part: string | number) => {
      path = typeof part === 'number' ? `${path}[${part}]` : path ? `${path}.${part}` : part;
    };
    for (let i = 0; i < last; i++) {
      const f = frames[i]!;
      if (f.array) add(f.count - 1);
      else add(decodeKey(text, f.keyStart, f.keyEnd));
    }
    if (extraKey !== undefined) add(extraKey);
    return path || root;
  };
  const shown = (path: string): string => (path.length > 200 ? `${path.slice(0, 200)}…` : path);

  /** Counts one value starting in the innermost frame; a problem when a limit breaks. */
  const startValue = (): JsonProblem | undefined => {
    const top = frames[frames.length - 1];
    if (top?.array) {
      if (++top.count > limits.maxItems) {
        top.count--;
        const path = pathHere(true);
        return {
          path,
          limit: 'maxItems',
          message: `${shown(path) || 'The array'} has more than ${limits.maxItems} items`,
        };
      }
    }
    if (++values > limits.maxValues) {
      const path = pathHere(false);
      return { path, limit: 'maxValues', message: `The body holds more than ${limits.maxValues} values` };
    }
    return undefined;
  };

  /** Index just past the closing quote of the string opened at `i` (-1 when it never closes). */
  const skipString = (i: number): number => {
    let j = i + 1;
    for (;;) {
      const q = text.indexOf('"', j);
      if (q < 0) return -1;
      let backslashes = 0;
      for (let k = q - 1; k > i && text.charCodeAt(k) === 92; k--) backslashes++;
      if (backslashes % 2 === 0) return q + 1;
      j = q + 1;
    }
  };

  let i = 0;
  while (i < n) {
    const c = text.charCodeAt(i);
    // whitespace, separators
    if (c === 32 || c === 10 || c === 13 || c === 9 || c === 58 /* : */) {
      i++;
      continue;
    }
    if (c === 44 /* , */) {
      const top = frames[frames.length - 1];
      if (top && !top.array) top.expectKey = true;
      i++;
      continue;
    }
    const top = frames[frames.length - 1];
    if (c === 34 /* " */) {
      const end = skipString(i);
      if (end < 0) return undefined;
      if (top && !top.array && top.expectKey) {
        top.expectKey = false;
        top.keyStart = i;
        top.keyEnd = end;
        if (++top.count > limits.maxKeys) {
          const path = pathHere(true);
          return {
            path,
            limit: 'maxKeys',
            message: `${shown(path) || 'The object'} has more than ${limits.maxKeys} keys`,
          };
        }
        // the raw text is at least as long as the key it decodes to: decode only a long one
        if (end - i - 2 > limits.maxKeyLength) {
          const key = decodeKey(text, i, end);
          if (key.length > limits.maxKeyLength) {
            const path = pathHere(true, `${key.slice(0, 40)}…`);
            return {
              path,
              limit: 'maxKeyLength',
              message: `A key of ${shown(pathHere(true)) || 'the body'} is longer than ${limits.maxKeyLength} characters`,
            };
          }
        }
      } else {
        const problem = startValue();
        if (problem) return problem;
        if (end - i - 2 > limits.maxStringLength) {
          const value = decodeKey(text, i, end);
          if (value.length > limits.maxStringLength) {
            const path = pathHere(false);
            return {
              path,
              limit: 'maxStringLength',
              message: `${shown(path) || 'The value'} is longer than ${limits.maxStringLength} characters`,
            };
          }
        }
      }
      i = end;
      continue;
    }
    if (c === 123 /* { */ || c === 91 /* [ */) {
      const problem = startValue();
      if (problem) return problem;
      if (frames.length + 1 > limits.maxDepth) {
        const path = pathHere(false);
        return {
          path,
          limit: 'maxDepth',
          message: `${shown(path) || 'The body'} is nested more than ${limits.maxDepth} levels deep`,
        };
      }
      frames.push({ array: c === 91, count: 0, keyStart: 0, keyEnd: 0, expectKey: c === 123 });
      i++;
      continue;
    }
    if (c === 125 /* } */ || c === 93 /* ] */) {
      if (!top || top.array !== (c === 93)) return undefined; // not well-formed: the parser answers
      frames.pop();
      i++;
      continue;
    }
    // a number or a literal (true, false, null): one value, up to the next delimiter
    const problem = startValue();
    if (problem) return problem;
    i++;
    while (i < n) {
      const d = text.charCodeAt(i);
      // , } ] whitespace : " { [ end a literal (a malformed text is the parser's to refuse)
      if (d === 44 || d === 125 || d === 93 || d === 32 || d === 10 || d === 13 || d === 9 || d === 58 || d === 34)
        break;
      if (d === 123 || d === 91) break;
      i++;
    }
  }
  return undefined;
}

/** The string a JSON string literal at `text[start, end)` (quotes included) stands for. */
function decodeKey(text: string, start: number, end: number): string {
  const literal = text.slice(start, end);
  try {
    return JSON.parse(literal) as string;
  } catch {
    return literal.slice(1, -1);
  }
}

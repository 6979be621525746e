/**
 * A small seeded generator of hostile JSON (no fast-check in the tree): deterministic for a seed,
 * bounded in size, producing what a careless or hostile client sends — random types, NUL bytes,
 * lone surrogates, bidi overrides, deep nesting, huge key counts, long strings, prototype keys.
 */

/** mulberry32: a tiny deterministic PRNG; `next()` is in [0, 1). */
export class SeededRandom {
  private state: number;
  constructor(seed: number) {
    this.state = seed >>> 0;
  }
  next(): number {
    let t = (this.state = (this.state + 0x6d2b79f5) >>> 0);
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }
  int(maxExclusive: number): number {
    return Math.floor(this.next() * maxExclusive);
  }
  pick<T>(items: readonly T[]): T {
    return items[this.int(items.length)]!;
  }
}

const NASTY_STRINGS = [
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  '\ud800',
  'x\udc00y',
  '\u202e',
  'a b@example.com',
  '"a b"@example.com',
  'user@example.com',
  'ü@exämple.de',
  '%00',
  '{{ x',
  '{% if a %}',
  '{% for i in (1..100000000) %}x{% endfor %}',
  '\r\nBcc: victim@example.com',
  '../../etc/passwd',
  "' OR 1=1 --",
  '<script>alert(1)</script>',
  '1e309',
  '-0',
  'true',
  'null',
  '2026-02-30',
  '😀',
];
const NASTY_KEYS = [
  '__proto__',
  'constructor',
  'prototype',
  'email',
  'data',
  'to',
  'subject',
  'body',
  'name',
  'id',
  'a\u0000b',
  '\ud800',
  '',
  'toString',
  'hasOwnProperty',
  'subscribed',
  'template',
  'headers',
  'password',
];
const NUMBERS = [0, -1, 1.5, 2 ** 53 + 2, -(2 ** 63), 1e308, Number.MIN_VALUE];

export interface HostileOptions {
  /** Levels of nesting at most (beyond the HTTP edge's limit now and then: `deepChance`). */
  maxDepth?: number;
  /** Children of one object or array at most. */
  maxChildren?: number;
}

/** One hostile JSON value (a string of JSON: lone surrogates survive only as `\uXXXX` escapes). */
export function hostileJson(rng: SeededRandom, options: HostileOptions = {}): string {
  const maxDepth = options.maxDepth ?? 6;
  const maxChildren = options.maxChildren ?? 8;
  const str = (s: string) => JSON.stringify(s).replace(/[\ud800-\udfff]/g, (c) => `\\u${c.charCodeAt(0).toString(16)}`);
  const value = (depth: number): string => {
    const roll = rng.next();
    if (depth >= maxDepth || roll < 0.35) {
      switch (rng.int(6)) {
        case 0:
          return str(rng.pick(NASTY_STRINGS));
        case 1:
          return String(rng.pick(NUMBERS));
        case 2:
          return rng.pick(['true', 'false', 'null']);
        case 3:
          return str(rng.pick(NASTY_STRINGS).repeat(1 + rng.int(2000)));
        case 4:
          return str(`${rng.pick(['a', 'b', 'c'])}${rng.int(1000)}@example.com`);
        default:
          return str(String.fromCharCode(...Array.from({ length: 1 + rng.int(20) }, () => rng.int(0x10000))));
      }
    }
    const special = rng.next();
    if (special < 0.04) return `${'['.repeat(2000)}${']'.repeat(2000)}`; // deep nesting
    if (special < 0.08) return `{${Array.from({ length: 3000 }, (_, i) => `"k${i}":${i}`).join(',')}}`; // many keys
    if (special < 0.12) return `[${Array.from({ length: 12_000 }, () => '0').join(',')}]`; // many items
    const n = rng.int(maxChildren + 1);
    if (rng.next() < 0.4) return `[${Array.from({ length: n }, () => value(depth + 1)).join(',')}]`;
    const entries = Array.from(
      { length: n },
      () => `${str(rng.next() < 0.5 ? rng.pick(NASTY_KEYS) : `k${rng.int(50)}`)}:${value(depth + 1)}`,
    );
    return `{${entries.join(',')}}`;
  };
  // mostly objects, as routes expect; sometimes anything at all
  if (rng.next() < 0.85) {
    const n = 1 + rng.int(maxChildren);
    const entries = Array.from({ length: n }, () => `${str(rng.pick(NASTY_KEYS))}:${value(1)}`);
    return `{${entries.join(',')}}`;
  }
  return value(0);
}

/** A query string of hostile parameters (repeated keys, brackets, NUL, long values). */
export function hostileQuery(rng: SeededRandom): string {
  const keys = ['limit', 'cursor', 'search', 'subscribed', 'page', 'pageSize', 'status', 'from', 'to', 'q'];
  const values = ['%00', '%ED%A0%80', '-1', '1e9', 'true', '', 'abc', '%E2%80%AE', 'x'.repeat(1000), '2026-02-30'];
  const n = 1 + rng.int(4);
  return Array.from({ length: n }, () => {
    const key = rng.pick(keys);
    const shape = rng.int(4);
    const v = rng.pick(values);
    return shape === 0 ? `${key}[]=${v}` : shape === 1 ? `${key}=${v}&${key}=${rng.pick(values)}` : `${key}=${v}`;
  }).join('&');
}

/**
 * Bodies of each pathological shape, each breaking one limit of the HTTP edge (docs/errors.md,
 * "Request limits"), so every route must refuse it before any transformation: shape limits under
 * 1 MiB, the long strings over the default body limit.
 */
export function pathologicalBodies(): { shape: string; body: string }[] {
  const keys = (n: number) => Array.from({ length: n }, (_, i) => `"k${i}":${i}`).join(',');
  const wrap = (inner: string) => `{"email":"probe@example.com","name":"probe","password":"x","data":${inner}}`;
  const items = (n: number) => Array.from({ length: n }, () => '0').join(',');
  return [
    { shape: 'many keys (40,000 in one object)', body: `{"email":"probe@example.com",${keys(40_000)}}` },
    { shape: 'many keys in data (40,000)', body: wrap(`{${keys(40_000)}}`) },
    {
      shape: 'many values (25 objects of 1,000 keys)',
      body: wrap(`{${Array.from({ length: 25 }, (_, j) => `"o${j}":{${keys(1000)}}`).join(',')}}`),
    },
    { shape: 'deep nesting (20,000 levels)', body: wrap(`${'{"a":'.repeat(20_000)}1${'}'.repeat(20_000)}`) },
    { shape: 'deep arrays (50,000 levels)', body: wrap(`${'['.repeat(50_000)}${']'.repeat(50_000)}`) },
    {
      shape: 'a long string (1.5 M characters)',
      body: `{"email":"${'a'.repeat(1_500_000)}","subject":"s","body":"b"}`,
    },
    { shape: 'a long string in data (1.5 M characters)', body: wrap(`{"note":"${'x'.repeat(1_500_000)}"}`) },
    { shape: 'many array items (100,000)', body: wrap(`{"list":[${items(100_000)}]}`) },
    { shape: 'many array items at the top (100,000)', body: `[${items(100_000)}]` },
  ];
}

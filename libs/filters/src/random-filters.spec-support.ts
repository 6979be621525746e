/**
 * Seeded generators of hostile contacts and filters for the agreement test (the same seed gives
 * the same cases on every machine). Values come from small pools chosen to sit on the rules'
 * edges: wrong types, missing keys, nulls, slash and impossible dates, window boundaries, LIKE
 * metacharacters, quotes, backslashes and non-ASCII text.
 */
import type { FieldType } from '@herald/contact-data';
import { DomainError } from '@herald/core';
import type { FilterContact } from './match-contact.js';
import type { Filter, WireCondition, WireGroup, WireNode } from './model.js';
import { parseFilter } from './parse-filter.js';
import { unitsBefore } from './time-units.js';

/** sfc32: a small, fast, well-distributed 32-bit PRNG. */
export class Random {
  private a: number;
  private b: number;
  private c: number;
  private d: number;
  constructor(seed: number) {
    this.a = 0x9e3779b9;
    this.b = 0x243f6a88;
    this.c = 0xb7e15162;
    this.d = seed >>> 0;
    for (let i = 0; i < 16; i++) this.next();
  }
  next(): number {
    const t = (((this.a + this.b) | 0) + this.d) | 0;
    this.d = (this.d + 1) | 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) | 0;
    this.c = (this.c << 21) | (this.c >>> 11);
    this.c = (this.c + t) | 0;
    return (t >>> 0) / 4294967296;
  }
  int(n: number): number {
    return Math.floor(this.next() * n);
  }
  pick<T>(items: readonly T[]): T {
    return items[this.int(items.length)]!;
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
}

export const RANDOM_NOW = new Date('2024-03-31T12:00:00.000Z');
const NOW = RANDOM_NOW.getTime();

const STRINGS = [
  '',
  ' ',
  'pro',
  'Pro',
  'PRO',
  'free',
  'pro plan',
  '100%',
  '100% off',
  'a_b',
  'axb',
  'a%b',
  '%',
  '_',
  '\\',
  'back\\slash',
  '\\%',
  "it's",
  '"quoted"',
  "''",
  'é',
  'É',
  'İstanbul',
  'straße',
  '😀 emoji',
  '日本語',
  '42',
  '4',
  '-1',
  'true',
  'null',
  '12/03/2024',
  '2024/03/30',
  '2023-02-29',
  '2024-02-29',
  '0000-01-01',
  '2024-03-30',
  '2024-03-31',
  '2024-04-01',
  '1999-12-31',
  '2024-03-30T12:00:00Z',
  '2024-03-31T11:59:00.000Z',
  '2024-03-31T12:00:00Z',
  '2024-02-29T12:00:00Z',
  '2024-03-31T24:00:00Z',
  '2024-03-31T12:00:00+02:00',
  '2024-03-31t12:00:00z',
  '2024-03-31T12:00:00.5Z',
];
const NUMBERS = [0, 1, -1, 4, 42, 42.0, 1.5, -3.25, 0.1 + 0.2, 0.3, 1e21, -1e-7, 36, 17.5, Number.MAX_SAFE_INTEGER + 2];
const NON_SCALARS: unknown[] = [null, [], [1], ['pro'], { x: 1 }, { '0': 'pro' }, {}];

function scalar(r: Random): string | number | boolean {
  const roll = r.int(10);
  if (roll < 6) return r.pick(STRINGS);
  if (roll < 9) return r.pick(NUMBERS);
  return r.chance(0.5);
}

function dataValue(r: Random): unknown {
  return r.chance(0.15) ? r.pick(NON_SCALARS) : scalar(r);
}

const KEYS = ['plan', 'age', 'vip', 'day', 'note', '0'];
const NESTED_KEYS = ['x', '0', 'tier'];

/** Instants around now, with the windows' boundaries themselves well represented. */
function instant(r: Random): Date {
  const roll = r.int(6);
  if (roll === 0) return new Date(NOW + r.pick([-1, 0, 1]));
  if (roll === 1) {
    const edge = unitsBefore(NOW, r.pick([1, 2, 7]), r.pick(['minutes', 'hours', 'days', 'weeks', 'months'] as const));
    return new Date(edge + r.pick([-1, 0, 1]));
  }
  if (roll === 2) return new Date(Date.parse(r.pick(STRINGS.filter((s) => /^\d{4}-\d\d-\d\dT[^+]*Z$/.test(s)))) || NOW);
  return new Date(NOW - r.int(90 * 86_400_000) + 86_400_000);
}

const EVENT_NAMES = ['purchase', 'Purchase', 'login', 'a%b'];
const EMAIL_KINDS = ['sent', 'delivered', 'opened', 'clicked', 'bounced', 'complained'];
const ADDRESSES = ['ada@example.com', 'a_b@example.com', 'axb@example.com', 'a%b@test.org', 'pro@x.io', 'é@x.io'];

export function randomContact(r: Random, id: string): FilterContact {
  const data: Record<string, unknown> = {};
  for (const key of KEYS) if (r.chance(0.6)) data[key] = dataValue(r);
  if (r.chance(0.5)) {
    const nested: Record<string, unknown> = {};
    for (const key of NESTED_KEYS) if (r.chance(0.6)) nested[key] = dataValue(r);
    data.nested = r.chance(0.8) ? nested : r.pick([[nested], 'flat']);
  }
  const events = Array.from({ length: r.int(5) }, () => ({ name: r.pick(EVENT_NAMES), occurredAt: instant(r) }));
  const emails = Array.from({ length: r.int(4) }, () => ({ kind: r.pick(EMAIL_KINDS), occurredAt: instant(r) }));
  const segmentIds = new Set(['s1', 's2'].filter(() => r.chance(0.4)));
  const created = instant(r);
  return {
    id,
    email: `${id}.${r.pick(ADDRESSES)}`,
    subscribed: r.chance(0.5),
    createdAt: created,
    updatedAt: r.chance(0.5) ? created : instant(r),
    data,
    events,
    emails,
    segmentIds,
  };
}

/** A registry that fits some keys and contradicts others (the same key holds many types in the data). */
export const RANDOM_FIELD_TYPES: Record<string, FieldType> = {
  'data.plan': 'string',
  'data.age': 'number',
  'data.vip': 'boolean',
  'data.day': 'date',
  'data.nested.tier': 'string',
};

const DATA_FIELDS = [
  ...KEYS.map((k) => `data.${k}`),
  ...NESTED_KEYS.map((k) => `data.nested.${k}`),
  'data.nested',
  'data.missing',
];
const VALUE_OPS = [
  'equals',
  'notEquals',
  'contains',
  'notContains',
  'startsWith',
  'in',
  'notIn',
  'exists',
  'notExists',
  'greaterThan',
  'lessThan',
  'greaterThanOrEqual',
  'lessThanOrEqual',
  'gt',
  'lt',
  'gte',
  'lte',
  'within',
  'olderThan',
];
const ACTIVITY_OPS = [
  'triggered',
  'notTriggered',
  'triggeredWithin',
  'notTriggeredWithin',
  'countEquals',
  'countGreaterThan',
  'countLessThan',
  'countGreaterThanOrEqual',
  'countLessThanOrEqual',
];
const UNITS = ['minutes', 'hours', 'days', 'weeks', 'months'] as const;

/**
 * One raw condition. It may well be invalid (a string for gt, a boolean for contains…): the caller
 * keeps only the filters parseFilter accepts, so the generator need not know the rules.
 */
export function randomCondition(r: Random): WireCondition {
  const kind = r.int(10);
  if (kind < 5) {
    const op = r.pick(VALUE_OPS);
    return valueCondition(r, r.pick(DATA_FIELDS), op);
  }
  if (kind < 7) {
    const field = r.pick(['email', 'subscribed', 'createdAt', 'updatedAt']);
    return valueCondition(r, field, r.pick(VALUE_OPS), field === 'email' ? ADDRESSES : undefined);
  }
  if (kind < 9) {
    const field = r.chance(0.6) ? `event.${r.pick(EVENT_NAMES)}` : `email.${r.pick(EMAIL_KINDS)}`;
    const op = r.pick(ACTIVITY_OPS);
    const out: WireCondition = { field, operator: op };
    if (op.endsWith('Within')) {
      out.value = 1 + r.int(3);
      if (r.chance(0.8)) out.unit = r.pick(UNITS);
    } else if (op.startsWith('count')) {
      out.value = r.int(4);
      if (r.chance(0.5)) out.within = { amount: 1 + r.int(3), unit: r.pick(UNITS) };
    }
    return out;
  }
  return { field: `segment.${r.pick(['s1', 's2', 'd1', 'unknown'])}`, operator: r.pick(['isMember', 'isNotMember']) };
}

function valueCondition(r: Random, field: string, op: string, strings?: string[]): WireCondition {
  const out: WireCondition = { field, operator: op };
  const value = () => (strings && r.chance(0.7) ? r.pick(strings) : scalar(r));
  if (op === 'within' || op === 'olderThan') {
    out.value = 1 + r.int(3);
    if (r.chance(0.8)) out.unit = r.pick(UNITS);
  } else if (op === 'in' || op === 'notIn') {
    const first = value();
    out.value = [first, ...Array.from({ length: r.int(3) }, () => value())].filter((v) => typeof v === typeof first);
  } else if (op === 'contains' || op === 'notContains' || op === 'startsWith') {
    out.value = strings && r.chance(0.5) ? r.pick(['a_', '%', 'x.io', 'A', 'é', '@']) : r.pick(STRINGS);
  } else if (op !== 'exists' && op !== 'notExists') out.value = value();
  return out;
}

export function randomFilter(r: Random, depth = 1): WireGroup {
  const conditions: WireNode[] = Array.from({ length: r.chance(0.05) ? 0 : 1 + r.int(3) }, () =>
    depth < 3 && r.chance(0.25) ? randomFilter(r, depth + 1) : randomCondition(r),
  );
  return { operator: r.chance(0.5) ? 'AND' : 'OR', conditions };
}

/** The filter `parseFilter` makes of a generated one, or null where it refuses it (the generator need not know the rules). */
export function parseOrNull(raw: unknown): Filter | null {
  try {
    return parseFilter(raw);
  } catch (err) {
    if (err instanceof DomainError && err.kind === 'invalid') return null;
    throw err;
  }
}

/**
 * The in-memory evaluator: does one contact match a filter at `ctx.now`? It interprets the same
 * bound program as the SQL compiler (bind.ts), rule for rule (docs/filters.md). It never throws on
 * a contact's data: a missing key, a null or a value of another type simply fails the comparison.
 */
import { bindFilter, compareCount, type Bound, type DataTest, type Range } from './bind.js';
import type { EvaluationContext, Filter } from './model.js';
import { dateInstant, qualifiesAsDate, valueAtPath } from './values.js';

/** One contact as both evaluators see it (the segments read model holds the same columns). */
export interface FilterContact {
  id: string;
  /** The normalised address, as contacts stores it (lower case, trimmed). */
  email: string;
  subscribed: boolean;
  createdAt: Date;
  updatedAt: Date;
  data: Record<string, unknown>;
  /** Tracked events. */
  events: ReadonlyArray<{ name: string; occurredAt: Date }>;
  /** Email engagement: kind is sent, delivered, opened, clicked, bounced or complained. */
  emails: ReadonlyArray<{ kind: string; occurredAt: Date }>;
  /** Stored memberships (static and tracked segments). */
  segmentIds: ReadonlySet<string>;
}

/** Whether `contact` matches `filter` at `ctx.now`. */
export function matchContact(filter: Filter, contact: FilterContact, ctx: EvaluationContext): boolean {
  return evaluate(bindFilter(filter, ctx), contact);
}

/** Binds once, then matches many contacts (the same `ctx.now` for all of them). */
export function createMatcher(filter: Filter, ctx: EvaluationContext): (contact: FilterContact) => boolean {
  const program = bindFilter(filter, ctx);
  return (contact) => evaluate(program, contact);
}

export function evaluate(node: Bound, contact: FilterContact): boolean {
  switch (node.t) {
    case 'const':
      return node.value;
    case 'and':
      return node.items.every((item) => evaluate(item, contact));
    case 'or':
      return node.items.some((item) => evaluate(item, contact));
    case 'not':
      return !evaluate(node.item, contact);
    case 'email':
      return node.test.k === 'equals'
        ? node.test.values.includes(contact.email)
        : node.test.prefix
          ? contact.email.startsWith(node.test.needle)
          : contact.email.includes(node.test.needle);
    case 'subscribed':
      return contact.subscribed === node.value;
    case 'timestamp': {
      const t = (node.column === 'createdAt' ? contact.createdAt : contact.updatedAt).getTime();
      return node.test.k === 'equals' ? node.test.instants.includes(t) : inRange(t, node.test.range);
    }
    case 'data':
      return dataTest(valueAtPath(contact.data, node.keys), node.test);
    case 'activity': {
      const list = node.source === 'event' ? contact.events : contact.emails;
      let count = 0;
      for (const item of list) {
        const name = 'name' in item ? item.name : item.kind;
        if (name !== node.name) continue;
        const t = item.occurredAt.getTime();
        if ((node.since === undefined || t >= node.since) && (node.until === undefined || t <= node.until)) count++;
      }
      return compareCount(count, node.cmp, node.n);
    }
    case 'member':
      return contact.segmentIds.has(node.segmentId);
  }
}

function dataTest(value: unknown, test: DataTest): boolean {
  switch (test.k) {
    case 'exists':
      return value !== undefined && value !== null;
    case 'equals':
      return test.values.some((v) => v === value);
    case 'like':
      return typeof value === 'string' && (test.prefix ? value.startsWith(test.needle) : value.includes(test.needle));
    case 'numberRange':
      return typeof value === 'number' && inRange(value, test.range);
    case 'dateEquals':
      return qualifiesAsDate(value) && test.instants.includes(dateInstant(value));
    case 'dateRange':
      return qualifiesAsDate(value) && inRange(dateInstant(value), test.range);
  }
}

export function inRange(v: number, range: Range): boolean {
  if (range.min && (range.min.inclusive ? v < range.min.v : v <= range.min.v)) return false;
  if (range.max && (range.max.inclusive ? v > range.max.v : v >= range.max.v)) return false;
  return true;
}

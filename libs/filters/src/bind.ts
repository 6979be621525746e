/**
 * Binding: a parsed filter plus its context (field registry, referenced segments, now) becomes a
 * small boolean program (`Bound`) in which every comparison has one type and every window is a
 * pair of instants. Both evaluators interpret this program and nothing else, which is what keeps
 * SQL and memory in agreement: the typing rules, the segment inlining and the time arithmetic
 * happen once, here.
 *
 * Binding never fails on what a filter says about data. A value that does not fit the field's
 * registered type makes the positive operator match nobody (its negation everybody); with a
 * `Problems` sink (`checkFilter`) the same finding is reported as a 422 instead.
 */
import { normaliseEmail, type FieldType } from '@herald/contact-data';
import { invalidInput } from '@herald/core';
import {
  FILTER_LIMITS,
  fieldTypeOf,
  type ActivityCondition,
  type DataCondition,
  type EvaluationContext,
  type Filter,
  type FilterNode,
  type Scalar,
  type SegmentCondition,
  type StandardCondition,
  type TimeUnit,
  type ValueOperator,
} from './model.js';
import { FilterProblemCodes, Problems } from './problems.js';
import { unitsBefore } from './time-units.js';
import { dateInstant, qualifiesAsDate } from './values.js';

/** Lower and upper bounds, each inclusive or not. */
export interface Range {
  min?: { v: number; inclusive: boolean };
  max?: { v: number; inclusive: boolean };
}

/** Tests on the value at a `data.<path>`. */
export type DataTest =
  /** present and not JSON null */
  | { k: 'exists' }
  /** a JSON scalar equal to one of these (strings exactly, numbers numerically) */
  | { k: 'equals'; values: Scalar[] }
  /** a JSON string containing (or starting with) the needle, case-sensitively */
  | { k: 'like'; needle: string; prefix: boolean }
  /** a JSON number in the range */
  | { k: 'numberRange'; range: Range }
  /** a JSON string qualifying as a date whose instant is one of these */
  | { k: 'dateEquals'; instants: number[] }
  /** a JSON string qualifying as a date whose instant is in the range */
  | { k: 'dateRange'; range: Range };

export type CountComparison = '=' | '>' | '<' | '>=' | '<=';

export type Bound =
  | { t: 'const'; value: boolean }
  | { t: 'and' | 'or'; items: Bound[] }
  | { t: 'not'; item: Bound }
  /** the (normalised, lower-case) address is one of these, or contains / starts with the lower-cased needle */
  | { t: 'email'; test: { k: 'equals'; values: string[] } | { k: 'like'; needle: string; prefix: boolean } }
  | { t: 'subscribed'; value: boolean }
  | {
      t: 'timestamp';
      column: 'createdAt' | 'updatedAt';
      test: { k: 'equals'; instants: number[] } | { k: 'range'; range: Range };
    }
  | { t: 'data'; keys: string[]; test: DataTest }
  /** the number of the contact's events (or engagement records) named so, in [since, until] when given, compared with n */
  | {
      t: 'activity';
      source: 'event' | 'email';
      name: string;
      since?: number;
      until?: number;
      cmp: CountComparison;
      n: number;
    }
  /** stored membership (static or tracked segment) */
  | { t: 'member'; segmentId: string };

export interface BindOptions {
  /** Report type mismatches, unknown segments and cycles here instead of quietly matching nobody. */
  problems?: Problems;
  /** The id of the segment this filter belongs to: a reference back to it is a cycle. */
  selfId?: string;
}

const TRUE: Bound = { t: 'const', value: true };
const FALSE: Bound = { t: 'const', value: false };
const not = (item: Bound): Bound => ({ t: 'not', item });

const NEGATIONS: Partial<Record<ValueOperator, ValueOperator>> = {
  notEquals: 'equals',
  notContains: 'contains',
  notIn: 'in',
  notExists: 'exists',
};

export function bindFilter(filter: Filter, ctx: EvaluationContext, options: BindOptions = {}): Bound {
  return new Binder(ctx, options, filter.path).node(filter);
}

class Binder {
  private readonly now: number;
  private readonly stack: string[];
  private expanded = 0;
  /** Path of the top-level `segment.<id>` condition being inlined (problems inside are reported there). */
  private inlinedAt: string | undefined;

  constructor(
    private readonly ctx: EvaluationContext,
    private readonly options: BindOptions,
    private readonly rootPath: string,
  ) {
    this.now = ctx.now.getTime();
    this.stack = options.selfId ? [options.selfId] : [];
  }

  node(node: FilterNode): Bound {
    if (node.kind === 'group') {
      const items = node.conditions.map((c) => this.node(c));
      return { t: node.operator === 'AND' ? 'and' : 'or', items };
    }
    if (++this.expanded > FILTER_LIMITS.maxExpandedNodes)
      throw invalidInput([
        {
          field: this.rootPath,
          code: FilterProblemCodes.tooLarge,
          message: `with the segments it references inlined, a filter holds at most ${FILTER_LIMITS.maxExpandedNodes} conditions`,
        },
      ]);
    switch (node.kind) {
      case 'standard':
        return this.standard(node);
      case 'data':
        return this.data(node);
      case 'activity':
        return this.activity(node);
      case 'segment':
        return this.segment(node);
    }
  }

  private problem(path: string, code: string, message: string): void {
    const problems = this.options.problems;
    if (!problems) return;
    if (this.inlinedAt === undefined) problems.add(path, code, message);
    else if (code !== FilterProblemCodes.valueType) problems.add(this.inlinedAt, code, message);
  }

  private standard(node: StandardCondition): Bound {
    const positive = NEGATIONS[node.operator];
    if (positive) return not(this.standard({ ...node, operator: positive }));
    const op = node.operator;
    const values = listOf(node.value);
    switch (node.field) {
      case 'email':
        if (op === 'exists') return TRUE;
        if (op === 'equals' || op === 'in')
          return { t: 'email', test: { k: 'equals', values: values.map((v) => normaliseEmail(String(v))) } };
        return {
          t: 'email',
          test: { k: 'like', needle: String(node.value).toLowerCase(), prefix: op === 'startsWith' },
        };
      case 'subscribed':
        return op === 'exists' ? TRUE : { t: 'subscribed', value: node.value === true };
      case 'createdAt':
      case 'updatedAt': {
        if (op === 'exists') return TRUE;
        if (op === 'equals' || op === 'in')
          return { t: 'timestamp', column: node.field, test: { k: 'equals', instants: values.map(instantOf) } };
        return {
          t: 'timestamp',
          column: node.field,
          test: { k: 'range', range: this.range(op, node.value, node.unit) },
        };
      }
    }
  }

  private data(node: DataCondition): Bound {
    const positive = NEGATIONS[node.operator];
    if (positive) return not(this.data({ ...node, operator: positive }));
    const op = node.operator;
    const keys = node.keys;
    if (op === 'exists') return { t: 'data', keys, test: { k: 'exists' } };
    const registered = fieldTypeOf(this.ctx.fieldTypes, node.field);
    const values = listOf(node.value);
    const amount = op === 'within' || op === 'olderThan';
    const domain: FieldType =
      registered ?? (amount ? 'date' : op === 'contains' || op === 'startsWith' ? 'string' : valueType(values[0]!));
    const fits = DOMAINS[op]!.includes(domain) && (amount || values.every((v) => fitsType(v, domain)));
    if (!fits) {
      this.problem(
        `${node.path}.value`,
        FilterProblemCodes.valueType,
        `${node.field} holds ${domain} values: ${op} with this value matches no contact`,
      );
      return FALSE;
    }
    switch (op) {
      case 'equals':
      case 'in':
        return domain === 'date'
          ? { t: 'data', keys, test: { k: 'dateEquals', instants: values.map(instantOf) } }
          : { t: 'data', keys, test: { k: 'equals', values } };
      case 'contains':
      case 'startsWith':
        return { t: 'data', keys, test: { k: 'like', needle: String(node.value), prefix: op === 'startsWith' } };
      default: {
        const range = this.range(op, node.value, node.unit);
        return { t: 'data', keys, test: domain === 'date' ? { k: 'dateRange', range } : { k: 'numberRange', range } };
      }
    }
  }

  /** gt…lte on a number or date value, within (in [now − N units, now]) and olderThan (before now − N units). */
  private range(op: ValueOperator, value: Scalar | Scalar[] | undefined, unit: TimeUnit | undefined): Range {
    if (op === 'within' || op === 'olderThan') {
      const since = unitsBefore(this.now, value as number, unit ?? 'days');
      return op === 'within'
        ? { min: { v: since, inclusive: true }, max: { v: this.now, inclusive: true } }
        : { max: { v: since, inclusive: false } };
    }
    const v = typeof value === 'number' ? value : instantOf(value as string);
    switch (op) {
      case 'greaterThan':
      case 'gt':
        return { min: { v, inclusive: false } };
      case 'greaterThanOrEqual':
      case 'gte':
        return { min: { v, inclusive: true } };
      case 'lessThan':
      case 'lt':
        return { max: { v, inclusive: false } };
      default:
        return { max: { v, inclusive: true } };
    }
  }

  private activity(node: ActivityCondition): Bound {
    const base = { t: 'activity' as const, source: node.source, name: node.name };
    const window = (amount: number, unit: TimeUnit) => ({
      since: unitsBefore(this.now, amount, unit),
      until: this.now,
    });
    switch (node.operator) {
      case 'triggered':
        return { ...base, cmp: '>=', n: 1 };
      case 'notTriggered':
        return not({ ...base, cmp: '>=', n: 1 });
      case 'triggeredWithin':
        return { ...base, ...window(node.value!, node.unit ?? 'days'), cmp: '>=', n: 1 };
      case 'notTriggeredWithin':
        return not({ ...base, ...window(node.value!, node.unit ?? 'days'), cmp: '>=', n: 1 });
      default: {
        const counted = node.within ? { ...base, ...window(node.within.amount, node.within.unit) } : base;
        return { ...counted, cmp: COUNT_COMPARISONS[node.operator], n: node.value! };
      }
    }
  }

  private segment(node: SegmentCondition): Bound {
    if (node.operator === 'isNotMember') return not(this.segment({ ...node, operator: 'isMember' }));
    const id = node.segmentId;
    const ref = this.ctx.segments?.(id);
    if (!ref) {
      this.problem(
        `${node.path}.field`,
        FilterProblemCodes.unknownSegment,
        `segment ${id} does not exist in this project`,
      );
      return FALSE;
    }
    if (ref.kind === 'stored') return { t: 'member', segmentId: id };
    if (this.stack.includes(id)) {
      this.problem(
        `${node.path}.field`,
        FilterProblemCodes.segmentCycle,
        `segment ${id} refers back to itself (${[...this.stack, id].join(' → ')})`,
      );
      return FALSE;
    }
    const outer = this.inlinedAt;
    this.inlinedAt ??= `${node.path}.field`;
    this.stack.push(id);
    try {
      return this.node(ref.filter);
    } finally {
      this.stack.pop();
      this.inlinedAt = outer;
    }
  }
}

/** The types each operator compares in (exists applies to every value). */
const COMPARABLE: FieldType[] = ['number', 'date'];
const DOMAINS: Partial<Record<ValueOperator, readonly FieldType[]>> = {
  equals: ['string', 'number', 'boolean', 'date'],
  in: ['string', 'number', 'boolean', 'date'],
  contains: ['string'],
  startsWith: ['string'],
  within: ['date'],
  olderThan: ['date'],
  greaterThan: COMPARABLE,
  lessThan: COMPARABLE,
  greaterThanOrEqual: COMPARABLE,
  lessThanOrEqual: COMPARABLE,
  gt: COMPARABLE,
  lt: COMPARABLE,
  gte: COMPARABLE,
  lte: COMPARABLE,
};

const COUNT_COMPARISONS: Record<string, CountComparison> = {
  countEquals: '=',
  countGreaterThan: '>',
  countLessThan: '<',
  countGreaterThanOrEqual: '>=',
  countLessThanOrEqual: '<=',
};

function listOf(value: Scalar | Scalar[] | undefined): Scalar[] {
  return value === undefined ? [] : Array.isArray(value) ? value : [value];
}

function instantOf(value: Scalar): number {
  return dateInstant(value as string);
}

/** The type a condition value has on its own (an unregistered key takes it). */
function valueType(value: Scalar): FieldType {
  if (typeof value === 'number') return 'number';
  if (typeof value === 'boolean') return 'boolean';
  return qualifiesAsDate(value) ? 'date' : 'string';
}

function fitsType(value: Scalar, type: FieldType): boolean {
  switch (type) {
    case 'date':
      return qualifiesAsDate(value);
    case 'number':
      return typeof value === 'number';
    case 'boolean':
      return typeof value === 'boolean';
    case 'string':
      return typeof value === 'string';
  }
}

export function compareCount(count: number, cmp: CountComparison, n: number): boolean {
  switch (cmp) {
    case '=':
      return count === n;
    case '>':
      return count > n;
    case '<':
      return count < n;
    case '>=':
      return count >= n;
    case '<=':
      return count <= n;
  }
}

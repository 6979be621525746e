/**
 * `parseFilter`: untrusted JSON in, a `Filter` out, or one 422 listing every problem with the path
 * of the bad part (`filters.conditions[1].value`). Each input node is looked at once, groups deeper
 * than the limit and conditions past the size limit are not descended into, so the work is linear
 * in the input and bounded by the limits whatever its size.
 */
import { isPlainObject } from '@herald/contact-data';
import {
  ACTIVITY_OPERATORS,
  ENGAGEMENT_KINDS,
  FILTER_LIMITS,
  GROUP_OPERATORS,
  SEGMENT_OPERATORS,
  STANDARD_FIELDS,
  STANDARD_OPERATORS,
  TIME_UNITS,
  VALUE_OPERATORS,
  type ActivityOperator,
  type Condition,
  type Filter,
  type FilterNode,
  type GroupNode,
  type Scalar,
  type StandardField,
  type TimeUnit,
  type TimeWindow,
  type ValueOperator,
} from './model.js';
import { FilterProblemCodes, Problems } from './problems.js';
import { isScalar, isStorableString, qualifiesAsDate } from './values.js';

const C = FilterProblemCodes;
const GROUP_KEYS = new Set(['operator', 'conditions']);
const CONDITION_KEYS = new Set(['field', 'operator', 'value', 'unit', 'within']);
const WINDOW_KEYS = new Set(['amount', 'unit']);
const MAX_NAME_LENGTH = 255;

export type FilterLimits = typeof FILTER_LIMITS;

/** Validates a filter; throws a 422 DomainError (VALIDATION_ERROR) listing every problem. */
export function parseFilter(raw: unknown, path = 'filters', limits: FilterLimits = FILTER_LIMITS): Filter {
  const problems = new Problems(limits.maxProblems);
  const parser = new Parser(problems, limits);
  const root = parser.group(raw, path, 1);
  problems.throwIfAny('The filter is invalid');
  return root!;
}

class Parser {
  private nodes = 0;
  private sizeReported = false;

  constructor(
    private readonly problems: Problems,
    private readonly limits: FilterLimits,
  ) {}

  group(raw: unknown, path: string, depth: number): GroupNode | undefined {
    if (!isPlainObject(raw) || !('conditions' in raw)) {
      this.problems.add(path, C.invalid, 'must be a group: {operator: "AND" | "OR", conditions: [...]}');
      return undefined;
    }
    this.unknownKeys(raw, GROUP_KEYS, path);
    const operator = raw.operator;
    if (!GROUP_OPERATORS.includes(operator as never))
      this.problems.add(`${path}.operator`, C.invalid, 'must be "AND" or "OR"');
    if (!Array.isArray(raw.conditions)) {
      this.problems.add(`${path}.conditions`, C.invalid, 'must be an array');
      return undefined;
    }
    const conditions: FilterNode[] = [];
    const items = raw.conditions as unknown[];
    for (let i = 0; i < items.length; i++) {
      const itemPath = `${path}.conditions[${i}]`;
      if (++this.nodes > this.limits.maxNodes) {
        if (!this.sizeReported)
          this.problems.add(
            itemPath,
            C.tooLarge,
            `a filter holds at most ${this.limits.maxNodes} conditions and groups`,
          );
        this.sizeReported = true;
        break;
      }
      const item = items[i];
      let node: FilterNode | undefined;
      if (isPlainObject(item) && 'conditions' in item) {
        if (depth + 1 > this.limits.maxDepth) {
          this.problems.add(itemPath, C.tooDeep, `groups nest at most ${this.limits.maxDepth} levels deep`);
          continue;
        }
        node = this.group(item, itemPath, depth + 1);
      } else node = this.condition(item, itemPath);
      if (node) conditions.push(node);
    }
    return { kind: 'group', path, operator: operator as GroupNode['operator'], conditions };
  }

  private condition(raw: unknown, path: string): Condition | undefined {
    if (!isPlainObject(raw)) {
      this.problems.add(path, C.invalid, 'must be a condition {field, operator, value?, unit?} or a group');
      return undefined;
    }
    this.unknownKeys(raw, CONDITION_KEYS, path);
    const field = raw.field;
    const operator = raw.operator;
    if (typeof operator !== 'string') {
      this.problems.add(`${path}.operator`, C.invalid, 'must be a string');
    }
    if (typeof field !== 'string' || field.length === 0) {
      this.problems.add(`${path}.field`, C.invalid, 'must be a non-empty string');
      return undefined;
    }
    if (field.length > this.limits.maxFieldLength || !isStorableString(field)) {
      this.problems.add(`${path}.field`, C.invalid, `must be at most ${this.limits.maxFieldLength} characters of text`);
      return undefined;
    }
    if (typeof operator !== 'string') return undefined;
    if ((STANDARD_FIELDS as readonly string[]).includes(field))
      return this.valueCondition(raw, path, field, operator, { kind: 'standard', field: field as StandardField });
    if (field.startsWith('data.')) {
      const keys = field.slice(5).split('.');
      if (keys.some((k) => k.length === 0) || keys.length > this.limits.maxPathSegments) {
        this.problems.add(
          `${path}.field`,
          C.unknownField,
          `data.<path> needs non-empty keys separated by dots (at most ${this.limits.maxPathSegments})`,
        );
        return undefined;
      }
      return this.valueCondition(raw, path, field, operator, { kind: 'data', field, keys });
    }
    if (field.startsWith('event.') || field.startsWith('email.')) return this.activity(raw, path, field, operator);
    if (field.startsWith('segment.')) {
      const segmentId = field.slice(8);
      if (segmentId.length === 0) {
        this.problems.add(`${path}.field`, C.unknownField, 'segment.<id> needs a segment id');
        return undefined;
      }
      if (!SEGMENT_OPERATORS.includes(operator as never)) {
        this.operatorProblem(path, operator, SEGMENT_OPERATORS);
        return undefined;
      }
      this.noUnit(raw, path, operator);
      this.noWindow(raw, path, operator);
      if (!this.noValue(raw, path, operator)) return undefined;
      return { kind: 'segment', path, field, segmentId, operator: operator as (typeof SEGMENT_OPERATORS)[number] };
    }
    this.problems.add(
      `${path}.field`,
      C.unknownField,
      'must be email, subscribed, createdAt, updatedAt, data.<path>, event.<name>, email.<kind> or segment.<id>',
    );
    return undefined;
  }

  private valueCondition(
    raw: Record<string, unknown>,
    path: string,
    field: string,
    operator: string,
    target: { kind: 'standard'; field: StandardField } | { kind: 'data'; field: string; keys: string[] },
  ): Condition | undefined {
    if (!VALUE_OPERATORS.includes(operator as never)) {
      this.operatorProblem(path, operator, VALUE_OPERATORS);
      return undefined;
    }
    const op = operator as ValueOperator;
    const allowed = target.kind === 'standard' ? STANDARD_OPERATORS[target.field] : undefined;
    if (allowed && !allowed.has(op)) {
      this.problems.add(`${path}.operator`, C.operatorNotAllowed, `${op} does not apply to ${field}`);
      return undefined;
    }
    this.noWindow(raw, path, op);
    const unit = op === 'within' || op === 'olderThan' ? this.unit(raw, path) : this.noUnit(raw, path, op);
    const value = this.operatorValue(raw, path, op, target.kind === 'standard' ? target.field : undefined);
    if (value === INVALID) return undefined;
    const node = { ...target, path, operator: op } as Condition & { value?: Scalar | Scalar[]; unit?: TimeUnit };
    if (value !== undefined) node.value = value;
    if (unit !== undefined) node.unit = unit;
    return node;
  }

  private operatorValue(
    raw: Record<string, unknown>,
    path: string,
    op: ValueOperator,
    standard: StandardField | undefined,
  ): Scalar | Scalar[] | undefined | typeof INVALID {
    const at = `${path}.value`;
    const value = raw.value;
    switch (op) {
      case 'exists':
      case 'notExists':
        return this.noValue(raw, path, op) ? undefined : INVALID;
      case 'within':
      case 'olderThan':
        return this.integer(value, at, 1, this.limits.maxWindowAmount) ?? INVALID;
      case 'contains':
      case 'notContains':
      case 'startsWith':
        if (typeof value === 'string' && this.text(value, at)) return value;
        if (typeof value !== 'string') this.problems.add(at, C.invalidValue, `${op} needs a string`);
        return INVALID;
      case 'greaterThan':
      case 'lessThan':
      case 'greaterThanOrEqual':
      case 'lessThanOrEqual':
      case 'gt':
      case 'lt':
      case 'gte':
      case 'lte': {
        const dateOnly = standard === 'createdAt' || standard === 'updatedAt';
        if ((!dateOnly && typeof value === 'number' && Number.isFinite(value)) || qualifiesAsDate(value)) return value;
        this.problems.add(
          at,
          C.invalidValue,
          dateOnly
            ? `${op} needs a date (YYYY-MM-DD or YYYY-MM-DDTHH:MM:SS[.sss]Z)`
            : `${op} needs a number or a date (YYYY-MM-DD or YYYY-MM-DDTHH:MM:SS[.sss]Z)`,
        );
        return INVALID;
      }
      case 'equals':
      case 'notEquals':
        return this.scalar(value, at, standard) ?? INVALID;
      case 'in':
      case 'notIn': {
        if (!Array.isArray(value) || value.length === 0 || value.length > this.limits.maxListValues) {
          this.problems.add(at, C.invalidValue, `${op} needs an array of 1 to ${this.limits.maxListValues} values`);
          return INVALID;
        }
        const out: Scalar[] = [];
        let kind: string | undefined;
        let ok = true;
        for (let i = 0; i < value.length; i++) {
          const item = this.scalar(value[i], `${at}[${i}]`, standard);
          if (item === undefined) {
            ok = false;
            continue;
          }
          const itemKind = qualifiesAsDate(item) ? 'date' : typeof item;
          if (kind === undefined) kind = itemKind;
          else if (itemKind !== kind) {
            this.problems.add(`${at}[${i}]`, C.invalidValue, `values of one list share a type (${kind} first)`);
            ok = false;
          }
          out.push(item);
        }
        return ok ? out : INVALID;
      }
    }
  }

  /** A scalar value, of the standard field's type when there is one. */
  private scalar(value: unknown, at: string, standard: StandardField | undefined): Scalar | undefined {
    if (!isScalar(value)) {
      this.problems.add(at, C.invalidValue, 'must be a string, a number or a boolean');
      return undefined;
    }
    if (typeof value === 'string' && !this.text(value, at)) return undefined;
    if (standard === 'email' && typeof value !== 'string') {
      this.problems.add(at, C.valueType, 'email compares with a string');
      return undefined;
    }
    if (standard === 'subscribed' && typeof value !== 'boolean') {
      this.problems.add(at, C.valueType, 'subscribed compares with true or false');
      return undefined;
    }
    if ((standard === 'createdAt' || standard === 'updatedAt') && !qualifiesAsDate(value)) {
      this.problems.add(at, C.valueType, `${standard} compares with a date (YYYY-MM-DD or YYYY-MM-DDTHH:MM:SS[.sss]Z)`);
      return undefined;
    }
    return value;
  }

  private activity(raw: Record<string, unknown>, path: string, field: string, operator: string): Condition | undefined {
    const source = field.startsWith('event.') ? 'event' : 'email';
    const name = field.slice(6);
    if (source === 'event' && (name.length === 0 || name.length > MAX_NAME_LENGTH)) {
      this.problems.add(
        `${path}.field`,
        C.unknownField,
        `event.<name> needs a name of 1 to ${MAX_NAME_LENGTH} characters`,
      );
      return undefined;
    }
    if (source === 'email' && !ENGAGEMENT_KINDS.includes(name as never)) {
      this.problems.add(`${path}.field`, C.unknownField, `email.<kind> takes one of: ${ENGAGEMENT_KINDS.join(', ')}`);
      return undefined;
    }
    if (!ACTIVITY_OPERATORS.includes(operator as never)) {
      this.operatorProblem(path, operator, ACTIVITY_OPERATORS);
      return undefined;
    }
    const op = operator as ActivityOperator;
    const node: Condition = { kind: 'activity', path, field, source, name, operator: op };
    if (op === 'triggered' || op === 'notTriggered') {
      this.noUnit(raw, path, op);
      this.noWindow(raw, path, op);
      return this.noValue(raw, path, op) ? node : undefined;
    }
    if (op === 'triggeredWithin' || op === 'notTriggeredWithin') {
      this.noWindow(raw, path, op);
      const unit = this.unit(raw, path);
      const amount = this.integer(raw.value, `${path}.value`, 1, this.limits.maxWindowAmount);
      if (amount === undefined) return undefined;
      node.value = amount;
      if (unit !== undefined) node.unit = unit;
      return node;
    }
    this.noUnit(raw, path, op);
    const count = this.integer(raw.value, `${path}.value`, 0, this.limits.maxCount);
    const within = raw.within === undefined ? undefined : this.window(raw.within, `${path}.within`);
    if (count === undefined || within === INVALID) return undefined;
    node.value = count;
    if (within) node.within = within;
    return node;
  }

  private window(raw: unknown, at: string): TimeWindow | typeof INVALID {
    if (!isPlainObject(raw)) {
      this.problems.add(at, C.invalid, 'must be {amount, unit}');
      return INVALID;
    }
    this.unknownKeys(raw, WINDOW_KEYS, at);
    const amount = this.integer(raw.amount, `${at}.amount`, 1, this.limits.maxWindowAmount);
    if (!TIME_UNITS.includes(raw.unit as never)) {
      this.problems.add(`${at}.unit`, C.invalidUnit, `must be one of: ${TIME_UNITS.join(', ')}`);
      return INVALID;
    }
    return amount === undefined ? INVALID : { amount, unit: raw.unit as TimeUnit };
  }

  private unit(raw: Record<string, unknown>, path: string): TimeUnit | undefined {
    if (raw.unit === undefined) return undefined;
    if (TIME_UNITS.includes(raw.unit as never)) return raw.unit as TimeUnit;
    this.problems.add(`${path}.unit`, C.invalidUnit, `must be one of: ${TIME_UNITS.join(', ')}`);
    return undefined;
  }

  private noUnit(raw: Record<string, unknown>, path: string, op: string): undefined {
    if (raw.unit !== undefined) this.problems.add(`${path}.unit`, C.unknownProperty, `${op} takes no unit`);
    return undefined;
  }

  /** True when the condition carries no value (absent or null), as `op` requires. */
  private noValue(raw: Record<string, unknown>, path: string, op: string): boolean {
    const ok = raw.value === undefined || raw.value === null;
    if (!ok) this.problems.add(`${path}.value`, C.invalidValue, `${op} takes no value`);
    return ok;
  }

  private noWindow(raw: Record<string, unknown>, path: string, op: string): void {
    if (raw.within !== undefined) this.problems.add(`${path}.within`, C.unknownProperty, `${op} takes no within`);
  }

  private integer(value: unknown, at: string, min: number, max: number): number | undefined {
    if (typeof value === 'number' && Number.isInteger(value) && value >= min && value <= max) return value;
    this.problems.add(at, C.invalidValue, `must be an integer from ${min} to ${max}`);
    return undefined;
  }

  private text(value: string, at: string): boolean {
    if (value.length <= this.limits.maxStringLength && isStorableString(value)) return true;
    this.problems.add(
      at,
      C.invalidValue,
      `must be at most ${this.limits.maxStringLength} characters of text (no NUL, no lone surrogates)`,
    );
    return false;
  }

  private operatorProblem(path: string, operator: string, allowed: readonly string[]): void {
    const known =
      VALUE_OPERATORS.includes(operator as never) ||
      ACTIVITY_OPERATORS.includes(operator as never) ||
      SEGMENT_OPERATORS.includes(operator as never);
    this.problems.add(
      `${path}.operator`,
      known ? C.operatorNotAllowed : C.unknownOperator,
      `must be one of: ${allowed.join(', ')}`,
    );
  }

  private unknownKeys(raw: Record<string, unknown>, allowed: ReadonlySet<string>, path: string): void {
    for (const key of Object.keys(raw))
      if (!allowed.has(key)) this.problems.add(`${path}.${key}`, C.unknownProperty, 'is not a property of a filter');
  }
}

const INVALID = Symbol('invalid');

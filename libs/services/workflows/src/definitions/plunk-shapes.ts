import { isValidEmail, type WorkflowStepType } from '@herald/contracts';
import type { FieldProblem } from '@herald/core';
import { checkStepConfig, DELAY_UNITS, type DelayUnit } from './step-config.js';

/**
 * Plunk's shapes of a step, accepted beside Herald's own and normalised here, at the edge, into the
 * one internal model (docs/workflows.md, "Plunk's shapes"); the runtime, the dry run and usage never
 * see them. Everything else keeps the strict checks of `checkStepConfig`, and a problem of a Plunk
 * shape is reported on the field as the caller wrote it (`config.branches[1].operator`, not the
 * internal `config.branches[1].filter.conditions[0].operator`).
 *
 * - CONDITION `{field, operator, value}` → a filter group of that one condition (yes/no);
 * - CONDITION `{mode: 'multi', field, branches: [{id, name, operator, value}]}` →
 *   `{branches: [{id, name, filter}]}` (the first matching branch, else `default`);
 * - UPDATE_CONTACT `{updates, subscriptionAction}` → `{data, subscribed}`;
 * - a step's top-level `templateId` (SEND_EMAIL) → `config.templateId`;
 * - SEND_EMAIL `recipient: {type: 'CUSTOM', customEmail}` → `to: customEmail`
 *   (`{type: 'CONTACT'}`: no `to`, the contact's address);
 * - DELAY `{amount: 1.5, unit: 'hours'}` (a fraction, in minutes, hours or days) → the whole amount of
 *   the largest unit that holds it exactly (`{amount: 90, unit: 'minutes'}`).
 */
export const PLUNK_OPERATORS = [
  'equals',
  'notEquals',
  'contains',
  'notContains',
  'greaterThan',
  'lessThan',
  'greaterThanOrEqual',
  'lessThanOrEqual',
  'exists',
  'notExists',
] as const;
export const SUBSCRIPTION_ACTIONS = ['none', 'subscribe', 'unsubscribe'] as const;
const PLUNK_FIELDS =
  '`data.<key>`, `contact.email`, `contact.subscribed`, `contact.data.<key>`, `event.<key>`, `workflow.<key>`';

type Config = Record<string, unknown>;
const isObject = (v: unknown): v is Config => v !== null && typeof v === 'object' && !Array.isArray(v);

/**
 * Plunk's condition field in the filter language, or undefined when it has no equivalent. Plunk's
 * `event.<key>` and `workflow.<key>` both read the triggering event's data: Herald's `event.<key>`
 * with a value operator (condition-filter.ts).
 */
export function filterFieldOf(field: string): string | undefined {
  if (field === 'contact.email') return 'email';
  if (field === 'contact.subscribed') return 'subscribed';
  const m = /^(data|contact\.data|event|workflow)\.(.+)$/.exec(field);
  if (!m) return undefined;
  return m[1] === 'data' || m[1] === 'contact.data' ? `data.${m[2]}` : `event.${m[2]}`;
}

export interface NormalisedStep {
  config: Config;
  problems: FieldProblem[];
}

/**
 * A step's config in the internal model, and its problems (empty: valid), each on the field as
 * written. `templateId` is the step's top-level one (Plunk's SEND_EMAIL): it goes into the config;
 * `null` is no template given.
 */
export function readStepConfig(type: WorkflowStepType, raw: unknown, templateId?: string | null): NormalisedStep {
  const problems: FieldProblem[] = [];
  if (!isObject(raw)) return { config: raw as Config, problems: checkStepConfig(type, raw) };
  let config: Config = raw;
  if (templateId !== undefined && templateId !== null) {
    if (type !== 'SEND_EMAIL')
      problems.push({
        field: 'templateId',
        message: 'only a SEND_EMAIL step takes a templateId',
        code: 'STEP_CONFIG_UNKNOWN',
      });
    else if (config.templateId !== undefined && config.templateId !== templateId)
      problems.push({
        field: 'templateId',
        message: 'templateId and config.templateId name different templates',
        code: 'STEP_CONFIG_INVALID',
      });
    else config = { ...config, templateId };
  }
  let shape: Shape = { config, rename: (f) => f, problems: [] };
  if (type === 'CONDITION' && 'mode' in config) shape = plunkMultiCondition(config);
  else if (type === 'CONDITION' && 'field' in config && !('conditions' in config)) shape = plunkCondition(config);
  else if (type === 'UPDATE_CONTACT' && ('updates' in config || 'subscriptionAction' in config))
    shape = plunkUpdateContact(config);
  else if (type === 'SEND_EMAIL' && 'recipient' in config) shape = plunkRecipient(config);
  else if (type === 'DELAY' && isFraction(config.amount) && PLUNK_DELAY_UNITS.includes(config.unit as DelayUnit))
    shape = plunkDelay(config);
  problems.push(...shape.problems);
  if (shape.problems.length === 0)
    problems.push(...checkStepConfig(type, shape.config).map((p) => ({ ...p, field: shape.rename(p.field) })));
  return { config: shape.config, problems: dedupe(problems) };
}

interface Shape {
  config: Config;
  /** An internal field path back to the field as the caller wrote it. */
  rename: (field: string) => string;
  problems: FieldProblem[];
}

const dedupe = (problems: FieldProblem[]): FieldProblem[] => {
  const seen = new Set<string>();
  return problems.filter((p) => {
    const key = `${p.field}\u0000${p.code}\u0000${p.message}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
};

function unknownKeys(c: Config, allowed: string[], what: string, at = 'config'): FieldProblem[] {
  return Object.keys(c)
    .filter((k) => !allowed.includes(k))
    .map((k) => ({
      field: `${at}.${k}`,
      message: `${what} takes no ${k} (allowed: ${allowed.join(', ')})`,
      code: 'STEP_CONFIG_UNKNOWN',
    }));
}

/** Plunk's `{field, operator, value}` as one filter condition; `at` is where the caller wrote it. */
function conditionOf(
  field: unknown,
  operator: unknown,
  value: unknown,
  at: { field: string; operator: string },
): { condition?: Config; problems: FieldProblem[] } {
  const problems: FieldProblem[] = [];
  const mapped = typeof field === 'string' ? filterFieldOf(field) : undefined;
  if (typeof field !== 'string' || field.length === 0)
    problems.push({ field: at.field, message: 'field must be a non-empty string', code: 'STEP_CONFIG_INVALID' });
  else if (!mapped)
    problems.push({
      field: at.field,
      message: `${field} has no equivalent: use ${PLUNK_FIELDS}`,
      code: 'STEP_CONFIG_INVALID',
    });
  if (!(PLUNK_OPERATORS as readonly unknown[]).includes(operator))
    problems.push({
      field: at.operator,
      message: `operator must be one of ${PLUNK_OPERATORS.join(', ')}`,
      code: 'STEP_CONFIG_INVALID',
    });
  if (problems.length) return { problems };
  // exists/notExists compare nothing: a value sent with them is ignored, as Plunk does
  const takesValue = operator !== 'exists' && operator !== 'notExists';
  return { condition: { field: mapped, operator, ...(takesValue && value !== undefined ? { value } : {}) }, problems };
}

/** `{field, operator, value}` → `{operator: 'AND', conditions: [{field, operator, value}]}`. */
function plunkCondition(c: Config): Shape {
  const problems = unknownKeys(c, ['field', 'operator', 'value'], 'a single CONDITION');
  const one = conditionOf(c.field, c.operator, c.value, { field: 'config.field', operator: 'config.operator' });
  problems.push(...one.problems);
  return {
    config: { operator: 'AND', conditions: one.condition ? [one.condition] : [] },
    // config.conditions[0].value → config.value
    rename: (f) => f.replace(/^config\.conditions\[0\](?=\.|$)/, 'config'),
    problems,
  };
}

/** `{mode: 'multi', field, branches: [{id, name, operator, value}]}` → `{branches: [{id, name, filter}]}`. */
function plunkMultiCondition(c: Config): Shape {
  const problems = unknownKeys(c, ['mode', 'field', 'branches'], 'a multi-branch CONDITION');
  if (c.mode !== 'multi')
    problems.push({ field: 'config.mode', message: "mode must be 'multi'", code: 'STEP_CONFIG_INVALID' });
  const branches: Config[] = [];
  if (Array.isArray(c.branches))
    c.branches.forEach((b: unknown, i) => {
      const at = `config.branches[${i}]`;
      if (!isObject(b)) {
        branches.push({});
        return problems.push({
          field: at,
          message: 'a branch is {id, name, operator, value}',
          code: 'STEP_CONFIG_INVALID',
        });
      }
      problems.push(...unknownKeys(b, ['id', 'name', 'operator', 'value'], 'a branch', at));
      const one = conditionOf(c.field, b.operator, b.value, { field: 'config.field', operator: `${at}.operator` });
      problems.push(...one.problems);
      branches.push({
        id: b.id,
        name: b.name,
        filter: { operator: 'AND', conditions: one.condition ? [one.condition] : [] },
      });
    });
  return {
    config: { branches: Array.isArray(c.branches) ? branches : c.branches },
    // config.branches[i].filter.conditions[0].field → config.field; ….value → config.branches[i].value
    rename: (f) =>
      f
        .replace(/^config\.branches\[\d+\]\.filter\.conditions\[0\]\.field$/, 'config.field')
        .replace(/^(config\.branches\[\d+\])\.filter(\.conditions\[0\])?(?=\.|$)/, '$1'),
    problems: dedupe(problems),
  };
}

/** `{updates, subscriptionAction}` → `{data, subscribed}`, with at least one effective change (as Plunk requires). */
function plunkUpdateContact(c: Config): Shape {
  const problems = unknownKeys(c, ['updates', 'subscriptionAction'], 'UPDATE_CONTACT with updates');
  const { updates, subscriptionAction: action } = c;
  if (updates !== undefined && !isObject(updates))
    problems.push({ field: 'config.updates', message: 'updates must be an object', code: 'STEP_CONFIG_INVALID' });
  if (action !== undefined && !(SUBSCRIPTION_ACTIONS as readonly unknown[]).includes(action))
    problems.push({
      field: 'config.subscriptionAction',
      message: `subscriptionAction must be one of ${SUBSCRIPTION_ACTIONS.join(', ')}`,
      code: 'STEP_CONFIG_INVALID',
    });
  const data = isObject(updates) && Object.keys(updates).length > 0 ? updates : undefined;
  const subscribed = action === 'subscribe' ? true : action === 'unsubscribe' ? false : undefined;
  if (problems.length === 0 && data === undefined && subscribed === undefined)
    problems.push({
      field: 'config.updates',
      message: "give at least one field in updates, or a subscriptionAction other than 'none'",
      code: 'STEP_CONFIG_INVALID',
    });
  return {
    config: { ...(data ? { data } : {}), ...(subscribed !== undefined ? { subscribed } : {}) },
    rename: (f) =>
      f.replace(/^config\.data(?=\.|$)/, 'config.updates').replace(/^config\.subscribed$/, 'config.subscriptionAction'),
    problems,
  };
}

export const RECIPIENT_TYPES = ['CONTACT', 'CUSTOM'] as const;

/**
 * `recipient: {type: 'CONTACT' | 'CUSTOM', customEmail?}` → Herald's `to` (the recipient override):
 * CUSTOM sends to `customEmail` (an address, required), CONTACT to the contact (no `to`; a
 * `customEmail` given with it is checked and ignored, as Plunk does). The email stays the contact's
 * either way (the runtime hands sending the contact with a `to`). `recipient` and `to` together: 422.
 */
function plunkRecipient(c: Config): Shape {
  const { recipient, ...rest } = c;
  const problems: FieldProblem[] = [];
  const bad = (field: string, message: string) =>
    problems.push({ field: `config.recipient${field}`, message, code: 'STEP_CONFIG_INVALID' });
  if (!isObject(recipient)) bad('', "recipient must be {type: 'CONTACT' | 'CUSTOM', customEmail?}");
  else {
    problems.push(...unknownKeys(recipient, ['type', 'customEmail'], 'a recipient', 'config.recipient'));
    const { type, customEmail } = recipient;
    if (!(RECIPIENT_TYPES as readonly unknown[]).includes(type))
      bad('.type', `type must be one of ${RECIPIENT_TYPES.join(', ')}`);
    if (customEmail === undefined || customEmail === null) {
      if (type === 'CUSTOM') bad('.customEmail', 'customEmail is required when type is CUSTOM');
    } else if (!isValidEmail(customEmail)) bad('.customEmail', 'customEmail must be an email address');
    // it becomes `to`, a Liquid template: an address is taken as written, never as a template
    else if (/\{\{|\{%/.test(customEmail))
      bad('.customEmail', 'customEmail is an address, not a template: use to for a templated recipient');
    if (rest.to !== undefined) bad('', 'give recipient or to, not both: recipient CUSTOM is stored as to');
  }
  const custom = isObject(recipient) && recipient.type === 'CUSTOM' ? recipient.customEmail : undefined;
  return {
    config: { ...rest, ...(custom !== undefined ? { to: custom } : {}) },
    rename: (f) => f.replace(/^config\.to$/, 'config.recipient.customEmail'),
    problems,
  };
}

/** Plunk's DELAY units: a fraction of one of these is taken (Herald's seconds and weeks stay whole). */
export const PLUNK_DELAY_UNITS: readonly DelayUnit[] = ['minutes', 'hours', 'days'];
const SMALLER_FIRST: readonly DelayUnit[] = ['seconds', 'minutes', 'hours', 'days'];
/** A positive number that is no integer (Herald's DELAY takes integers only). */
const isFraction = (v: unknown): v is number =>
  typeof v === 'number' && Number.isFinite(v) && v > 0 && !Number.isInteger(v);

/**
 * A positive decimal number of seconds × 10^exponent as the caller wrote it (the shortest decimal
 * that reads back as the same double: `1.15` is 115 × 10^-2, exactly), so `1.15 days` is 99360 s
 * and not 99359.99999999999.
 */
function decimalOf(n: number): { digits: bigint; exponent: number } | undefined {
  const m = /^(\d+)(?:\.(\d+))?(?:e([+-]\d+))?$/.exec(String(n));
  if (!m) return undefined;
  const fraction = m[2] ?? '';
  return { digits: BigInt(m[1]! + fraction), exponent: Number(m[3] ?? 0) - fraction.length };
}

/**
 * The whole number of seconds `amount` `unit` lasts, or undefined when it does not land on a whole
 * second (or is not a positive number).
 */
export function wholeSeconds(amount: number, unit: DelayUnit): bigint | undefined {
  const d = amount > 0 ? decimalOf(amount) : undefined;
  if (!d) return undefined;
  const seconds = d.digits * BigInt(DELAY_UNITS[unit] / 1000);
  if (d.exponent >= 0) return seconds * 10n ** BigInt(d.exponent);
  const divisor = 10n ** BigInt(-d.exponent);
  return seconds % divisor === 0n ? seconds / divisor : undefined;
}

/**
 * `{amount: 1.5, unit: 'hours'}` → `{amount: 90, unit: 'minutes'}`: the whole amount of the largest
 * unit, up to the one written, that holds the length exactly, so the stored model stays integral.
 * A length that is no whole number of seconds is a 422 on `config.amount`.
 */
function plunkDelay(c: Config): Shape {
  const { amount, unit } = c as { amount: number; unit: DelayUnit };
  const seconds = wholeSeconds(amount, unit);
  if (seconds === undefined)
    return {
      config: c,
      rename: (f) => f,
      problems: [
        {
          field: 'config.amount',
          message: `${amount} ${unit} is not a whole number of seconds: give a length that is`,
          code: 'STEP_CONFIG_INVALID',
        },
      ],
    };
  const largest = SMALLER_FIRST.slice(0, SMALLER_FIRST.indexOf(unit) + 1)
    .reverse()
    .find((u) => seconds % BigInt(DELAY_UNITS[u] / 1000) === 0n)!;
  return {
    config: { ...c, amount: Number(seconds / BigInt(DELAY_UNITS[largest] / 1000)), unit: largest },
    rename: (f) => f,
    problems: [],
  };
}

/**
 * The branch a transition names: Herald's `branch`, or Plunk's `condition: {branch}` (`yes`, `no`, a
 * branch id, `default`, `timeout`) or `condition: {fallback: true}` (the timeout). Both given must
 * agree. Undefined: none named (a WAIT_FOR_EVENT's untagged transition is then its `event` branch,
 * graph.ts). `field` is where the caller wrote it, for the graph's refusals.
 */
export function readTransitionBranch(t: { branch?: string | undefined; condition?: unknown }): {
  branch?: string;
  field: string;
  problems: FieldProblem[];
} {
  if (t.condition === undefined || t.condition === null)
    return { ...(t.branch !== undefined ? { branch: t.branch } : {}), field: 'branch', problems: [] };
  const bad = (field: string, message: string, code = 'TRANSITION_BRANCH_INVALID') => ({
    field,
    problems: [{ field, message, code }],
  });
  const c = t.condition;
  if (!isObject(c)) return bad('condition', 'condition must be {branch} or {fallback: true}');
  const unknown = Object.keys(c).filter((k) => k !== 'branch' && k !== 'fallback');
  if (unknown.length)
    return bad(
      `condition.${unknown[0]}`,
      'a transition condition takes branch or fallback only',
      'STEP_CONFIG_UNKNOWN',
    );
  if (c.fallback !== undefined && c.fallback !== true)
    return bad('condition.fallback', 'fallback must be true (the timeout branch of a WAIT_FOR_EVENT)');
  if (c.branch !== undefined && (typeof c.branch !== 'string' || c.branch.length < 1 || c.branch.length > 64))
    return bad('condition.branch', 'branch must be a string of 1 to 64 characters');
  if (c.fallback === true && c.branch !== undefined && c.branch !== 'timeout')
    return bad('condition.branch', 'fallback is the timeout branch: branch must be timeout or left out');
  const named = c.fallback === true ? 'timeout' : (c.branch as string | undefined);
  const field = c.fallback === true && c.branch === undefined ? 'condition.fallback' : 'condition.branch';
  if (named !== undefined && t.branch !== undefined && t.branch !== named)
    return bad(field, `branch is ${t.branch} but the condition names ${named}: give one, or both the same`);
  const branch = named ?? t.branch;
  return { ...(branch !== undefined ? { branch } : {}), field: named !== undefined ? field : 'branch', problems: [] };
}

import { DomainError, invalidInput, type FieldProblem } from '@herald/core';
import type { Filter, FieldTypes } from '@herald/filters';
import { conditionReferences, evaluateCondition, parseCondition, type ConditionInput } from './condition-filter.js';

/**
 * A CONDITION step's config in the internal model, in one of two forms:
 * - two-way: a filter group (docs/filters.md); its ways on are `yes` and `no`;
 * - multi-branch: `{branches: [{id, name, filter}]}` (1..20), tried in order; the first branch whose
 *   filter matches is taken, else `default`. Its ways on are the branch ids and `default`.
 * Plunk's shapes (a single condition, `mode: 'multi'`) are normalised into these at the edge
 * (`plunk-shapes.ts`), so the runtime, the dry run and usage see only these two.
 */
export const MAX_CONDITION_BRANCHES = 20;
export const MAX_BRANCH_ID = 64;
export const DEFAULT_BRANCH = 'default';

export interface ConditionBranch {
  id: string;
  name: string;
  filter: Filter;
}
export type ConditionStep = { kind: 'two-way'; filter: Filter } | { kind: 'multi'; branches: ConditionBranch[] };

type Config = Record<string, unknown>;
const isObject = (v: unknown): v is Config => v !== null && typeof v === 'object' && !Array.isArray(v);

/** Whether a CONDITION's config is the multi-branch form (`{branches: [...]}`). */
export const isMultiBranch = (config: Config): boolean => 'branches' in config;

/** The ways on of a CONDITION: yes/no, or its branch ids and `default` (ids as written, even when invalid). */
export function conditionSlots(config: Config): string[] {
  if (!isMultiBranch(config)) return ['yes', 'no'];
  const branches = Array.isArray(config.branches) ? config.branches : [];
  return [
    ...branches.map((b) => (isObject(b) && typeof b.id === 'string' ? b.id : '')).filter((id) => id !== ''),
    DEFAULT_BRANCH,
  ];
}

const problemsOf = (err: unknown): FieldProblem[] => {
  if (err instanceof DomainError && err.details.errors) return err.details.errors;
  throw err;
};

/**
 * Parses a CONDITION's config (either form) into the filter language; throws one 422 listing every
 * problem, each on its path under `path` (`config.branches[1].filter.conditions[0].value`).
 */
export function parseConditionStep(raw: unknown, path = 'config'): ConditionStep {
  if (!isObject(raw) || !isMultiBranch(raw)) return { kind: 'two-way', filter: parseCondition(raw, path) };
  const problems: FieldProblem[] = [];
  const bad = (field: string, message: string, code = 'STEP_CONFIG_INVALID') => problems.push({ field, message, code });
  for (const k of Object.keys(raw))
    if (k !== 'branches')
      bad(`${path}.${k}`, `a multi-branch CONDITION takes branches only (not ${k})`, 'STEP_CONFIG_UNKNOWN');
  const list = raw.branches;
  const branches: ConditionBranch[] = [];
  if (!Array.isArray(list) || list.length < 1 || list.length > MAX_CONDITION_BRANCHES)
    bad(`${path}.branches`, `branches must be an array of 1 to ${MAX_CONDITION_BRANCHES} branches`);
  else {
    const seen = new Set<string>();
    list.forEach((b: unknown, i) => {
      const at = `${path}.branches[${i}]`;
      if (!isObject(b)) return bad(at, 'a branch is {id, name, filter}');
      for (const k of Object.keys(b))
        if (!['id', 'name', 'filter'].includes(k))
          bad(`${at}.${k}`, `a branch takes id, name and filter (not ${k})`, 'STEP_CONFIG_UNKNOWN');
      const { id, name } = b;
      if (typeof id !== 'string' || id.length < 1 || id.length > MAX_BRANCH_ID)
        bad(`${at}.id`, `id must be a string of 1 to ${MAX_BRANCH_ID} characters`);
      else if (id === DEFAULT_BRANCH)
        bad(`${at}.id`, `${DEFAULT_BRANCH} is the way on when no branch matches: give the branch another id`);
      else if (seen.has(id)) bad(`${at}.id`, `two branches have the id ${id}`);
      else seen.add(id);
      if (typeof name !== 'string' || name.trim().length < 1 || name.length > 200)
        bad(`${at}.name`, 'name must be a non-empty string of at most 200 characters');
      try {
        const filter = parseCondition(b.filter, `${at}.filter`);
        if (typeof id === 'string' && typeof name === 'string') branches.push({ id, name, filter });
      } catch (err) {
        problems.push(...problemsOf(err));
      }
    });
  }
  if (problems.length) throw invalidInput(problems, 'The filter is invalid');
  return { kind: 'multi', branches };
}

/** Every filter of a parsed CONDITION (one, or one per branch). */
export const filtersOf = (c: ConditionStep): Filter[] =>
  c.kind === 'two-way' ? [c.filter] : c.branches.map((b) => b.filter);

/** The contact fields, tracked events and segments a CONDITION reads, over all its branches (usage). */
export function conditionStepReferences(c: ConditionStep): { fields: string[]; events: string[]; segments: string[] } {
  const out = { fields: new Set<string>(), events: new Set<string>(), segments: new Set<string>() };
  for (const f of filtersOf(c)) {
    const r = conditionReferences(f);
    r.fields.forEach((x) => out.fields.add(x));
    r.events.forEach((x) => out.events.add(x));
    r.segments.forEach((x) => out.segments.add(x));
  }
  return { fields: [...out.fields], events: [...out.events], segments: [...out.segments] };
}

/**
 * Which way a CONDITION goes for this contact, event and context at `now` (the runtime and the dry run
 * both ask this): `yes`/`no`, or the first matching branch's id, else `default`; with the values read.
 */
export function evaluateConditionStep(
  c: ConditionStep,
  input: ConditionInput,
  now: Date,
  fieldTypes?: FieldTypes,
): { branch: string; values: Record<string, unknown>; matched?: string } {
  if (c.kind === 'two-way') {
    const r = evaluateCondition(c.filter, input, now, fieldTypes);
    return { branch: r.result ? 'yes' : 'no', values: r.values };
  }
  const values: Record<string, unknown> = {};
  for (const b of c.branches) {
    const r = evaluateCondition(b.filter, input, now, fieldTypes);
    Object.assign(values, r.values);
    if (r.result) return { branch: b.id, values, matched: b.name };
  }
  return { branch: DEFAULT_BRANCH, values, matched: DEFAULT_BRANCH };
}

import { matchContact, type FilterContact } from './match-contact.js';
import { STANDARD_FIELDS, type EvaluationContext, type Filter, type FilterNode } from './model.js';

/*
 * What a filter reads and what a change touches, in one vocabulary of keys, so that a change
 * re-evaluates only the filters that read something it touched (docs/segments.md, "Re-evaluation"):
 * - `email`, `subscribed`, `createdAt`, `updatedAt`: the contact's built-in fields;
 * - `data.<path>`: a custom field (a path reads, and is touched by, its prefixes and extensions:
 *   `data.profile` and `data.profile.tier` meet);
 * - `event.<name>`: tracked events of that name;
 * - `email.<kind>`: engagement of that kind (`opened`, `clicked`…).
 * `segment.<id>` is no key: a filter reading a segment reads what that segment's filter reads.
 */

/** A change whose keys are unknown: it touches everything (the safe default). */
export const EVERYTHING = 'everything' as const;
export type TouchedKeys = ReadonlySet<string> | typeof EVERYTHING;

/**
 * The filter of a referenced dynamic segment (undefined for a static segment, whose members move
 * only through its own routes, or for an unknown one).
 */
export type ReferencedFilter = (segmentId: string) => FilterNode | undefined;

/**
 * The keys a filter reads, with those of the dynamic segments it references, transitively. Each
 * referenced segment is followed once, so a reference cycle (refused when a filter is saved) cannot
 * loop here.
 */
export function readKeysOf(filter: FilterNode, referenced?: ReferencedFilter): Set<string> {
  const keys = new Set<string>();
  const seen = new Set<string>();
  const walk = (node: FilterNode): void => {
    switch (node.kind) {
      case 'group':
        node.conditions.forEach(walk);
        return;
      case 'standard':
      case 'data':
        keys.add(node.field);
        return;
      case 'activity':
        keys.add(`${node.source}.${node.name}`);
        return;
      case 'segment': {
        if (seen.has(node.segmentId)) return;
        seen.add(node.segmentId);
        const inner = referenced?.(node.segmentId);
        if (inner) walk(inner);
      }
    }
  };
  walk(filter);
  return keys;
}

const isDataKey = (key: string) => key.startsWith('data.');

/** Whether a filter reading `reads` may answer differently after a change that touched `touched`. */
export function readsAnyOf(reads: ReadonlySet<string>, touched: TouchedKeys): boolean {
  if (touched === EVERYTHING) return true;
  for (const key of touched) {
    if (reads.has(key)) return true;
    if (!isDataKey(key)) continue;
    for (const read of reads)
      if (isDataKey(read) && (read.startsWith(`${key}.`) || key.startsWith(`${read}.`))) return true;
  }
  return false;
}

/** The keys of several changes together (everything when one of them touched everything). */
export function unionOfTouched(changes: Iterable<TouchedKeys>): TouchedKeys {
  const out = new Set<string>();
  for (const c of changes) {
    if (c === EVERYTHING) return EVERYTHING;
    for (const key of c) out.add(key);
  }
  return out;
}

const STANDARD = new Set<string>(STANDARD_FIELDS);

/**
 * The keys a `contact.updated` touched, from its `changedKeys` (`email`, `subscribed`, `data.<key>`),
 * plus `updatedAt` (every applied update moves it). Absent or holding a key outside the vocabulary
 * (a producer older or newer than this reader): everything.
 */
export function touchedByContactUpdate(changedKeys: unknown): TouchedKeys {
  if (!Array.isArray(changedKeys) || changedKeys.length === 0) return EVERYTHING;
  const out = new Set<string>(['updatedAt']);
  for (const key of changedKeys) {
    if (typeof key !== 'string' || !(STANDARD.has(key) || (isDataKey(key) && key.length > 5))) return EVERYTHING;
    out.add(key);
  }
  return out;
}

/**
 * The keys a contact's creation touched: it moved from nothing to what it holds, so every built-in
 * field and each key it holds (`held`: its custom fields' top-level keys, the names of its tracked
 * events and the kinds of its engagement, as `data.<key>`, `event.<name>`, `email.<kind>`). A filter
 * that reads none of them answers for it what it answers for a contact that holds nothing
 * (`mayMatchEmpty`), so only a filter matching such a contact must also be evaluated.
 */
export function touchedByCreation(held: Iterable<string>): Set<string> {
  return new Set([...STANDARD, ...held]);
}

/** A contact that holds nothing: no custom field, no tracked event, no engagement, no membership. */
const EMPTY_CONTACT: FilterContact = {
  id: '',
  email: '',
  subscribed: false,
  createdAt: new Date(0),
  updatedAt: new Date(0),
  data: {},
  events: [],
  emails: [],
  segmentIds: new Set(),
};

/**
 * Whether a filter may match a contact that holds nothing it reads (no custom field, tracked event,
 * engagement or membership it names). True when it reads a built-in field (every contact holds them
 * all) or a segment (the contact's stored membership is not known here), else the in-memory
 * evaluator's answer on a contact that holds nothing: there every test fails on a missing value
 * whatever the time and the field types, so the answer holds at any `now`.
 */
export function mayMatchEmpty(filter: Filter, ctx: Pick<EvaluationContext, 'fieldTypes'>): boolean {
  const unknown = (node: FilterNode): boolean =>
    node.kind === 'group' ? node.conditions.some(unknown) : node.kind === 'standard' || node.kind === 'segment';
  if (unknown(filter)) return true;
  return matchContact(filter, EMPTY_CONTACT, {
    now: new Date(),
    ...(ctx.fieldTypes ? { fieldTypes: ctx.fieldTypes } : {}),
  });
}

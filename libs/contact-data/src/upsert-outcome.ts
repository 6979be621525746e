import type { FieldProblem } from '@herald/core';
import { applyDataPatch, dataSize, MAX_DATA_BYTES } from './data-patch.js';
import { dataObjectProblem } from './data-limits.js';
import { normaliseEmail } from './email.js';

/** What a write reads and writes of a contact (`email` stored normalised). */
export interface ContactState {
  email?: string;
  subscribed: boolean;
  data: Record<string, unknown>;
}

/**
 * The change an upsert (or a PATCH) asks for: an absent `email` or `subscribed` keeps the state,
 * `data` is a patch.
 */
export interface ContactChange {
  email?: string;
  subscribed?: boolean;
  data?: Record<string, unknown>;
}

export interface UpsertOutcome extends ContactState {
  /**
   * `email`, `subscribed` and `data.<key>` that changed, in that order; always empty for a new
   * contact. `email` only when the change's normalised address differs from the current one.
   */
  changedKeys: string[];
  /** Non-persistent values of the change (`{value, persistent: false}` unwrapped), for rendering. */
  transient: Record<string, unknown>;
  /** Why the result cannot be stored (the data limits of docs/contacts.md), or undefined. */
  problem?: FieldProblem;
}

/**
 * What a write makes of a contact: `current` (none for a contact it creates, which then gets
 * `subscribedIfNew` unless the change sets `subscribed`) with `change` applied under the data rules
 * (`applyDataPatch`), the address normalised. The one rule of every contact write (contacts'
 * `applyContactInput`), and what /v1/send renders with before it writes anything, so the two cannot
 * disagree. Never throws: a result that breaks a data limit carries its `problem`.
 */
export function upsertOutcome(
  current: ContactState | undefined,
  change: ContactChange,
  subscribedIfNew: boolean,
): UpsertOutcome {
  const patch = applyDataPatch(current?.data ?? {}, change.data);
  const email = change.email !== undefined ? normaliseEmail(change.email) : current?.email;
  const subscribed = change.subscribed ?? current?.subscribed ?? subscribedIfNew;
  const changedKeys = current
    ? [
        ...(change.email !== undefined && email !== current.email ? ['email'] : []),
        ...(subscribed !== current.subscribed ? ['subscribed'] : []),
        ...patch.changedKeys.map((k) => `data.${k}`),
      ]
    : [];
  const problem = storedDataProblem(patch.data);
  return {
    ...(email !== undefined ? { email } : {}),
    subscribed,
    data: patch.data,
    changedKeys,
    transient: patch.transient,
    ...(problem ? { problem } : {}),
  };
}

/**
 * The first reason a contact's whole data object cannot be stored, or undefined: more than
 * MAX_DATA_BYTES as JSON (field `data`, `too_big`), else a breach of DATA_LIMITS naming its path.
 * A request's data may be within the limits and still make a stored object too large.
 */
export function storedDataProblem(data: Record<string, unknown>): FieldProblem | undefined {
  if (dataSize(data) > MAX_DATA_BYTES)
    return { field: 'data', message: `data must be at most ${MAX_DATA_BYTES} bytes as JSON`, code: 'too_big' };
  return dataObjectProblem(data);
}

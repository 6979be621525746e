import { normaliseEmail } from '@herald/contact-data';
import type { EventEnvelope } from '@herald/contracts';
import {
  applyContactInput,
  contactEventsOf,
  type ContactInput,
  type ContactWrite,
  type WriteContext,
} from './contact-change.js';
import { ContactErrors } from './contact.errors.js';
import type { Contact } from './contact.entity.js';

/** One upsert of a batch: its own input, context and (for a contact it creates) proposed id. */
export interface UpsertItem {
  input: ContactInput;
  ctx: WriteContext;
  /** The id the contact gets if this item creates it (see `ContactWriter.upsert`). */
  idIfNew?: string;
  /**
   * An item applied before (its idempotency key was taken): it changes nothing and answers the
   * contact as the items before it left it (CONTACT_NOT_FOUND when there is none).
   */
  repeat?: boolean;
}

export interface UpsertPlan {
  results: ContactWrite[];
  /** Contact events of the items, in order. */
  events: EventEnvelope[];
  /** New contacts (their state after the last item), by email. */
  inserts: Contact[];
  /** Existing contacts the items changed (their new state), by email. */
  updates: Contact[];
  /** Existing contacts the items matched without changing them. */
  unchanged: Contact[];
}

/** Distinct normalised emails of `items`, sorted (the order rows are locked in). */
export const emailsOf = (items: { input: ContactInput }[]): string[] =>
  [...new Set(items.map((i) => normaliseEmail(i.input.email)))].sort();

/**
 * Applies `items` in order to the contacts read (`found`) with `applyContactInput`, each to the
 * contact the items before it left: an address listed twice is created once, then changed. The
 * results, the rows to insert and update, and the contact events (as written one by one).
 */
export function planUpserts(projectId: string, items: UpsertItem[], found: Contact[], now: Date): UpsertPlan {
  const current = new Map(found.map((c) => [c.email, c]));
  const created = new Set<string>();
  const touched = new Set<string>();
  const events: EventEnvelope[] = [];
  const results: ContactWrite[] = [];
  for (const { input, ctx, idIfNew, repeat } of items) {
    const email = normaliseEmail(input.email);
    const before = current.get(email) ?? null;
    if (repeat) {
      if (!before) throw ContactErrors.notFound(email);
      results.push({ contact: before, created: false, changedKeys: [], transient: {} });
      continue;
    }
    const write = applyContactInput(before, input, { projectId, subscribedIfNew: ctx.subscribedIfNew, idIfNew, now });
    if (write.contact !== before) {
      current.set(email, write.contact);
      (write.created ? created : touched).add(email);
    }
    events.push(...contactEventsOf(write, ctx));
    results.push(write);
  }
  return {
    results,
    events,
    // by email, as the locking path locks them: two writes over the same contacts take their row locks in one order
    inserts: [...created].sort().map((e) => current.get(e)!),
    updates: [...touched]
      .filter((e) => !created.has(e))
      .sort()
      .map((e) => current.get(e)!),
    unchanged: found.filter((c) => !touched.has(c.email)),
  };
}

/**
 * The results of a written plan with the database's time (`at`, the transaction's `now()`, which
 * the rows got) as the timestamps of every contact state the plan made: `updatedAt`, and
 * `createdAt` of a contact it created.
 */
export function withWriteTime(plan: UpsertPlan, found: Contact[], at: Date): ContactWrite[] {
  const read = new Set(found);
  const created = new Set(plan.inserts.map((c) => c.id));
  const stamped = new Map<Contact, Contact>();
  const stamp = (c: Contact): Contact => {
    if (read.has(c)) return c;
    let s = stamped.get(c);
    if (!s) stamped.set(c, (s = { ...c, createdAt: created.has(c.id) ? at : c.createdAt, updatedAt: at }));
    return s;
  };
  return plan.results.map((w) => ({ ...w, contact: stamp(w.contact) }));
}

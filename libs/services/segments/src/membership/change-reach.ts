import { EVERYTHING, readsAnyOf, touchedByCreation, unionOfTouched, type TouchedKeys } from '@herald/filters';
import type { SegmentReads } from './read-keys-index.js';

/*
 * Which contacts of a consumer round each dynamic segment must look at (MembershipEngine's
 * real-time re-evaluation): pure functions of the round's changes and what the segments read.
 */

/**
 * What changed about a contact: its row or engagement, with the keys it touched (`readKeysOf`'s
 * vocabulary; absent: everything), one tracked event (`event.<name>`), or its creation: from nothing
 * to what it holds, which is read after the re-evaluation's locks (`touchedByCreation`), so that an
 * event stored a moment before the contact, by a transaction that committed meanwhile, is counted.
 */
export type ContactChange =
  { kind: 'contact'; keys?: TouchedKeys } | { kind: 'event'; name: string } | { kind: 'created' };

/** The keys a change touched (a creation's: the built-in fields and what the contact holds). */
const touchedBy = (change: ContactChange, heldAfterCreation: Iterable<string> = []): TouchedKeys =>
  change.kind === 'event'
    ? new Set([`event.${change.name}`])
    : change.kind === 'created'
      ? touchedByCreation(heldAfterCreation)
      : (change.keys ?? EVERYTHING);

/** What a contact's changes in a round touched, together, and whether one of them was its creation. */
export interface ContactTouch {
  touched: TouchedKeys;
  created: boolean;
}

/** Each changed contact's touch: the union of its changes' keys (`held`: what each created contact holds). */
export function touchesOf(
  changes: { contactId: string; change: ContactChange }[],
  held: ReadonlyMap<string, readonly string[]>,
): Map<string, ContactTouch> {
  const out = new Map<string, ContactTouch>();
  for (const { contactId, change } of changes) {
    const touched = touchedBy(change, held.get(contactId));
    const before = out.get(contactId);
    out.set(contactId, {
      touched: before ? unionOfTouched([before.touched, touched]) : touched,
      created: (before?.created ?? false) || change.kind === 'created',
    });
  }
  return out;
}

/**
 * The contacts (in id order) each dynamic segment must look at: those whose changes touched a key it
 * reads, and the created ones when a contact holding nothing it reads may match it (the others answer
 * as at the contact's last change, or, new, as for a contact holding nothing: no). A segment no
 * contact reaches is left out. Contacts touched alike are decided together (most of a round's
 * contacts share a handful of touches: the same event name, the same changed field).
 */
export function reachOf(
  reads: ReadonlyMap<string, SegmentReads>,
  touches: ReadonlyMap<string, ContactTouch>,
): Map<string, string[]> {
  const alike = new Map<string, { touch: ContactTouch; contactIds: string[] }>();
  for (const contactId of [...touches.keys()].sort()) {
    const touch = touches.get(contactId)!;
    const signature = `${touch.created ? 1 : 0}${touch.touched === EVERYTHING ? '*' : [...touch.touched].sort().join('\u0000')}`;
    const group = alike.get(signature);
    if (group) group.contactIds.push(contactId);
    else alike.set(signature, { touch, contactIds: [contactId] });
  }
  const out = new Map<string, string[]>();
  for (const [segmentId, read] of reads) {
    const reached: string[] = [];
    for (const { touch, contactIds } of alike.values())
      if (readsAnyOf(read.keys, touch.touched) || (touch.created && read.matchesEmpty)) reached.push(...contactIds);
    if (reached.length > 0) out.set(segmentId, alike.size > 1 ? reached.sort() : reached);
  }
  return out;
}

import { IsIn, IsISO8601, IsString } from 'class-validator';
import { IsEmailAddress } from '../../email-address.js';
import { defineEvent } from '../../event-contract.js';
import { Topics } from '../../topics.js';

/** Why a contact entered or left a tracked segment. */
export const SEGMENT_MEMBERSHIP_REASONS = ['compute', 'change', 'sweep'] as const;
export type SegmentMembershipReason = (typeof SEGMENT_MEMBERSHIP_REASONS)[number];

/**
 * Payload of both `segment.entered` and `segment.exited`: one contact entering or leaving a
 * segment with `trackMembership` (docs/segments.md).
 * - `compute`: `POST /segments/:id/compute` (or a change of the segment's condition);
 * - `change`: the contact changed (data, subscription, an event, email engagement, deletion);
 * - `sweep`: time passed (the periodic sweep of `within`/`olderThan`/engagement windows).
 */
export class SegmentMembershipChangedV1 {
  @IsString() segmentId!: string;
  @IsString() segmentName!: string;
  @IsString() contactId!: string;
  @IsEmailAddress() email!: string;
  /** When the membership changed (ISO 8601). */
  @IsISO8601() at!: string;
  @IsIn(SEGMENT_MEMBERSHIP_REASONS) reason!: SegmentMembershipReason;
}

export const SegmentEntered = defineEvent({
  topic: Topics.SegmentEntered,
  version: 1,
  payload: SegmentMembershipChangedV1,
  key: (p) => p.contactId,
});

export const SegmentExited = defineEvent({
  topic: Topics.SegmentExited,
  version: 1,
  payload: SegmentMembershipChangedV1,
  key: (p) => p.contactId,
});

/** Longest slug of a segment's timeline event name (a segment name has at most 100 characters). */
const SLUG_MAX = 100;

/**
 * The slug of a segment name in its contacts' timeline event names (Plunk's convention): lower case,
 * accents dropped, every run of other characters than `a-z` and `0-9` one `-`, no `-` at either end.
 * A name with no such character (`"🚀"`, `"合同"`) has the segment id as its slug.
 */
export function segmentSlug(segmentName: string, segmentId: string): string {
  const slug = segmentName
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .slice(0, SLUG_MAX)
    .replace(/^-+|-+$/g, '');
  return slug || segmentId.toLowerCase();
}

/**
 * The name under which a contact's timeline shows `segment.entered` / `segment.exited`:
 * `segment.<slug>.entry` / `segment.<slug>.exit` (docs/contacts.md), the names workflows trigger on.
 * The slug is the segment's name when the event was published: renaming a segment changes the names
 * of its later entries and exits, not of those already recorded.
 */
export function segmentTimelineName(
  kind: 'entered' | 'exited',
  p: Pick<SegmentMembershipChangedV1, 'segmentId' | 'segmentName'>,
): string {
  return `segment.${segmentSlug(p.segmentName, p.segmentId)}.${kind === 'entered' ? 'entry' : 'exit'}`;
}

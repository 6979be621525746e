import { normaliseEmail } from '@herald/contact-data';
import {
  segmentTimelineName,
  Topics,
  type ContactSubscriptionChangedV1,
  type EmailLifecycleV1,
  type EmailReceivedV1,
  type EventEnvelope,
  type SegmentMembershipChangedV1,
} from '@herald/contracts';

/**
 * The names of the system events of a contact's timeline: what Herald records itself, from its own
 * topics. Workflows trigger on these names, so they are a public interface (docs/contacts.md): never
 * rename one. `/v1/track` refuses them (and every `email.*`, `segment.*` name).
 */
export const SYSTEM_EVENT_NAMES = [
  Topics.ContactSubscribed,
  Topics.ContactUnsubscribed,
  Topics.EmailSent,
  Topics.EmailDelivered,
  Topics.EmailOpened,
  Topics.EmailClicked,
  Topics.EmailBounced,
  Topics.EmailComplained,
  Topics.EmailFailed,
  Topics.EmailReceived,
] as const;

export type SystemEventName = (typeof SYSTEM_EVENT_NAMES)[number];

/** A segment's entry or exit on the timeline: `segment.<slug>.entry` / `segment.<slug>.exit` (segmentTimelineName). */
export type SegmentTimelineName = `segment.${string}.entry` | `segment.${string}.exit`;

const EMAIL_EVENTS: readonly string[] = SYSTEM_EVENT_NAMES.filter((n) => n.startsWith('email.'));

/** A system event about to enter a timeline; the contact is matched by id, else by address. */
export interface TimelineEntry {
  projectId: string;
  /** The envelope's eventId: one entry per source event, however often it is delivered. */
  sourceEventId: string;
  contactId?: string;
  email: string;
  name: SystemEventName | SegmentTimelineName;
  data: Record<string, unknown>;
  occurredAt: string;
}

/**
 * What an email event shows on the timeline: the email and what happened to it (a received one: its
 * inbound id, subject and what it answers), not the contact's address again.
 */
function emailData(p: EmailLifecycleV1 | EmailReceivedV1): Record<string, unknown> {
  const { contactId: _contactId, email: _email, ...rest } = p;
  return Object.fromEntries(Object.entries(rest).filter(([, v]) => v !== undefined && v !== null));
}

/**
 * The timeline entry of a subscription change, an email lifecycle event, a received message or a segment entry or exit
 * (under `segment.<slug>.entry|exit`, with the segment's id and name and the reason); undefined for any
 * other topic, and for an email event of test mode.
 */
export function timelineEntryOf(envelope: EventEnvelope): TimelineEntry | undefined {
  const base = { projectId: envelope.projectId, sourceEventId: envelope.eventId, occurredAt: envelope.occurredAt };
  if (envelope.type === Topics.ContactSubscribed || envelope.type === Topics.ContactUnsubscribed) {
    const p = envelope.payload as ContactSubscriptionChangedV1;
    return {
      ...base,
      contactId: p.contactId,
      email: normaliseEmail(p.email),
      name: envelope.type,
      data: p.reason ? { reason: p.reason } : {},
    };
  }
  if (envelope.type === Topics.SegmentEntered || envelope.type === Topics.SegmentExited) {
    const p = envelope.payload as SegmentMembershipChangedV1;
    return {
      ...base,
      contactId: p.contactId,
      email: normaliseEmail(p.email),
      name: segmentTimelineName(
        envelope.type === Topics.SegmentEntered ? 'entered' : 'exited',
        p,
      ) as SegmentTimelineName,
      data: { segmentId: p.segmentId, segmentName: p.segmentName, reason: p.reason },
      occurredAt: p.at,
    };
  }
  if (envelope.type === Topics.EmailReceived) {
    // from the contact (or, named by address only, from an address that may be one); none from a null sender
    const p = envelope.payload as EmailReceivedV1;
    if (!p.email) return undefined;
    return {
      ...base,
      ...(p.contactId ? { contactId: p.contactId } : {}),
      email: normaliseEmail(p.email),
      name: Topics.EmailReceived,
      data: emailData(p),
    };
  }
  if (EMAIL_EVENTS.includes(envelope.type)) {
    const p = envelope.payload as EmailLifecycleV1;
    // test mode (docs/test-mode.md): never relayed, it is no part of the contact's history
    if (p.testMode) return undefined;
    return {
      ...base,
      ...(p.contactId ? { contactId: p.contactId } : {}),
      email: normaliseEmail(p.email),
      name: envelope.type as SystemEventName,
      data: emailData(p),
    };
  }
  return undefined;
}

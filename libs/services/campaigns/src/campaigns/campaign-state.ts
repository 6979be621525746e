import type { CampaignStatus } from './campaign.entity.js';
import { CampaignErrors } from './campaign.errors.js';

/**
 * The campaign state machine (docs/campaigns.md, "States"), pure:
 *
 *   DRAFT ──send──▶ SENDING ──every ledger row final──▶ SENT
 *   DRAFT ──send {scheduledFor}──▶ SCHEDULED ──its time──▶ SENDING
 *   SCHEDULED ──send / send {scheduledFor}──▶ SENDING / SCHEDULED (rescheduled)
 *   SCHEDULED | SENDING ──cancel──▶ CANCELLED
 */

/** Statuses in which a campaign has active executions: delete is refused, its segment is in use. */
export const isActive = (s: CampaignStatus): boolean => s === 'SCHEDULED' || s === 'SENDING';

/** PUT replaces a DRAFT or SCHEDULED campaign only. */
export function assertEditable(s: CampaignStatus): void {
  if (s !== 'DRAFT' && s !== 'SCHEDULED')
    throw CampaignErrors.invalidState('change', s, 'Only a DRAFT or SCHEDULED campaign can be replaced.');
}

/** DELETE refuses an active campaign. */
export function assertDeletable(s: CampaignStatus): void {
  if (isActive(s)) throw CampaignErrors.active(s);
}

/**
 * `scheduledFor` of `POST /campaigns/:id/send`: an ISO 8601 instant (with a time zone) in the future,
 * or a 422 on `scheduledFor`.
 */
export function parseScheduledFor(raw: unknown, now: Date): Date {
  const iso = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})$/;
  const at = typeof raw === 'string' && iso.test(raw) ? new Date(raw) : null;
  if (!at || Number.isNaN(at.getTime()))
    throw CampaignErrors.field(
      'scheduledFor',
      'must be an ISO 8601 instant with a time zone, e.g. 2030-01-31T09:00:00Z',
      'invalid_string',
    );
  if (at.getTime() <= now.getTime()) throw CampaignErrors.field('scheduledFor', 'must be in the future', 'too_small');
  return at;
}

/** Where `POST /campaigns/:id/send` takes a campaign: SENDING now, or SCHEDULED at `scheduledFor`. */
export function sendTarget(s: CampaignStatus, scheduledFor: Date | undefined): 'SENDING' | 'SCHEDULED' {
  if (s !== 'DRAFT' && s !== 'SCHEDULED')
    throw CampaignErrors.invalidState(
      'send',
      s,
      s === 'SENDING' ? 'Wait for it, or cancel it.' : 'Duplicate the campaign to send its content again.',
    );
  return scheduledFor ? 'SCHEDULED' : 'SENDING';
}

/** `POST /campaigns/:id/cancel`: a SCHEDULED or SENDING campaign only. */
export function assertCancellable(s: CampaignStatus): void {
  if (!isActive(s))
    throw CampaignErrors.invalidState('cancel', s, 'Only a SCHEDULED or SENDING campaign can be cancelled.');
}

import { DomainError } from '@herald/core';
import type { Campaign } from '../campaigns/campaign.entity.js';
import { CampaignErrorCode, CampaignErrors } from '../campaigns/campaign.errors.js';
import type { IntakeItem, IntakeResult } from '../clients/sending-client.js';

/** `POST /campaigns/:id/test`'s answer: the test email, queued for delivery. */
export interface TestSendAnswer {
  success: true;
  email: string;
  status: 'queued';
  emailId: string;
}

/**
 * The intake item of a test send (docs/campaigns.md, "Test sends"): the campaign's content to the
 * address given, subject prefixed `[Test] `, marked `test` so sending delivers it whatever the
 * state of the address's contact (and renders it with that contact's data if there is one, with the
 * address alone otherwise). No contact snapshot (sending looks the address up and never creates a
 * contact), no `campaignId` (no ledger row, nothing counted in the campaign's stats), the normal lane.
 */
export function testSendItem(c: Campaign, email: string, key: string): IntakeItem {
  return {
    key,
    to: email,
    from: c.from,
    ...(c.fromName ? { fromName: c.fromName } : {}),
    ...(c.replyTo ? { replyTo: c.replyTo } : {}),
    subject: `[Test] ${c.subject}`.slice(0, 998),
    body: c.body,
    ...(c.templateId ? { templateId: c.templateId } : {}),
    category: 'marketing',
    origin: 'campaign',
    priority: 'normal',
    test: true,
  };
}

/**
 * What the caller is told of sending's answer: `queued` with the email's id; a suppressed address
 * (a hard bounce or a complaint) is a 422 `ADDRESS_SUPPRESSED` on `email` rather than a quiet skip,
 * since mailing it again hurts the sender's reputation; an address sending finds invalid a 422 on
 * `email`. A test is never skipped as unsubscribed: that answer means sending did not take the item
 * as a test, a fault of the deployment (an older sending during an upgrade), not of the request: a 503
 * to retry, never a 500.
 */
export function testSendAnswer(email: string, result: IntakeResult): TestSendAnswer {
  if (result.status === 'queued' && result.emailId)
    return { success: true, email, status: 'queued', emailId: result.emailId };
  if (result.reason === 'suppressed')
    throw CampaignErrors.field(
      'email',
      `${email} is on the suppression list (it hard-bounced or complained): sending to it again would hurt the sender's reputation`,
      CampaignErrorCode.AddressSuppressed,
    );
  if (result.reason === 'invalid_address') throw CampaignErrors.field('email', 'email must be a valid email address');
  throw new DomainError(
    'unavailable',
    'SENDING_UNAVAILABLE',
    `the sending service answered the test send ${result.status}${result.reason ? ` (${result.reason})` : ''}: it does not take test sends yet (a rolling upgrade in progress)`,
    { retryAfterSeconds: 30 },
  );
}

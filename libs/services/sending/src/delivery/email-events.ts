import { emailDomain } from '@herald/contact-data';
import { EmailSent, type EmailLifecycleV1, type EventEnvelope } from '@herald/contracts';
import { SENDING } from '../consumer.js';
import type { Email } from '../emails/email.entity.js';

/**
 * The email.* payload of one email, plus what the event adds (bounce type, reason, url, message id).
 * Campaign and workflow mail carry their campaignId / workflowId, so the callers' ledgers follow them;
 * test-mode mail carries `testMode: true`.
 */
export function emailEventPayload(
  email: Pick<Email, 'id' | 'contactId' | 'toEmail' | 'subject' | 'templateId' | 'origin'> &
    Partial<Pick<Email, 'campaignId' | 'workflowId' | 'testMode'>> & { fromEmail?: string },
  extra: Partial<EmailLifecycleV1> = {},
): EmailLifecycleV1 {
  const fromDomain = email.fromEmail ? emailDomain(email.fromEmail) : null;
  return {
    emailId: email.id,
    ...(email.contactId ? { contactId: email.contactId } : {}),
    email: email.toEmail,
    subject: email.subject,
    ...(email.templateId ? { templateId: email.templateId } : {}),
    origin: email.origin,
    ...(fromDomain ? { fromDomain } : {}),
    ...(email.campaignId ? { campaignId: email.campaignId } : {}),
    ...(email.workflowId ? { workflowId: email.workflowId } : {}),
    // test mode (docs/test-mode.md): consumers keeping live state skip it, webhooks forward it marked
    ...(email.testMode ? { testMode: true } : {}),
    ...extra,
  };
}

/** The `email.sent` of an email the relay took (or that counts as taken: a recorded hand-off). */
export function emailSentEvent(email: Email): EventEnvelope<EmailLifecycleV1> {
  return EmailSent.create({
    projectId: email.projectId,
    source: SENDING,
    payload: emailEventPayload(email, { messageId: email.messageId }),
  });
}

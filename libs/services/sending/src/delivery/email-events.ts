import type { EmailLifecycleV1 } from '@herald/contracts';
import type { Email } from '../emails/email.entity.js';

/** The email.* payload of one email, plus what the event adds (bounce type, reason, url, message id). */
export function emailEventPayload(email: Pick<Email, 'id' | 'contactId' | 'toEmail' | 'subject' | 'templateId' | 'origin'>, extra: Partial<EmailLifecycleV1> = {}): EmailLifecycleV1 {
  return {
    emailId: email.id,
    contactId: email.contactId,
    email: email.toEmail,
    subject: email.subject,
    ...(email.templateId ? { templateId: email.templateId } : {}),
    origin: email.origin,
    ...extra,
  };
}

import { IsString, MaxLength } from 'class-validator';
import { call, defineCalls } from '../call-contract.js';
import { parseIntakeRequest, type IntakeAnswer, type IntakeItem } from './intake-request.js';

/** An intake call: 1 to 500 emails, all or nothing (docs/sending.md, "Internal intake"). */
export interface IntakeRequest {
  items: IntakeItem[];
}

export class TemplateRequest {
  @IsString()
  @MaxLength(60)
  id!: string;
}

/** A template as other services need it at once. */
export interface TemplateSummary {
  id: string;
  name: string;
  type: 'marketing' | 'transactional';
  subject: string;
}

/**
 * What campaigns and workflows ask of sending at once: the intake of the emails they want sent
 * (each under a key that never makes a second email; problems named `items[i].<field>`), and a
 * template (a SEND_EMAIL step's must be the project's; its type decides the email's category).
 */
export const SendingCalls = defineCalls('sending', {
  // the sender's domain is decided by SenderDomains (its copy, or the owner while the copy may lag)
  intake: call<IntakeRequest, IntakeAnswer>({
    parse: (raw) => {
      const parsed = parseIntakeRequest(raw);
      return parsed.length > 0 && 'key' in parsed[0]!
        ? { ok: true, value: { items: parsed as IntakeItem[] } }
        : { ok: false, problems: parsed as { field: string; message: string; code: string }[] };
    },
    observes: ['gateway'],
    errors: ['BILLING_LIMIT_EXCEEDED', 'PROJECT_SENDING_SUSPENDED', 'TEMPLATE_NOT_FOUND'],
    timeoutMs: 60_000,
  }),
  template: call<TemplateRequest, TemplateSummary>({ request: TemplateRequest, errors: ['TEMPLATE_NOT_FOUND'] }),
});

import type { EmailSource, RenderedEmail } from '../render/email-renderer.js';
import { isTestModeEmail } from '../sandbox/sandbox-outcomes.js';
import type { RecipientUpsert } from './contacts-client.js';
import type { Mailbox, SendRequest } from './send-request.js';
import type { PlannedRecipient } from './send-recipients.js';
import type { SendWrite } from './send-writes.js';

/** What every recipient's email is rendered from: the request's fields over the template's. */
export interface Content extends EmailSource {
  from: Mailbox;
  replyTo?: string | undefined;
  templateId?: string | undefined;
}

/** A recipient planned and rendered by the preflight, before anything is written. */
export interface Draft {
  plan: PlannedRecipient;
  emailId: string;
  rendered: RenderedEmail;
}

/** A request whose preflight passed: what its writes need. */
export interface PreparedSend {
  request: SendRequest;
  content: Content;
  drafts: Draft[];
  suppressed: Set<string>;
  traceparent: string | undefined;
  /** Sent with a test key (`sk_test_…`): every email of test mode, no contact written (docs/test-mode.md). */
  testKey: boolean;
}

/** The contact upserts of a prepared request, one per recipient, in order. */
export function upsertsOf({ request, drafts }: PreparedSend): RecipientUpsert[] {
  return drafts.map(({ plan }) => ({
    email: plan.recipient.email,
    subscribed: request.subscribed,
    data: request.data,
    ...(plan.isNew ? { idIfNew: plan.contact.id } : {}),
  }));
}

/**
 * What prepared requests ask of SendWrites: admission for their live emails only (test mode is not
 * billed: a test key's, and a sandbox address's with any key), and their contacts upserted in order;
 * with a test key none is written (test mode changes no live data), each email composed for its
 * contact as planned.
 */
export function writesOf(prepared: PreparedSend[]): Pick<SendWrite<unknown>, 'count' | 'upserts' | 'simulated'> {
  const count = prepared.reduce(
    (n, p) => n + p.drafts.filter((d) => !isTestModeEmail(p.testKey, d.plan.recipient.email)).length,
    0,
  );
  if (prepared.every((p) => !p.testKey)) return { count, upserts: prepared.flatMap(upsertsOf) };
  return {
    count,
    upserts: [],
    simulated: prepared.flatMap(({ drafts }) =>
      drafts.map(({ plan }) => ({
        contact: plan.contact,
        created: plan.isNew,
        changedKeys: [],
        transient: plan.transient,
        duplicate: false,
      })),
    ),
  };
}

import {
  EmailBounced,
  EmailComplained,
  EmailDelivered,
  EmailFailed,
  type EmailLifecycleV1,
  type EventEnvelope,
} from '@herald/contracts';
import { SENDING } from '../consumer.js';
import type { EmailHistory } from '../emails/email-history.js';
import { deliveryMetrics } from './delivery-metrics.js';
import { retryDelayMs, type Outcome, type OutcomeKind } from './delivery-outcome.js';
import type { DeliveryStore, OutcomeWrites, StatusWrite } from './delivery-store.js';
import { emailEventPayload, emailSentEvent } from './email-events.js';

/** What a batch's outcomes write: the rows' new states, the suppressions, and the events (`email.sent|bounced|failed`). */
export interface OutcomeRecord {
  writes: OutcomeWrites;
  events: EventEnvelope<EmailLifecycleV1>[];
}

/**
 * Decides what a batch's outcomes write: `sent` (with the detail kept when the relay's answer was
 * lost), `suppressed`, `failed`, `bounced` (the address suppressed), `retry` (back to the queue after
 * `retryDelayMs` of the email's attempts); events for the sent, the bounced and the failed.
 * `simulated` (test mode, docs/test-mode.md) writes what the relay's answer and its later notices
 * would, at once: delivered is sent then delivered (`email.sent`, `email.delivered`), complained is
 * that and a complaint (`email.complained`), bounced is a hard bounce (`email.bounced`, permanent)
 * that suppresses nothing: a test must not spoil the live suppression list. Their events say `testMode`.
 */
export function outcomeRecord(outcomes: Outcome[], retryBaseMs: number): OutcomeRecord {
  const byKind = <K extends OutcomeKind>(k: K) => outcomes.filter((o): o is Outcome & { kind: K } => o.kind === k);
  const status = (os: Outcome[]): StatusWrite => ({
    ids: os.map((o) => o.email.id),
    details: os.map((o) => o.detail ?? null),
  });
  const sent = byKind('sent');
  const bounced = byKind('bounced');
  const failed = byKind('failed');
  const retry = byKind('retry');
  const simulated = byKind('simulated');
  const simulatedAs = (...s: string[]) => simulated.filter((o) => s.includes(o.simulation));
  const reached = simulatedAs('delivered', 'complained');
  const complained = simulatedAs('complained');
  const simulatedBounces = simulatedAs('bounced');
  const event = (o: Outcome, create: typeof EmailDelivered.create, extra: Partial<EmailLifecycleV1> = {}) =>
    create({ projectId: o.email.projectId, source: SENDING, payload: emailEventPayload(o.email, extra) });
  return {
    writes: {
      sent: status([...sent, ...reached]),
      delivered: reached.map((o) => o.email.id),
      complained: complained.map((o) => o.email.id),
      ended: (['suppressed', 'failed', 'bounced'] as const)
        .map((kind) => ({
          status: kind,
          ...status(kind === 'bounced' ? [...bounced, ...simulatedBounces] : byKind(kind)),
        }))
        .filter((w) => w.ids.length > 0),
      retry: { ...status(retry), delaysMs: retry.map((o) => retryDelayMs(o.email.attempts, retryBaseMs)) },
      suppress: bounced.map((o) => ({ projectId: o.email.projectId, email: o.email.toEmail, detail: o.detail })),
    },
    events: [
      ...sent.map((o) => emailSentEvent(o.email)),
      ...bounced.map((o) =>
        EmailBounced.create({
          projectId: o.email.projectId,
          source: SENDING,
          payload: emailEventPayload(o.email, { bounceType: 'permanent', reason: o.detail }),
        }),
      ),
      ...failed.map((o) =>
        EmailFailed.create({
          projectId: o.email.projectId,
          source: SENDING,
          payload: emailEventPayload(o.email, { reason: o.detail }),
        }),
      ),
      ...reached.flatMap((o) => [
        emailSentEvent(o.email),
        event(o, EmailDelivered.create),
        ...(o.simulation === 'complained' ? [event(o, EmailComplained.create)] : []),
      ]),
      ...simulatedBounces.map((o) =>
        event(o, EmailBounced.create, { bounceType: 'permanent', ...(o.detail ? { reason: o.detail } : {}) }),
      ),
    ],
  };
}

/** Records a batch's outcomes: the emails' new states and their events, in one transaction. */
export class OutcomeRecorder {
  constructor(
    private readonly store: Pick<DeliveryStore, 'transaction' | 'applyOutcomes'>,
    private readonly history: Pick<EmailHistory, 'publish'>,
    private readonly retryBaseMs: number,
  ) {}

  async record(outcomes: Outcome[]): Promise<void> {
    await this.store.transaction(async (m) => {
      const { writes, events } = outcomeRecord(outcomes, this.retryBaseMs);
      await this.store.applyOutcomes(m, writes);
      await this.history.publish(m, events);
    });
    for (const o of outcomes) deliveryMetrics.outcomes.inc({ outcome: o.kind });
  }
}

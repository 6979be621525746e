import { DomainError, SpanKind, withSpan } from '@herald/core';
import type { Email } from '../emails/email.entity.js';
import type { DkimKey, SenderDomains } from '../senders/sender-domains.js';
import type { Lane } from './delivery-lanes.js';
import { afterRelayFailure, retryOrGiveUp, simulatedOutcome, type Outcome } from './delivery-outcome.js';
import { suppressionKey, type DeliveryStore } from './delivery-store.js';
import { HandoffWriter } from './handoff-writer.js';
import { SmtpRelay } from './smtp-relay.js';

/** An email ready for the relay (its signed message), or already decided without it. */
type Prepared =
  { email: Email; raw: Buffer; outcome?: undefined } | { email: Email; raw?: undefined; outcome: Outcome };

/**
 * Delivers one claimed batch through the relay and says what became of each email: suppressed
 * addresses are skipped, each message is signed with its sender domain's DKIM key (one look-up per
 * project and domain of the batch), and each hand-off is recorded just before the final dot.
 * Test-mode emails (docs/test-mode.md) never reach the relay: their outcome is simulated. Without a
 * relay (`relay` null, no SMTP_URL) the worker claims only those.
 */
export class BatchDelivery {
  private readonly handoffs: HandoffWriter;

  constructor(
    private readonly relay: Pick<SmtpRelay, 'compose' | 'deliver' | 'composesOffThread'> | null,
    private readonly store: Pick<DeliveryStore, 'suppressedOf' | 'recordHandoffs'>,
    private readonly senders: Pick<SenderDomains, 'signingKey'>,
    private readonly maxAttempts: number,
  ) {
    this.handoffs = new HandoffWriter(store);
  }

  async deliver(batch: Email[], lane: Lane): Promise<Outcome[]> {
    const suppressed = await this.store.suppressedOf(batch);
    // a normal batch (small) is composed and signed first, so that while its messages are on the
    // wire the event loop is free and the step from a recorded hand-off to the final dot is short
    const keys = new Map<string, Promise<DkimKey | null>>(); // one lookup per project and sender domain of the batch
    const keyOf = (email: Email) => {
      const id = `${email.projectId}\u0000${email.fromEmail.slice(email.fromEmail.lastIndexOf('@') + 1)}`;
      if (!keys.has(id)) keys.set(id, this.senders.signingKey(email.projectId, email.fromEmail));
      return keys.get(id)!;
    };
    const prepareOne = (email: Email) =>
      this.prepare(email, suppressed.has(suppressionKey(email.projectId, email.toEmail)), keyOf);
    const send = (p: Prepared) => (p.raw ? this.deliverOne(p.email, p.raw) : Promise.resolve(p.outcome));
    let sending: Promise<Outcome>[];
    if (!this.relay || this.relay.composesOffThread)
      // compose threads leave the event loop free: every message of the batch is composed at
      // once, each handed to the pool as soon as it is signed
      sending = batch.map((email) => prepareOne(email).then(send));
    else if (lane === 'normal') sending = (await Promise.all(batch.map(prepareOne))).map(send);
    else {
      // composing on the event loop, a bulk batch is composed one message at a time, each handed
      // to the pool as soon as it is signed, with a turn of the event loop between messages: a
      // hundred compositions at once would keep the loop busy for the whole batch, and a /v1/send
      // request or a normal-lane hand-off would wait behind all of them
      sending = [];
      for (const email of batch) {
        sending.push(send(await prepareOne(email)));
        await new Promise((resolve) => setImmediate(resolve));
      }
    }
    return Promise.all(sending);
  }

  private async prepare(
    email: Email,
    suppressed: boolean,
    keyOf: (email: Email) => Promise<DkimKey | null>,
  ): Promise<Prepared> {
    if (suppressed)
      return { email, outcome: { email, kind: 'suppressed', detail: 'The address is on the suppression list' } };
    // test mode: rendered and stored, never handed to a relay; the sandbox address chooses the outcome
    if (email.testMode) return { email, outcome: simulatedOutcome(email) };
    const relay = this.relay;
    if (!relay)
      // not claimed without a relay (DeliveryStore.claim's testModeOnly): back to the queue if ever
      return { email, outcome: { email, kind: 'retry', detail: 'No SMTP relay is configured (SMTP_URL)' } };
    let dkim: DkimKey | null;
    try {
      dkim = await keyOf(email);
    } catch (err) {
      // the local copy does not know the domain and the domains service cannot be asked now: later
      if (!(err instanceof DomainError && err.kind === 'unavailable')) throw err;
      const detail = `The sender domain could not be checked: ${err.message}`;
      return { email, outcome: retryOrGiveUp(email, detail, this.maxAttempts) };
    }
    try {
      if (!dkim)
        return {
          email,
          outcome: { email, kind: 'failed', detail: `The sender domain of ${email.fromEmail} is no longer verified` },
        };
      const raw = await relay.compose(
        {
          messageId: email.messageId,
          from: { email: email.fromEmail, name: email.fromName },
          to: { email: email.toEmail, name: email.toName },
          replyTo: email.replyTo,
          subject: email.subject,
          html: email.html,
          text: email.text,
          headers: email.headers,
          attachments: email.attachments,
        },
        dkim,
        email.priority <= 0,
      );
      return { email, raw };
    } catch (err) {
      return {
        email,
        outcome: { email, kind: 'failed', detail: `The message could not be composed: ${(err as Error).message}` },
      };
    }
  }

  /**
   * An email queued by a traced request or event is handed off in an `smtp send` span, a child of
   * that trace (ADR 0019; its `traceparent` column); others without a span.
   */
  private deliverOne(email: Email, raw: Buffer): Promise<Outcome> {
    if (!email.traceparent) return this.handOff(email, raw);
    return withSpan(
      'smtp send',
      {
        kind: SpanKind.CLIENT,
        parent: email.traceparent,
        attributes: {
          'herald.email_id': email.id,
          'herald.project_id': email.projectId,
          'herald.attempt': email.attempts,
        },
      },
      async (span) => {
        const outcome = await this.handOff(email, raw);
        span?.setAttribute('herald.delivery.outcome', outcome.kind);
        if (outcome.kind !== 'sent' && outcome.kind !== 'suppressed')
          span?.setStatus({ code: 2, message: outcome.detail });
        return outcome;
      },
    );
  }

  private async handOff(email: Email, raw: Buffer): Promise<Outcome> {
    let handedOff = false;
    try {
      const answer = await this.relay!.deliver(
        { from: email.fromEmail, to: email.toEmail },
        raw,
        async () => {
          await this.handoffs.record(email.id);
          handedOff = true;
        },
        email.priority <= 0,
      );
      return { email, kind: 'sent', detail: answer.response };
    } catch (err) {
      const kind = SmtpRelay.classify(err, handedOff);
      return afterRelayFailure(email, kind, (err as Error).message, this.maxAttempts);
    }
  }
}

import { backoffDelay } from '@herald/core';
import type { Email } from '../emails/email.entity.js';
import { SIMULATED_BOUNCE, simulatedDelivery, type Simulation } from '../sandbox/sandbox-outcomes.js';
import type { FailureKind } from './smtp-relay.js';

/**
 * What became of one email in a batch, applied together at the end of the batch (OutcomeRecorder).
 * `simulated`: a test-mode email (docs/test-mode.md), never handed to a relay, given the outcome its
 * sandbox address chooses.
 */
export type Outcome =
  | { email: Email; kind: 'sent'; detail?: string }
  | { email: Email; kind: 'suppressed' | 'failed' | 'retry'; detail: string }
  | { email: Email; kind: 'bounced'; detail: string }
  | { email: Email; kind: 'simulated'; simulation: Simulation; detail?: string };

export type OutcomeKind = Outcome['kind'];

/** The outcome of a test-mode email: what its recipient chooses (a sandbox address), delivered otherwise; no relay is called. */
export function simulatedOutcome(email: Email): Outcome {
  const simulation = simulatedDelivery(email.toEmail);
  return simulation === 'bounced'
    ? { email, kind: 'simulated', simulation, detail: SIMULATED_BOUNCE }
    : { email, kind: 'simulated', simulation };
}

/** A problem worth another attempt: retried, unless this was the last attempt allowed. */
export function retryOrGiveUp(email: Email, detail: string, maxAttempts: number): Outcome {
  return email.attempts >= maxAttempts
    ? { email, kind: 'failed', detail: `Gave up after ${email.attempts} attempts: ${detail}` }
    : { email, kind: 'retry', detail };
}

/**
 * What an SMTP failure (`SmtpRelay.classify`) makes of the email: a permanent answer bounces; a
 * failure after the recorded hand-off counts as sent, never resent; anything else is retried.
 */
export function afterRelayFailure(email: Email, kind: FailureKind, message: string, maxAttempts: number): Outcome {
  if (kind === 'permanent') return { email, kind: 'bounced', detail: message };
  if (kind === 'in-doubt')
    return {
      email,
      kind: 'sent',
      detail: `The relay's answer was lost after the hand-off; counted as sent, never resent: ${message}`,
    };
  return retryOrGiveUp(email, message, maxAttempts);
}

/**
 * The wait before the next attempt: `baseMs × 2^(attempts-1)`, at most an hour, with equal jitter
 * (between half and all of it: emails that failed together do not all come back at once).
 */
export function retryDelayMs(attempts: number, baseMs: number, random: () => number = Math.random): number {
  return backoffDelay(attempts, { baseMs, maxMs: 3_600_000, random });
}

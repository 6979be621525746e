import { createLogger } from '@herald/core';
import type { EmailHistory } from '../emails/email-history.js';
import { Cadence, type Clock } from './cadence.js';
import { deliveryMetrics } from './delivery-metrics.js';
import type { DeliveryStore } from './delivery-store.js';
import { emailSentEvent } from './email-events.js';

const log = createLogger('sending.delivery');

/** How often expired leases are looked for: twice per lease, at least every 5 seconds. */
export function recoveryPeriodMs(leaseMs: number): number {
  return Math.min(5000, leaseMs / 2);
}

/**
 * Emails of a stopped worker (their lease expired): back to the queue, or sent (`email.sent`) when
 * their hand-off was recorded. Looked for at the start, then every `recoveryPeriodMs`.
 */
export class LeaseRecovery {
  private readonly cadence: Cadence;

  constructor(
    private readonly store: Pick<DeliveryStore, 'transaction' | 'recoverExpired'>,
    private readonly history: Pick<EmailHistory, 'publish'>,
    leaseMs: number,
    clock?: Clock,
  ) {
    this.cadence = new Cadence(recoveryPeriodMs(leaseMs), clock);
  }

  /** Recovers when due (a failed recovery waits its period too). */
  async recoverIfDue(): Promise<void> {
    if (this.cadence.due()) await this.recover();
  }

  async recover(): Promise<void> {
    await this.store.transaction(async (m) => {
      const { requeued, sent } = await this.store.recoverExpired(m);
      if (requeued + sent.length > 0) {
        log.info('recovered emails of a stopped worker', { requeued, sent: sent.length });
        deliveryMetrics.recovered.inc({ as: 'requeued' }, requeued);
        deliveryMetrics.recovered.inc({ as: 'sent' }, sent.length);
      }
      await this.history.publish(m, sent.map(emailSentEvent));
    });
  }
}

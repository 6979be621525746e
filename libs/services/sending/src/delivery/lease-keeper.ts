import { createLogger } from '@herald/core';
import type { DeliveryStore } from './delivery-store.js';

const log = createLogger('sending.delivery');

/** Calls `tick` every `ms` until stopped (a test injects its own). */
export type Ticker = (ms: number, tick: () => void) => () => void;

/** `setInterval`, not keeping the process alive. */
export const intervalTicker: Ticker = (ms, tick) => {
  const timer = setInterval(tick, ms);
  timer.unref();
  return () => clearInterval(timer);
};

/** How often leases are renewed: three times per lease, at most twice a second. */
export function leaseRenewalPeriodMs(leaseMs: number): number {
  return Math.max(500, Math.floor(leaseMs / 3));
}

/**
 * Keeps the leases of the emails in flight (claimed, not yet recorded) from expiring: renews them
 * all every `leaseRenewalPeriodMs` while started. A renewal that fails is logged; the next one tries again.
 */
export class LeaseKeeper {
  private readonly held = new Set<string>();
  private stopTicking?: () => void;

  constructor(
    private readonly store: Pick<DeliveryStore, 'renewLeases'>,
    private readonly leaseMs: number,
    private readonly ticker: Ticker = intervalTicker,
  ) {}

  start(): void {
    this.stopTicking ??= this.ticker(leaseRenewalPeriodMs(this.leaseMs), () => void this.renew());
  }

  stop(): void {
    this.stopTicking?.();
    this.stopTicking = undefined;
  }

  hold(ids: string[]): void {
    for (const id of ids) this.held.add(id);
  }

  release(ids: string[]): void {
    for (const id of ids) this.held.delete(id);
  }

  async renew(): Promise<void> {
    if (this.held.size === 0) return;
    try {
      await this.store.renewLeases([...this.held], this.leaseMs);
    } catch (err) {
      log.warn('could not renew delivery leases', { error: (err as Error).message });
    }
  }
}

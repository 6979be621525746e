import type { DeliveryStore } from './delivery-store.js';

/**
 * Records hand-offs (`handoff_at`, just before a message's final dot): those of concurrent sends
 * are written together, one UPDATE per event-loop turn. Each caller's promise settles with its statement.
 */
export class HandoffWriter {
  private pending: { id: string; resolve: () => void; reject: (err: Error) => void }[] = [];

  constructor(private readonly store: Pick<DeliveryStore, 'recordHandoffs'>) {}

  record(id: string): Promise<void> {
    return new Promise((resolve, reject) => {
      this.pending.push({ id, resolve, reject });
      if (this.pending.length === 1) setImmediate(() => void this.flush());
    });
  }

  private async flush(): Promise<void> {
    const pending = this.pending;
    this.pending = [];
    try {
      await this.store.recordHandoffs(pending.map((p) => p.id));
      for (const p of pending) p.resolve();
    } catch (err) {
      for (const p of pending) p.reject(err as Error);
    }
  }
}

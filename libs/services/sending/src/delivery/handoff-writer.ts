import type { DeliveryStore } from './delivery-store.js';

interface Pending {
  id: string;
  resolve: () => void;
  reject: (err: Error) => void;
}

/**
 * Records hand-offs (`handoff_at`, just before a message's final dot): those of concurrent sends
 * are written together, one UPDATE at a time. The hand-offs asked in one event-loop turn go in one
 * statement; those asked while it is being written wait for it and go together in the next, so the
 * slower the database answers, the more each statement carries (one round trip per email under a
 * campaign otherwise). Each caller's promise settles with its statement.
 */
export class HandoffWriter {
  private pending: Pending[] = [];
  private writing = false;

  constructor(private readonly store: Pick<DeliveryStore, 'recordHandoffs'>) {}

  record(id: string): Promise<void> {
    return new Promise((resolve, reject) => {
      this.pending.push({ id, resolve, reject });
      if (!this.writing && this.pending.length === 1) setImmediate(() => void this.flush());
    });
  }

  private async flush(): Promise<void> {
    this.writing = true;
    while (this.pending.length > 0) {
      const pending = this.pending;
      this.pending = [];
      try {
        await this.store.recordHandoffs(pending.map((p) => p.id));
        for (const p of pending) p.resolve();
      } catch (err) {
        for (const p of pending) p.reject(err as Error);
      }
    }
    this.writing = false;
  }
}

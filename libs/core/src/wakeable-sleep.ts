/**
 * A sleep that something else can cut short: the poll loops of outbox relays and job queues wait
 * for their interval or until a NOTIFY (or a stop) wakes them, whichever comes first.
 */
export class WakeableSleep {
  private wakeUp?: () => void;

  sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        if (this.wakeUp === done) this.wakeUp = undefined;
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.wakeUp = done;
    });
  }

  wake(): void {
    this.wakeUp?.();
  }
}

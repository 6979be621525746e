/**
 * A sleep that something else can cut short: the poll loops of outbox relays and job queues wait
 * for their interval or until a NOTIFY, a local commit (or a stop) wakes them, whichever comes
 * first. A wake that arrives while nobody sleeps — the loop is busy with the previous round — is
 * kept, and the next sleep returns at once: what woke it was committed after that round had read.
 */
export class WakeableSleep {
  private wakeUp?: () => void;
  private woken = false;

  sleep(ms: number): Promise<void> {
    if (this.woken) {
      this.woken = false;
      return Promise.resolve();
    }
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
    if (this.wakeUp) this.wakeUp();
    else this.woken = true;
  }
}

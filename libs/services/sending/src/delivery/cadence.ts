/** A clock in milliseconds (`Date.now` unless a test injects its own). */
export type Clock = () => number;

/**
 * When a periodic chore is due: the first time it is asked, then each time more than `periodMs`
 * has passed since it last said so. Saying so counts as done, so a chore that fails waits its period.
 */
export class Cadence {
  private last = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly periodMs: number,
    private readonly clock: Clock = Date.now,
  ) {}

  due(): boolean {
    const now = this.clock();
    if (now - this.last <= this.periodMs) return false;
    this.last = now;
    return true;
  }
}

export interface MicroBatcherOptions {
  /** Items handed to one run at most. */
  maxBatch: number;
  /** Runs in flight at once; items submitted while every slot is busy wait and go together in the next run. */
  maxConcurrent: number;
}

/**
 * Group execution ("group commit"): items submitted while earlier runs are in flight are collected
 * and handed to the next run together, so N concurrent callers cost a few round trips instead of N.
 * When idle an item waits at most one event-loop turn (`setImmediate`), so a lone caller is not
 * slowed. Every item is given to a run that starts after it was submitted: a run never answers
 * from work begun before its caller asked (a lookup stays as fresh as an unbatched one).
 *
 * `run` answers one settled result per item, in order, so one item's failure is its own; a run
 * that throws fails every item it was given.
 */
export class MicroBatcher<T, R> {
  private pending: { item: T; resolve: (r: R) => void; reject: (err: unknown) => void }[] = [];
  private running = 0;
  private scheduled = false;

  constructor(
    private readonly run: (items: T[]) => Promise<PromiseSettledResult<R>[]>,
    private readonly options: MicroBatcherOptions,
  ) {}

  submit(item: T): Promise<R> {
    return new Promise<R>((resolve, reject) => {
      this.pending.push({ item, resolve, reject });
      this.pump();
    });
  }

  private pump(): void {
    if (this.scheduled || this.running >= this.options.maxConcurrent || this.pending.length === 0) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      if (this.running >= this.options.maxConcurrent || this.pending.length === 0) return;
      const batch = this.pending.splice(0, this.options.maxBatch);
      this.running++;
      void this.execute(batch).finally(() => {
        this.running--;
        this.pump();
      });
      this.pump();
    });
  }

  private async execute(batch: MicroBatcher<T, R>['pending']): Promise<void> {
    let results: PromiseSettledResult<R>[];
    try {
      results = await this.run(batch.map((p) => p.item));
      if (results.length !== batch.length)
        throw new Error(`a batch run answered ${results.length} results for ${batch.length} items`);
    } catch (err) {
      for (const p of batch) p.reject(err);
      return;
    }
    batch.forEach((p, i) => {
      const r = results[i]!;
      if (r.status === 'fulfilled') p.resolve(r.value);
      else p.reject(r.reason);
    });
  }
}

/** Settles `fn` as a PromiseSettledResult (for `MicroBatcher` runs that fall back to one item at a time). */
export async function settle<R>(fn: () => Promise<R>): Promise<PromiseSettledResult<R>> {
  try {
    return { status: 'fulfilled', value: await fn() };
  } catch (reason) {
    return { status: 'rejected', reason };
  }
}

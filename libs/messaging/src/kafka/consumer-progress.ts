/**
 * How far this process's Kafka consumers have applied each partition, and which partitions their
 * group gave them: the Kafka transport reports each applied chunk (after its transaction committed)
 * and each assignment; read-your-writes waits on it (KafkaCatchUp).
 */
export class ConsumerProgress {
  /** `consumer\0topic\0partition` → the next offset to apply (the last applied + 1). */
  private readonly next = new Map<string, number>();
  private readonly assigned = new Map<string, Set<string>>();
  private waiters: (() => void)[] = [];

  /** The chunk up to `offset` (inclusive) of the partition was applied. */
  applied(consumer: string, topic: string, partition: number, offset: string | number): void {
    const key = `${consumer}\u0000${topic}\u0000${partition}`;
    const n = Number(offset) + 1;
    if (!(n <= (this.next.get(key) ?? -1))) this.next.set(key, n);
    const waiters = this.waiters;
    this.waiters = [];
    for (const wake of waiters) wake();
  }

  /** The consumer's group assigned it these partitions (a join or rebalance), replacing the earlier ones. */
  assign(consumer: string, assignment: Record<string, number[]>): void {
    this.assigned.set(
      consumer,
      new Set(Object.entries(assignment).flatMap(([topic, partitions]) => partitions.map((p) => `${topic}\u0000${p}`))),
    );
  }

  /** The next offset this process will apply in the partition, if it applied any of it since it started. */
  nextOf(consumer: string, topic: string, partition: number): number | undefined {
    return this.next.get(`${consumer}\u0000${topic}\u0000${partition}`);
  }

  isAssigned(consumer: string, topic: string, partition: number): boolean {
    return this.assigned.get(consumer)?.has(`${topic}\u0000${partition}`) ?? false;
  }

  /** Resolves at the next applied chunk (of any partition). */
  changed(): Promise<void> {
    return new Promise((resolve) => this.waiters.push(resolve));
  }
}

import type { Admin, Kafka } from 'kafkajs';
import type { ConsumerProgress } from './consumer-progress.js';
import { consumerGroupId } from './kafka-event.server.js';

interface Target {
  topic: string;
  partition: number;
  /** The partition's end offset when asked: every message below it must be applied. */
  end: number;
}

/** How often partitions applied by another replica of the consumer's group are checked at the broker. */
const REMOTE_POLL_MS = 25;

/**
 * Distributed mode's half of read-your-writes: once a producer's relay has published a project's
 * events, they are below each partition's end offset; this waits until the consumer's group has
 * applied every partition of the given topics up to the end offsets read now. Partitions this
 * process consumes are followed as it applies them ({@link ConsumerProgress}); the others (another
 * replica's, or one this process has not touched since it started) through the group's committed
 * offsets at the broker. The end offsets include other projects' later events: a consumer that keeps
 * up is at them within a few milliseconds.
 */
export class KafkaCatchUp {
  private admin?: Promise<Admin>;

  constructor(
    private readonly kafka: Kafka,
    private readonly progress: ConsumerProgress,
    private readonly groupPrefix: string,
  ) {}

  /** True once `consumer` has applied every partition of `topics` up to their end offsets now; false at `deadline`. */
  async await(consumer: string, topics: readonly string[], deadline: number): Promise<boolean> {
    if (topics.length === 0) return true;
    const admin = await beforeDeadline(this.connect(), deadline);
    if (!admin) return false;
    const ends = await beforeDeadline(Promise.all(topics.map((t) => this.endOffsets(admin, t))), deadline);
    if (!ends) return false;
    let pending = ends.flat();
    for (;;) {
      pending = pending.filter((t) => !((this.progress.nextOf(consumer, t.topic, t.partition) ?? -1) >= t.end));
      // partitions this process is not applying, or has not applied since it started: the broker knows
      const unseen = pending.filter(
        (t) =>
          !this.progress.isAssigned(consumer, t.topic, t.partition) ||
          this.progress.nextOf(consumer, t.topic, t.partition) === undefined,
      );
      if (unseen.length > 0) {
        // the broker may take long to answer (a group rebalancing): never past the deadline
        const behind = await beforeDeadline(this.notCommitted(admin, consumer, unseen), deadline);
        if (behind) pending = pending.filter((t) => !unseen.includes(t) || behind.includes(t));
      }
      if (pending.length === 0) return true;
      const left = deadline - Date.now();
      if (left <= 0) return false;
      const local = pending.every((t) => this.progress.isAssigned(consumer, t.topic, t.partition));
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, Math.min(left, local ? 1000 : REMOTE_POLL_MS));
        void this.progress.changed().then(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  async close(): Promise<void> {
    const admin = this.admin;
    this.admin = undefined;
    await (await admin?.catch(() => undefined))?.disconnect();
  }

  private connect(): Promise<Admin> {
    this.admin ??= (async () => {
      const admin = this.kafka.admin();
      try {
        await admin.connect();
      } catch (err) {
        this.admin = undefined;
        throw err;
      }
      return admin;
    })();
    return this.admin;
  }

  /** The topic's non-empty partitions with their end offsets; none for a topic nobody has published yet. */
  private async endOffsets(admin: Admin, topic: string): Promise<Target[]> {
    try {
      const offsets = await admin.fetchTopicOffsets(topic);
      return offsets
        .map((o) => ({ topic, partition: o.partition, end: Number(o.high), start: Number(o.low) }))
        .filter((o) => o.end > o.start)
        .map(({ topic: t, partition, end }) => ({ topic: t, partition, end }));
    } catch (err) {
      if ((err as { type?: string }).type === 'UNKNOWN_TOPIC_OR_PARTITION') return [];
      throw err;
    }
  }

  /** The targets whose group's committed offset at the broker has not reached their end. */
  private async notCommitted(admin: Admin, consumer: string, targets: Target[]): Promise<Target[]> {
    const topics = [...new Set(targets.map((t) => t.topic))];
    const committed = await admin.fetchOffsets({ groupId: consumerGroupId(this.groupPrefix, consumer), topics });
    const at = new Map<string, number>();
    for (const t of committed) for (const p of t.partitions) at.set(`${t.topic}\u0000${p.partition}`, Number(p.offset));
    return targets.filter((t) => !((at.get(`${t.topic}\u0000${t.partition}`) ?? -1) >= t.end));
  }
}

/** The promise's value, or undefined once `deadline` (epoch ms) passes first (its work goes on, ignored). */
async function beforeDeadline<T>(promise: Promise<T>, deadline: number): Promise<T | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), Math.max(0, deadline - Date.now()));
  });
  try {
    return await Promise.race([promise, late]);
  } finally {
    clearTimeout(timer);
    promise.catch(() => undefined);
  }
}

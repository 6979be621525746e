/**
 * What a full replay (scenario 4 of issue 44) does to the Kafka cluster while every service is
 * stopped: each consumer group's committed offsets put back to the start of their partitions, and a
 * share of every topic's messages produced again (same partition, key, value and headers: the same
 * event delivered twice). Built on what librdkafka's mock cluster implements: it has no
 * ListGroups/DescribeGroups, so the groups are Herald's own (`<prefix>-<service>`) and an offset is
 * reset by a member of the group committing it (OffsetCommit), not by admin.setOffsets.
 */
import { Kafka, logLevel, type Admin, type IHeaders } from 'kafkajs';
import { eventually } from '@herald/testing';

export interface GroupOffsets {
  groupId: string;
  /** The partitions the group has committed an offset for, as `topic` → partition → offset. */
  committed: Map<string, Map<number, number>>;
}

export interface Replay {
  /** Every topic Herald has written (not the broker's own). */
  topics(): Promise<string[]>;
  /** The committed offsets of each group that has any. */
  groups(groupIds: readonly string[]): Promise<GroupOffsets[]>;
  /** Commits the start of every partition the group has an offset for; answers how many were moved. */
  resetToEarliest(group: GroupOffsets): Promise<number>;
  /** Produces again a random `share` of every topic's messages; answers the count per topic. */
  injectDuplicates(share: number): Promise<Record<string, number>>;
  /** The messages each group still has to read of the topics it consumes (0: caught up). */
  lag(groupIds: readonly string[]): Promise<number>;
  stop(): Promise<void>;
}

export async function connectReplay(brokers: string[]): Promise<Replay> {
  const kafka = new Kafka({ clientId: 'herald-faults-replay', brokers, logLevel: logLevel.NOTHING });
  const admin: Admin = kafka.admin();
  await admin.connect();
  const topics = async () => (await admin.listTopics()).filter((t) => !t.startsWith('__'));
  const ends = async (topic: string) =>
    new Map(
      (await admin.fetchTopicOffsets(topic)).map((o) => [o.partition, { low: Number(o.low), high: Number(o.high) }]),
    );
  const groups = async (groupIds: readonly string[]): Promise<GroupOffsets[]> => {
    const all = await topics();
    const out: GroupOffsets[] = [];
    for (const groupId of groupIds) {
      const committed = new Map<string, Map<number, number>>();
      for (const t of await admin.fetchOffsets({ groupId, topics: all }))
        for (const p of t.partitions)
          if (Number(p.offset) >= 0) {
            if (!committed.has(t.topic)) committed.set(t.topic, new Map());
            committed.get(t.topic)!.set(p.partition, Number(p.offset));
          }
      if (committed.size > 0) out.push({ groupId, committed });
    }
    return out;
  };
  return {
    topics,
    groups,
    async resetToEarliest(group) {
      const targets: { topic: string; partition: number; offset: string }[] = [];
      for (const [topic, parts] of group.committed) {
        const range = await ends(topic);
        for (const partition of parts.keys())
          targets.push({ topic, partition, offset: String(range.get(partition)?.low ?? 0) });
      }
      // a member of the (stopped) group of its own, which commits the starts and leaves without reading
      const consumer = kafka.consumer({ groupId: group.groupId, sessionTimeout: 10_000, rebalanceTimeout: 10_000 });
      await consumer.connect();
      try {
        const joined = new Promise<void>((resolve) => consumer.on(consumer.events.GROUP_JOIN, () => resolve()));
        await consumer.subscribe({ topics: [...group.committed.keys()], fromBeginning: true });
        await consumer.run({ autoCommit: false, eachBatchAutoResolve: false, eachBatch: async () => undefined });
        await joined;
        consumer.pause([...group.committed.keys()].map((topic) => ({ topic })));
        await consumer.commitOffsets(targets);
      } finally {
        await consumer.disconnect();
      }
      const [after] = await groups([group.groupId]);
      const moved = targets.filter((t) => after?.committed.get(t.topic)?.get(t.partition) === Number(t.offset));
      if (moved.length !== targets.length)
        throw new Error(`${group.groupId}: ${targets.length - moved.length} partitions not reset to their start`);
      return moved.length;
    },
    async injectDuplicates(share) {
      const all = await topics();
      const wanted = new Map<string, number>(); // topic\0partition -> high
      for (const topic of all)
        for (const [partition, { low, high }] of await ends(topic))
          if (high > low) wanted.set(`${topic}\0${partition}`, high);
      const picked: {
        topic: string;
        partition: number;
        key: Buffer | null;
        value: Buffer | null;
        headers: IHeaders;
      }[] = [];
      const reader = kafka.consumer({ groupId: `herald-faults-replay-reader-${Date.now()}` });
      await reader.connect();
      const seen = new Map<string, number>();
      try {
        await reader.subscribe({ topics: all, fromBeginning: true });
        await reader.run({
          autoCommit: false,
          eachMessage: async ({ topic, partition, message }) => {
            const at = `${topic}\0${partition}`;
            if (Number(message.offset) >= (wanted.get(at) ?? 0)) return;
            seen.set(at, Number(message.offset) + 1);
            if (Math.random() < share)
              picked.push({ topic, partition, key: message.key, value: message.value, headers: message.headers ?? {} });
          },
        });
        await eventually(() => [...wanted].every(([at, high]) => (seen.get(at) ?? 0) >= high), {
          timeoutMs: 120_000,
          intervalMs: 200,
          message: 'every topic read to its end',
        });
      } finally {
        await reader.disconnect();
      }
      const producer = kafka.producer({ allowAutoTopicCreation: false, maxInFlightRequests: 1 });
      await producer.connect();
      const count: Record<string, number> = {};
      try {
        for (const m of picked) {
          await producer.send({
            topic: m.topic,
            messages: [{ partition: m.partition, key: m.key, value: m.value, headers: m.headers }],
          });
          count[m.topic] = (count[m.topic] ?? 0) + 1;
        }
      } finally {
        await producer.disconnect();
      }
      return count;
    },
    async lag(groupIds) {
      let behind = 0;
      const highs = new Map<string, Map<number, { low: number; high: number }>>();
      for (const g of await groups(groupIds))
        for (const [topic, parts] of g.committed) {
          if (!highs.has(topic)) highs.set(topic, await ends(topic));
          for (const [partition, { high }] of highs.get(topic)!)
            behind += Math.max(0, high - (parts.get(partition) ?? 0));
        }
      return behind;
    },
    async stop() {
      await admin.disconnect();
    },
  };
}

import type { EventEnvelope } from '@herald/contracts';
import type { Consumer, Kafka } from 'kafkajs';
import type { ConsumerRegistry } from '../consumer/consumer-registry.js';
import { HeraldEventServer } from '../consumer/herald-event.server.js';

export interface KafkaEventServerOptions {
  /** Consumer group id = `${groupPrefix}${consumer}`; the consumer is the service name. */
  groupPrefix: string;
  sessionTimeout: number;
  heartbeatInterval: number;
  rebalanceTimeout: number;
  /** Partitions of one consumer processed concurrently (order is kept within a partition). */
  partitionsConsumedConcurrently: number;
  maxWaitTimeInMs: number;
  /** Messages of a partition applied per consumer transaction. */
  chunkSize: number;
}

const DEFAULTS: KafkaEventServerOptions = {
  groupPrefix: 'herald-',
  sessionTimeout: 30_000,
  heartbeatInterval: 3000,
  rebalanceTimeout: 60_000,
  partitionsConsumedConcurrently: 4,
  maxWaitTimeInMs: 1000,
  chunkSize: 100,
};

/**
 * Nest transport of distributed mode: serves `@EventPattern` handlers from Kafka. One consumer group
 * per hosted service, named after it. Messages of a batch are applied in partition order through
 * the service's EventProcessor (inbox, retries, dead-letter), then their offsets are committed; a
 * crash before the commit redelivers them and the inbox skips what was already applied.
 */
export class KafkaEventServer extends HeraldEventServer {
  private readonly consumers: Consumer[] = [];
  private readonly options: KafkaEventServerOptions;

  constructor(
    registry: ConsumerRegistry,
    private readonly kafka: Kafka,
    options: Partial<KafkaEventServerOptions> = {},
  ) {
    super(registry);
    this.options = { ...DEFAULTS, ...options };
  }

  async listen(callback: (err?: unknown) => void): Promise<void> {
    try {
      for (const [consumerName, topics] of this.subscriptions()) await this.startConsumer(consumerName, topics);
      callback();
    } catch (err) {
      callback(err);
    }
  }

  private async startConsumer(consumerName: string, topics: string[]): Promise<void> {
    const processor = this.registry.get(consumerName);
    const handlers = new Map(topics.map((t) => [t, this.handlersFor(t, consumerName)]));
    const consumer = this.kafka.consumer({
      groupId: `${this.options.groupPrefix}${consumerName}`,
      sessionTimeout: this.options.sessionTimeout,
      heartbeatInterval: this.options.heartbeatInterval,
      rebalanceTimeout: this.options.rebalanceTimeout,
      maxWaitTimeInMs: this.options.maxWaitTimeInMs,
      allowAutoTopicCreation: true,
    });
    await consumer.connect();
    await consumer.subscribe({ topics, fromBeginning: true });
    await consumer.run({
      autoCommit: true,
      eachBatchAutoResolve: false,
      partitionsConsumedConcurrently: this.options.partitionsConsumedConcurrently,
      eachBatch: async ({ batch, resolveOffset, heartbeat, isRunning, isStale, commitOffsetsIfNecessary }) => {
        const handlersFor = () => handlers.get(batch.topic) ?? [];
        for (let start = 0; start < batch.messages.length; start += this.options.chunkSize) {
          if (!isRunning() || isStale()) break;
          const chunk = batch.messages.slice(start, start + this.options.chunkSize);
          const envelopes: EventEnvelope[] = [];
          for (const message of chunk) {
            const raw = message.value?.toString('utf8') ?? '';
            try {
              const envelope = JSON.parse(raw) as EventEnvelope;
              envelopes.push(envelope.type === batch.topic ? envelope : { ...envelope, type: batch.topic });
            } catch (err) {
              await processor.deadLetterUndecodable(batch.topic, raw, `undecodable message: ${String(err)}`);
            }
          }
          await processor.processBatch(envelopes, handlersFor);
          resolveOffset(chunk[chunk.length - 1]!.offset);
          await heartbeat();
        }
        await commitOffsetsIfNecessary();
      },
    });
    this.consumers.push(consumer);
  }

  /** Stops fetching, lets the batch in flight finish, and commits its offsets. */
  async close(): Promise<void> {
    await Promise.all(this.consumers.splice(0).map((c) => c.disconnect()));
  }

  unwrap<T>(): T {
    return this.consumers as T;
  }
}

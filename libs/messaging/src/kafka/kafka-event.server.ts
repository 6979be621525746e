import { createLogger } from '@herald/core';
import type { EventEnvelope } from '@herald/contracts';
import type { Consumer, Kafka } from 'kafkajs';
import type { ConsumerRegistry } from '../consumer/consumer-registry.js';
import { HeraldEventServer } from '../consumer/herald-event.server.js';
import type { ConsumerProgress } from './consumer-progress.js';

export interface KafkaEventServerOptions {
  /**
   * Consumer group id = `<groupPrefix>-<consumer>` (the consumer is the service name). Deployments
   * sharing one Kafka cluster use different prefixes (`KAFKA_GROUP_PREFIX`); topics keep their names.
   */
  groupPrefix: string;
  sessionTimeout: number;
  heartbeatInterval: number;
  rebalanceTimeout: number;
  /** Partitions of one consumer processed concurrently (order is kept within a partition). */
  partitionsConsumedConcurrently: number;
  maxWaitTimeInMs: number;
  /** Messages of a partition applied per consumer transaction. */
  chunkSize: number;
  /** `listen` returns at once and the consumers join in the background (readiness tells when). */
  joinInBackground: boolean;
  /** Told of each applied chunk and each assignment (read-your-writes waits on it). */
  progress?: ConsumerProgress;
}

/** The consumer group of one consumer (service) of a deployment. */
export const consumerGroupId = (groupPrefix: string, consumer: string): string => `${groupPrefix}-${consumer}`;

const DEFAULTS: KafkaEventServerOptions = {
  groupPrefix: 'herald',
  sessionTimeout: 10_000,
  heartbeatInterval: 1000,
  rebalanceTimeout: 30_000,
  partitionsConsumedConcurrently: 4,
  maxWaitTimeInMs: 1000,
  chunkSize: 100,
  joinInBackground: false,
};

/** Delay before a consumer that could not connect or join tries again. */
const RETRY_MS = 2000;

/**
 * Nest transport of distributed mode: serves `@EventPattern` handlers from Kafka. One consumer group
 * per hosted service, named after it. Messages of a batch are applied in partition order through
 * the service's EventProcessor (inbox, retries, dead-letter), then their offsets are committed; a
 * crash before the commit redelivers them and the inbox skips what was already applied.
 *
 * {@link checkJoined} is the readiness of the consumers: each has joined its group (and not crashed
 * since). On close each consumer finishes its batch, commits, and leaves its group, so that its
 * replacement does not wait for the session timeout.
 */
export class KafkaEventServer extends HeraldEventServer {
  private readonly consumers = new Map<string, Consumer>();
  private readonly joined = new Set<string>();
  private readonly problems = new Map<string, string>();
  private readonly options: KafkaEventServerOptions;
  private readonly log = createLogger('kafka-consumer');
  private closed = false;

  constructor(
    registry: ConsumerRegistry,
    private readonly kafka: Kafka,
    options: Partial<KafkaEventServerOptions> = {},
  ) {
    super(registry);
    this.options = { ...DEFAULTS, ...options };
  }

  async listen(callback: (err?: unknown) => void): Promise<void> {
    const subscriptions = [...this.subscriptions()];
    const started = performance.now();
    if (this.options.joinInBackground) {
      void Promise.all(subscriptions.map(([consumerName, topics]) => this.startWithRetry(consumerName, topics))).then(
        () => {
          if (!this.closed && subscriptions.length > 0)
            this.log.info('event consumers joined their groups', {
              groups: subscriptions.map(([c]) => this.groupId(c)),
              joinMs: Math.round(performance.now() - started),
            });
        },
      );
      return callback();
    }
    try {
      for (const [consumerName, topics] of subscriptions) await this.startConsumer(consumerName, topics);
      callback();
    } catch (err) {
      callback(err);
    }
  }

  /** Throws, naming the groups, while a consumer has not joined its group. */
  async checkJoined(): Promise<void> {
    const waiting = [...this.subscriptions().keys()].filter((c) => !this.joined.has(c));
    if (waiting.length === 0) return;
    throw new Error(
      `not joined: ${waiting
        .map((c) => {
          const problem = this.problems.get(c);
          return `${this.groupId(c)}${problem ? ` (${problem})` : ''}`;
        })
        .join(', ')}`,
    );
  }

  private groupId(consumerName: string): string {
    return consumerGroupId(this.options.groupPrefix, consumerName);
  }

  private async startWithRetry(consumerName: string, topics: string[]): Promise<void> {
    while (!this.closed) {
      try {
        await this.startConsumer(consumerName, topics);
        return;
      } catch (err) {
        const message = err instanceof Error ? err.message : String(err);
        this.problems.set(consumerName, message);
        this.log.error('event consumer could not start; retrying', {
          group: this.groupId(consumerName),
          err: message,
          retryInMs: RETRY_MS,
        });
        const consumer = this.consumers.get(consumerName);
        this.consumers.delete(consumerName);
        await consumer?.disconnect().catch(() => undefined);
        await new Promise((resolve) => setTimeout(resolve, RETRY_MS));
      }
    }
  }

  private async startConsumer(consumerName: string, topics: string[]): Promise<void> {
    const processor = this.registry.get(consumerName);
    const handlers = new Map(topics.map((t) => [t, this.handlersFor(t, consumerName)]));
    const consumer = this.kafka.consumer({
      groupId: this.groupId(consumerName),
      sessionTimeout: this.options.sessionTimeout,
      heartbeatInterval: this.options.heartbeatInterval,
      rebalanceTimeout: this.options.rebalanceTimeout,
      maxWaitTimeInMs: this.options.maxWaitTimeInMs,
      allowAutoTopicCreation: true,
    });
    this.consumers.set(consumerName, consumer);
    consumer.on(consumer.events.GROUP_JOIN, (e) => {
      this.joined.add(consumerName);
      this.problems.delete(consumerName);
      this.options.progress?.assign(consumerName, e.payload.memberAssignment);
    });
    consumer.on(consumer.events.CRASH, (e) => {
      this.joined.delete(consumerName);
      this.problems.set(consumerName, `crashed: ${String(e.payload.error)}`);
      // kafkajs restarts a consumer after a retriable error only; after any other (e.g. a broker
      // answering a join race with INVALID_REQUEST) it stays stopped: start a new one.
      if (e.payload.restart || this.closed || this.consumers.get(consumerName) !== consumer) return;
      this.consumers.delete(consumerName);
      this.log.error('event consumer stopped after an error; starting a new one', {
        group: this.groupId(consumerName),
        err: String(e.payload.error),
        retryInMs: RETRY_MS,
      });
      setTimeout(() => void this.startWithRetry(consumerName, topics), RETRY_MS);
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
          const last = chunk[chunk.length - 1]!.offset;
          resolveOffset(last);
          this.options.progress?.applied(consumerName, batch.topic, batch.partition, last);
          await heartbeat();
        }
        await commitOffsetsIfNecessary();
      },
    });
    // run() resolved: the consumer joined, or its join crashed and kafkajs restarts it (readiness tells).
  }

  /** Stops fetching, lets the batch in flight finish, commits its offsets and leaves the group. */
  async close(): Promise<void> {
    this.closed = true;
    const consumers = [...this.consumers.values()];
    this.consumers.clear();
    this.joined.clear();
    await Promise.all(consumers.map((c) => c.disconnect()));
  }

  unwrap<T>(): T {
    return [...this.consumers.values()] as T;
  }
}

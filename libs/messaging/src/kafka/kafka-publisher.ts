import type { EventEnvelope } from '@herald/contracts';
import { CompressionTypes, type Kafka, type Producer } from 'kafkajs';
import type { EventPublisher } from '../event-publisher.js';

/**
 * Publishes outbox batches to Kafka: one produce request per batch (never one await per message),
 * keyed by the envelope key so one contact's events stay in one partition, in order.
 * A traced event's `traceparent` is also sent as the W3C `traceparent` header.
 */
export class KafkaPublisher implements EventPublisher {
  readonly system = 'kafka';
  private producer?: Producer;
  private connecting?: Promise<Producer>;

  constructor(private readonly kafka: Kafka) {}

  async publish(envelopes: EventEnvelope[]): Promise<void> {
    const producer = await this.connect();
    const byTopic = new Map<string, { key: string; value: string; headers: Record<string, string> }[]>();
    for (const e of envelopes) {
      const messages = byTopic.get(e.type) ?? [];
      messages.push({
        key: e.key,
        value: JSON.stringify(e),
        headers: {
          'herald-event-id': e.eventId,
          'herald-version': String(e.version),
          'herald-project-id': e.projectId,
          // W3C trace context for Kafka tools; Herald's consumers read the envelope's (ADR 0019)
          ...(e.traceparent ? { traceparent: e.traceparent } : {}),
        },
      });
      byTopic.set(e.type, messages);
    }
    await producer.sendBatch({
      acks: -1,
      compression: CompressionTypes.None,
      topicMessages: [...byTopic].map(([topic, messages]) => ({ topic, messages })),
    });
  }

  async check(): Promise<void> {
    const admin = this.kafka.admin();
    await admin.connect();
    try {
      await admin.describeCluster();
    } finally {
      await admin.disconnect();
    }
  }

  async close(): Promise<void> {
    const producer = this.producer;
    this.producer = undefined;
    this.connecting = undefined;
    await producer?.disconnect();
  }

  private connect(): Promise<Producer> {
    if (this.producer) return Promise.resolve(this.producer);
    this.connecting ??= (async () => {
      const producer = this.kafka.producer({ allowAutoTopicCreation: true, maxInFlightRequests: 1 });
      try {
        await producer.connect();
      } catch (err) {
        this.connecting = undefined;
        throw err;
      }
      this.producer = producer;
      return producer;
    })();
    return this.connecting;
  }
}

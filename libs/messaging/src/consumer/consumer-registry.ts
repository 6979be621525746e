import type { EventProcessor } from './event-processor.js';

/**
 * The event processors of the services hosted by this process, by consumer name (= service name).
 * Filled by each service's MessagingModule; read by the transport servers.
 */
export class ConsumerRegistry {
  private readonly processors = new Map<string, EventProcessor>();
  private readonly topics = new Map<string, readonly string[]>();

  register(processor: EventProcessor): void {
    if (this.processors.has(processor.consumer)) throw new Error(`consumer ${processor.consumer} registered twice`);
    this.processors.set(processor.consumer, processor);
  }

  get(consumer: string): EventProcessor {
    const p = this.processors.get(consumer);
    if (!p) throw new Error(`no event processor for consumer ${consumer}: is its service module loaded?`);
    return p;
  }

  has(consumer: string): boolean {
    return this.processors.has(consumer);
  }

  /** The transport records what each hosted consumer subscribes to when it starts listening. */
  subscribe(consumer: string, topics: readonly string[]): void {
    this.topics.set(consumer, [...topics]);
  }

  /** The topics `consumer` handles (empty before the transport listens, or for a consumer of nothing). */
  topicsOf(consumer: string): readonly string[] {
    return this.topics.get(consumer) ?? [];
  }
}

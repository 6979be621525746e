import { eventually } from '@herald/testing';
import type { Kafka } from 'kafkajs';
import { ConsumerRegistry } from '../consumer/consumer-registry.js';
import type { EventProcessor } from '../consumer/event-processor.js';
import { KafkaEventServer } from './kafka-event.server.js';

/** A kafkajs client that records the consumers asked of it; every consumer joins at once. */
function recordingKafka() {
  const consumers: { groupId: string; topics: string[] }[] = [];
  const listenersOf: Map<string, (e?: unknown) => void>[] = [];
  const kafka = {
    consumer: ({ groupId }: { groupId: string }) => {
      const record = { groupId, topics: [] as string[] };
      consumers.push(record);
      const listeners = new Map<string, (e?: unknown) => void>();
      listenersOf.push(listeners);
      return {
        events: { GROUP_JOIN: 'group_join', CRASH: 'crash' },
        on: (event: string, listener: (e?: unknown) => void) => listeners.set(event, listener),
        connect: async () => undefined,
        subscribe: async ({ topics }: { topics: string[] }) => void record.topics.push(...topics),
        run: async () => listeners.get('group_join')?.(),
        disconnect: async () => undefined,
      };
    },
  };
  return { kafka: kafka as unknown as Kafka, consumers, listenersOf };
}

function serverFor(kafka: Kafka, groupPrefix?: string): KafkaEventServer {
  const registry = new ConsumerRegistry();
  registry.register({ consumer: 'contacts' } as EventProcessor);
  const server = new KafkaEventServer(registry, kafka, groupPrefix ? { groupPrefix } : {});
  server.addHandler('contacts:project.created', async () => undefined, true, {
    consumer: 'contacts',
    topic: 'project.created',
  });
  return server;
}

const listen = (server: KafkaEventServer) =>
  new Promise<void>((resolve, reject) => void server.listen((err) => (err ? reject(err) : resolve())));

describe('Kafka consumer groups (KAFKA_GROUP_PREFIX)', () => {
  it('names the group herald-<service> by default', async () => {
    const { kafka, consumers } = recordingKafka();
    await listen(serverFor(kafka));
    expect(consumers).toEqual([{ groupId: 'herald-contacts', topics: ['project.created'] }]);
  });

  it('gives two deployments with two prefixes two groups on the same, unprefixed topics', async () => {
    const { kafka, consumers } = recordingKafka();
    await listen(serverFor(kafka, 'staging'));
    await listen(serverFor(kafka, 'production'));
    expect(consumers).toEqual([
      { groupId: 'staging-contacts', topics: ['project.created'] },
      { groupId: 'production-contacts', topics: ['project.created'] },
    ]);
  });

  it('is ready only once every consumer has joined its group, naming the group until then', async () => {
    const { kafka } = recordingKafka();
    const server = serverFor(kafka, 'staging');
    await expect(server.checkJoined()).rejects.toThrow('not joined: staging-contacts');
    await listen(server);
    await expect(server.checkJoined()).resolves.toBeUndefined();
  });

  it('starts a new consumer when kafkajs leaves one stopped after an error it does not retry', async () => {
    const { kafka, consumers, listenersOf } = recordingKafka();
    const server = serverFor(kafka);
    await listen(server);
    listenersOf[0]!.get('crash')!({ payload: { error: new Error('INVALID_REQUEST'), restart: false } });
    await expect(server.checkJoined()).rejects.toThrow(/herald-contacts \(crashed: Error: INVALID_REQUEST\)/);
    await eventually(() => consumers.length === 2 && server.checkJoined().then(() => true), {
      timeoutMs: 10_000,
      message: 'no new consumer joined',
    });
    expect(consumers[1]!.groupId).toBe('herald-contacts');
    await server.close();
  });
});

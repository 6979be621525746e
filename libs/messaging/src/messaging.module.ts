import { createLogger, HealthRegistry, HERALD_RUNTIME, READ_YOUR_WRITES_GATE, type HeraldRuntime } from '@herald/core';
import {
  Global,
  Inject,
  Injectable,
  Module,
  type DynamicModule,
  type OnApplicationBootstrap,
  type OnModuleDestroy,
} from '@nestjs/common';
import { getDataSourceToken } from '@nestjs/typeorm';
import { retentionToken, type Retention } from '@herald/persistence';
import type { Kafka } from 'kafkajs';
import type { DataSource } from 'typeorm';
import { ConsumerRegistry } from './consumer/consumer-registry.js';
import { EventProcessor, type RetryPolicy } from './consumer/event-processor.js';
import { EVENT_PUBLISHER, type EventPublisher } from './event-publisher.js';
import { InProcessBus } from './in-process/in-process-bus.js';
import { createKafka } from './kafka/kafka-client.js';
import { KafkaPublisher } from './kafka/kafka-publisher.js';
import { ConsumerProgress } from './kafka/consumer-progress.js';
import { KafkaCatchUp } from './kafka/kafka-catch-up.js';
import { Outbox } from './outbox/outbox.js';
import { OutboxRelay, type OutboxRelayOptions } from './outbox/outbox-relay.js';
import { HOSTED_CONTROLLERS, type HostedControllers } from './read-your-writes/hosted-controllers.js';
import { LocalRelays } from './read-your-writes/local-relays.js';
import { PositionsEdge } from './read-your-writes/positions-edge.js';
import { PositionsController } from './read-your-writes/positions.controller.js';
import { ProducerPositionsClient } from './read-your-writes/producer-positions-client.js';
import { ReadYourWrites } from './read-your-writes/read-your-writes.gate.js';
import { CallHandlers } from './internal-calls/call-handlers.js';
import { messagingRetentionTasks } from './retention/messaging-retention.js';
import { InternalCalls } from './internal-calls/internal-calls.js';
import { InternalCallsController } from './internal-calls/internal-calls.controller.js';

export const KAFKA_CLIENT = Symbol('KAFKA_CLIENT');

/** Injection token of a service's outbox. */
export const outboxToken = (service: string): string => `herald:outbox:${service}`;
export const InjectOutbox = (service: string): ParameterDecorator => Inject(outboxToken(service));
const relayToken = (service: string): string => `herald:outbox-relay:${service}`;

export interface ServiceMessagingOptions {
  service: string;
  retry?: Partial<RetryPolicy>;
  relay?: Partial<OutboxRelayOptions>;
}

/** Per-process messaging: the transport's publisher and the registry of hosted consumers. */
@Global()
@Module({})
export class MessagingModule {
  /**
   * `hosted`: the HTTP controllers of each hosted service (read-your-writes waits on the copies of
   * the route's own service).
   */
  static forRoot(hosted: HostedControllers = new Map()): DynamicModule {
    const kafkaLog = createLogger('kafka');
    return {
      module: MessagingModule,
      controllers: [PositionsController, InternalCallsController],
      providers: [
        ConsumerRegistry,
        InProcessBus,
        LocalRelays,
        ConsumerProgress,
        PositionsEdge,
        ProducerPositionsClient,
        ReadYourWrites,
        CallHandlers,
        InternalCalls,
        { provide: READ_YOUR_WRITES_GATE, useExisting: ReadYourWrites },
        { provide: HOSTED_CONTROLLERS, useValue: hosted },
        {
          provide: KafkaCatchUp,
          inject: [HERALD_RUNTIME, KAFKA_CLIENT, ConsumerProgress],
          useFactory: (rt: HeraldRuntime, kafka: Kafka | null, progress: ConsumerProgress): KafkaCatchUp | null =>
            rt.mode === 'distributed' && kafka
              ? new KafkaCatchUp(kafka, progress, rt.kafka?.groupPrefix ?? 'herald')
              : null,
        },
        {
          provide: KAFKA_CLIENT,
          inject: [HERALD_RUNTIME],
          useFactory: (rt: HeraldRuntime): Kafka | null =>
            rt.kafka
              ? createKafka(rt.kafka, (level, msg, extra) =>
                  kafkaLog[level === 'error' ? 'error' : level === 'warn' ? 'warn' : 'info'](msg, extra),
                )
              : null,
        },
        {
          provide: EVENT_PUBLISHER,
          inject: [HERALD_RUNTIME, KAFKA_CLIENT, InProcessBus, HealthRegistry],
          useFactory: (
            rt: HeraldRuntime,
            kafka: Kafka | null,
            bus: InProcessBus,
            health: HealthRegistry,
          ): EventPublisher => {
            if (rt.mode !== 'distributed' || !kafka) return bus;
            const publisher = new KafkaPublisher(kafka);
            health.register({ name: 'kafka', check: () => publisher.check() });
            return publisher;
          },
        },
        PublisherLifecycle,
      ],
      exports: [
        ConsumerRegistry,
        LocalRelays,
        InProcessBus,
        KAFKA_CLIENT,
        EVENT_PUBLISHER,
        ConsumerProgress,
        PositionsEdge,
        ReadYourWrites,
        READ_YOUR_WRITES_GATE,
        CallHandlers,
        InternalCalls,
      ],
    };
  }

  /** A service's outbox, relay and event processor, bound to its data source (schema). */
  static forService(options: ServiceMessagingOptions): DynamicModule {
    const { service } = options;
    const logger = createLogger(`messaging.${service}`);
    return {
      module: ServiceMessagingModule,
      providers: [
        {
          provide: outboxToken(service),
          inject: [getDataSourceToken(service)],
          useFactory: (ds: DataSource) => new Outbox(service, ds),
        },
        {
          provide: relayToken(service),
          inject: [HERALD_RUNTIME, getDataSourceToken(service), EVENT_PUBLISHER],
          useFactory: (rt: HeraldRuntime, ds: DataSource, publisher: EventPublisher) =>
            new OutboxRelay(service, rt.databaseUrl, ds, publisher, logger, options.relay),
        },
        {
          provide: `herald:messaging-lifecycle:${service}`,
          inject: [
            ConsumerRegistry,
            LocalRelays,
            getDataSourceToken(service),
            outboxToken(service),
            relayToken(service),
            retentionToken(service),
          ],
          useFactory: (
            registry: ConsumerRegistry,
            relays: LocalRelays,
            ds: DataSource,
            outbox: Outbox,
            relay: OutboxRelay,
            retention: Retention,
          ) => {
            registry.register(new EventProcessor(service, ds, outbox, logger, options.retry));
            for (const task of messagingRetentionTasks(ds, retention.retention)) retention.register(task);
            relays.register(service, relay);
            outbox.relayedBy(relay);
            return new ServiceMessagingLifecycle(relay);
          },
        },
      ],
      exports: [outboxToken(service), relayToken(service)],
    };
  }
}

@Module({})
class ServiceMessagingModule {}

class ServiceMessagingLifecycle implements OnApplicationBootstrap, OnModuleDestroy {
  constructor(private readonly relay: OutboxRelay) {}

  onApplicationBootstrap(): void {
    this.relay.start();
  }

  async onModuleDestroy(): Promise<void> {
    await this.relay.stop();
  }
}

@Injectable()
class PublisherLifecycle {
  constructor(
    @Inject(EVENT_PUBLISHER) private readonly publisher: EventPublisher,
    @Inject(KafkaCatchUp) private readonly catchUp: KafkaCatchUp | null,
  ) {}

  async onApplicationShutdown(): Promise<void> {
    await this.publisher.close();
    await this.catchUp?.close();
  }
}

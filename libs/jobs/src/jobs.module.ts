import { HERALD_RUNTIME, type HeraldRuntime } from '@herald/core';
import { Inject, Module, type DynamicModule, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { getDataSourceToken } from '@nestjs/typeorm';
import { retentionToken, type Retention } from '@herald/persistence';
import type { DataSource } from 'typeorm';
import { JobQueue } from './job-queue.js';
import { jobRetentionTasks } from './job-retention.js';

export const jobQueueToken = (service: string): string => `herald:jobs:${service}`;
export const InjectJobQueue = (service: string): ParameterDecorator => Inject(jobQueueToken(service));

/** A service's durable job queue (its `jobs` table; add `Job` to the service's entities). */
@Module({})
export class JobsModule {
  /**
   * `concurrency`: jobs run at once in this process (default 2), or a function read when the queue is
   * built (a service whose settings class names it: the environment is read then, not at import).
   */
  static forService(service: string, options: { concurrency?: number | (() => number) } = {}): DynamicModule {
    return {
      module: JobsModule,
      providers: [
        {
          provide: jobQueueToken(service),
          inject: [HERALD_RUNTIME, getDataSourceToken(service)],
          useFactory: (rt: HeraldRuntime, db: DataSource) =>
            new JobQueue(service, rt.databaseUrl, db, {
              leaseMs: rt.jobLeaseMs,
              pollIntervalMs: 1000,
              concurrency:
                (typeof options.concurrency === 'function' ? options.concurrency() : options.concurrency) ?? 2,
            }),
        },
        {
          provide: `herald:jobs-lifecycle:${service}`,
          inject: [jobQueueToken(service)],
          useFactory: (queue: JobQueue) => new JobsLifecycle(queue),
        },
        {
          // finished jobs past retention (docs/operations.md, Retention)
          provide: `herald:jobs-retention:${service}`,
          inject: [retentionToken(service), getDataSourceToken(service)],
          useFactory: (retention: Retention, db: DataSource) => {
            for (const task of jobRetentionTasks(db, retention.retention)) retention.register(task);
            return true;
          },
        },
      ],
      exports: [jobQueueToken(service)],
    };
  }
}

/** Workers start once every module registered its handlers, and stop before the data source closes. */
class JobsLifecycle implements OnApplicationBootstrap, OnModuleDestroy {
  constructor(private readonly queue: JobQueue) {}
  async onApplicationBootstrap(): Promise<void> {
    await this.queue.start();
  }
  async onModuleDestroy(): Promise<void> {
    await this.queue.stop();
  }
}

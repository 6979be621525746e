import { HERALD_RUNTIME, type HeraldRuntime } from '@herald/core';
import { Inject, Module, type DynamicModule, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { getDataSourceToken } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { Retention } from './retention.js';
import { measureTables, unmeasureTables } from './table-sizes.js';

/** Injection token of a service's pruner, where the libraries owning its tables register their `RetentionTask`s. */
export const retentionToken = (service: string): string => `herald:retention:${service}`;
export const InjectRetention = (service: string): ParameterDecorator => Inject(retentionToken(service));

/** Starts a service's pruner and table-size gauges with the application; stops them before the data source closes. */
class RetentionLifecycle implements OnApplicationBootstrap, OnModuleDestroy {
  constructor(
    private readonly retention: Retention,
    private readonly db: DataSource,
    private readonly schema: string,
  ) {}

  onApplicationBootstrap(): void {
    measureTables(this.retention.service, this.db, this.schema);
    this.retention.start();
  }

  async onModuleDestroy(): Promise<void> {
    unmeasureTables(this.retention.service);
    await this.retention.stop();
  }
}

/**
 * A service's pruner (`Retention`) and the size gauges of its tables. Global, as the data source
 * is: the service's messaging and job queue modules register their tables' tasks into it.
 */
@Module({})
export class RetentionModule {
  static forService(service: string, schema: string): DynamicModule {
    return {
      module: RetentionModule,
      global: true,
      providers: [
        {
          provide: retentionToken(service),
          inject: [HERALD_RUNTIME],
          useFactory: (rt: HeraldRuntime) => new Retention(service, rt.retention),
        },
        {
          provide: `herald:retention-lifecycle:${service}`,
          inject: [retentionToken(service), getDataSourceToken(service)],
          useFactory: (retention: Retention, db: DataSource) => new RetentionLifecycle(retention, db, schema),
        },
      ],
      exports: [retentionToken(service)],
    };
  }
}

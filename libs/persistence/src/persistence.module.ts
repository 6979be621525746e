import { HERALD_RUNTIME, HealthRegistry, type HeraldRuntime } from '@herald/core';
import { Module, type DynamicModule, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { getDataSourceToken, TypeOrmModule } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { TableStatistics } from './table-statistics.js';
import { RetentionModule } from './retention/retention.module.js';
import {
  migrateServiceSchema,
  pendingMigrations,
  serviceDataSourceOptions,
  type ServiceSchema,
} from './service-data-source.js';

export interface PersistenceOptions extends ServiceSchema {
  /** Run pending migrations when the data source starts (standalone mode and tests). */
  migrateOnStart?: (runtime: HeraldRuntime) => boolean;
}

/**
 * A service's data source, named after the service (`@InjectRepository(Entity, 'contacts')`,
 * `@InjectDataSource('contacts')`), on its own schema. In standalone mode migrations run at start.
 */
const MIGRATE_ON_START = Symbol('herald:migrate-on-start');

/** Starts a service's TableStatistics with the application and stops it on shutdown. */
class StatisticsLifecycle implements OnApplicationBootstrap, OnApplicationShutdown {
  constructor(private readonly statistics: TableStatistics) {}

  onApplicationBootstrap(): Promise<void> {
    return this.statistics.start();
  }

  onApplicationShutdown(): Promise<void> {
    return this.statistics.stop();
  }
}

@Module({})
export class PersistenceModule {
  static forService(options: PersistenceOptions): DynamicModule {
    const migrateOnStart = options.migrateOnStart ?? ((rt: HeraldRuntime) => rt.mode === 'standalone');
    return {
      module: PersistenceModule,
      imports: [
        TypeOrmModule.forRootAsync({
          name: options.service,
          inject: [HERALD_RUNTIME],
          useFactory: (rt: HeraldRuntime) => ({
            ...serviceDataSourceOptions(options, rt.databaseUrl, rt.databasePoolSize),
            [MIGRATE_ON_START]: migrateOnStart(rt),
          }),
          dataSourceFactory: async (opts) => {
            const ds = await new DataSource(opts!).initialize();
            if ((opts as unknown as Record<symbol, unknown>)[MIGRATE_ON_START]) await migrateServiceSchema(ds);
            return ds;
          },
        }),
        TypeOrmModule.forFeature(options.entities as never[], options.service),
        // the pruner of rows past retention and the table-size gauges (docs/operations.md, Retention)
        RetentionModule.forService(options.service, options.service),
      ],
      providers: [
        {
          // the planner's statistics of tables that grow faster than autovacuum visits them: TableStatistics
          provide: `herald:table-statistics:${options.service}`,
          inject: [getDataSourceToken(options.service)],
          useFactory: (ds: DataSource) => new StatisticsLifecycle(new TableStatistics(ds, options.service)),
        },
        {
          provide: `herald:database-health:${options.service}`,
          inject: [HealthRegistry, getDataSourceToken(options.service)],
          useFactory: (health: HealthRegistry, ds: DataSource) =>
            health.register({
              name: `database:${options.service}`,
              check: async () => void (await ds.query('SELECT 1')),
            }),
        },
        {
          // Not ready while a migration of this code is missing from the database: its first request
          // would fail on a missing table or column. Once all are applied they stay applied.
          provide: `herald:migrations-health:${options.service}`,
          inject: [HealthRegistry, getDataSourceToken(options.service)],
          useFactory: (health: HealthRegistry, ds: DataSource) => {
            let applied = false;
            health.register({
              name: `migrations:${options.service}`,
              check: async () => {
                if (applied) return;
                const pending = await pendingMigrations(ds);
                if (pending.length > 0)
                  throw new Error(
                    `${pending.length} pending migration(s): ${pending.join(', ')} (run \`main.js migrate\`)`,
                  );
                applied = true;
              },
            });
          },
        },
      ],
      exports: [TypeOrmModule],
    };
  }
}

import { Global, Module, type DynamicModule } from '@nestjs/common';
import { HealthRegistry } from './health-registry.js';
import { HERALD_RUNTIME, type HeraldRuntime } from './runtime.js';

/** Process-wide providers: the runtime settings and the health registry. */
@Global()
@Module({})
export class CoreModule {
  static forRoot(runtime: HeraldRuntime): DynamicModule {
    return {
      module: CoreModule,
      providers: [{ provide: HERALD_RUNTIME, useValue: runtime }, HealthRegistry],
      exports: [HERALD_RUNTIME, HealthRegistry],
    };
  }
}

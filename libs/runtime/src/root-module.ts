import { AuthModule, principalGuardProvider } from '@herald/auth';
import { CoreModule, serviceEntry, type HeraldRuntime, type ServiceDefinition } from '@herald/core';
import { HttpPlatformModule } from '@herald/http';
import { hostedControllers, MessagingModule, ProjectDataModule } from '@herald/messaging';
import { Module, type DynamicModule } from '@nestjs/common';

/**
 * The process's root module: platform modules once, then each hosted service's module and its
 * project clean-up (the consumer of `project.reset` and `project.deleted` its definition declares).
 */
@Module({})
export class HeraldRootModule {
  static compose(runtime: HeraldRuntime, services: ServiceDefinition[]): DynamicModule {
    return {
      module: HeraldRootModule,
      imports: [
        CoreModule.forRoot(runtime),
        MessagingModule.forRoot(
          hostedControllers(
            services.map((s) => ({
              name: s.name,
              modules: [
                s.module,
                ...(runtime.mode === 'distributed' && s.distributedModule ? [s.distributedModule] : []),
              ],
            })),
          ),
        ),
        HttpPlatformModule,
        AuthModule,
        ...services.flatMap(
          (s) =>
            [
              s.module,
              ProjectDataModule.forService(s.name, s.projectData),
              ...(runtime.mode === 'distributed' && s.distributedModule ? [s.distributedModule] : []),
            ] as DynamicModule[],
        ),
      ],
      // Behind the gateway, every route needs the gateway-signed principal; where the gateway runs
      // in this process, its own guard authenticates keys and sessions instead.
      providers: services.some((s) => serviceEntry(s.name).edge) ? [] : [principalGuardProvider],
    };
  }
}

import { AuthModule } from '@herald/auth';
import { CoreModule, type HeraldRuntime, type ServiceDefinition } from '@herald/core';
import { HttpPlatformModule } from '@herald/http';
import { MessagingModule } from '@herald/messaging';
import { Module, type DynamicModule } from '@nestjs/common';

/** The process's root module: platform modules once, then each hosted service's module. */
@Module({})
export class HeraldRootModule {
  static compose(runtime: HeraldRuntime, services: ServiceDefinition[]): DynamicModule {
    return {
      module: HeraldRootModule,
      imports: [
        CoreModule.forRoot(runtime),
        MessagingModule.forRoot(),
        HttpPlatformModule,
        AuthModule,
        ...services.map((s) => s.module as DynamicModule),
      ],
    };
  }
}

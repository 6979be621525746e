import type { ServiceDefinition } from '@herald/core';
import { GATEWAY } from './consumer.js';
import { EdgeProxyModule } from './edge/edge-proxy.module.js';
import { gatewaySchema, GatewayModule } from './gateway.module.js';
import { GatewayServiceConfig } from './gateway.settings.js';

export const gatewayService: ServiceDefinition = {
  name: GATEWAY,
  module: GatewayModule,
  distributedModule: EdgeProxyModule,
  config: GatewayServiceConfig,
  edge: true,
  defaultPort: 3000,
  schema: gatewaySchema,
};

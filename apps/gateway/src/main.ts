import { runService } from '@herald/runtime';
import { gatewayService } from '@herald/service-gateway';

await runService(gatewayService);

import { runService } from '@herald/runtime';
import { webhooksService } from '@herald/service-webhooks';

await runService(webhooksService);

import { runService } from '@herald/runtime';
import { workflowsService } from '@herald/service-workflows';

await runService(workflowsService);

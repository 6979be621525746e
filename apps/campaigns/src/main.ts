import { runService } from '@herald/runtime';
import { campaignsService } from '@herald/service-campaigns';

await runService(campaignsService);

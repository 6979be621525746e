import { runService } from '@herald/runtime';
import { analyticsService } from '@herald/service-analytics';

await runService(analyticsService);

import { runService } from '@herald/runtime';
import { segmentsService } from '@herald/service-segments';

await runService(segmentsService);

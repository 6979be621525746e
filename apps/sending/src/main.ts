import { runService } from '@herald/runtime';
import { sendingService } from '@herald/service-sending';

await runService(sendingService);

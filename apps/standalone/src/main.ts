import { runStandalone } from '@herald/runtime';
import { allServices } from '@herald/service-catalog';

await runStandalone(allServices);

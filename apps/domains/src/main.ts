import { runService } from '@herald/runtime';
import { domainsService } from '@herald/service-domains';

await runService(domainsService);

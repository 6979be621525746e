import { runService } from '@herald/runtime';
import { contactsService } from '@herald/service-contacts';

await runService(contactsService);

import { InitialSchema1795260976878 } from './1795260976878-initial-schema.js';
import { TemplatesEmailsDelivery1795269015065 } from './1795269015065-templates-emails-delivery.js';
import { EmailHistory1795488370852 } from './1795488370852-email-history.js';
import { ResourceReferences1795489302797 } from './1795489302797-resource-references.js';
import { EmailIntake1795600000000 } from './1795600000000-email-intake.js';
import { EmailTestFlag1795900000000 } from './1795900000000-email-tester-copies.js';
import { TemplateBodyFormat1795922754956 } from './1795922754956-template-body-format.js';
import { EmailTraceparent1795943827895 } from './1795943827895-email-traceparent.js';
import { IdempotencyResponseJson1795946251757 } from './1795946251757-idempotency-response-json.js';
import { InboundMessages1796200000000 } from './1796200000000-inbound-messages.js';
import { EmailSandboxMode1796270000001 } from './1796270000001-email-sandbox-mode.js';
import { UnsampledWideColumns1796400000000 } from './1796400000000-unsampled-wide-columns.js';

/** Committed migrations of the sending schema, oldest first. Never edit one that has landed. */
// eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
export const sendingMigrations: Function[] = [
  InitialSchema1795260976878,
  TemplatesEmailsDelivery1795269015065,
  EmailHistory1795488370852,
  ResourceReferences1795489302797,
  EmailIntake1795600000000,
  EmailTestFlag1795900000000,
  TemplateBodyFormat1795922754956,
  EmailTraceparent1795943827895,
  IdempotencyResponseJson1795946251757,
  InboundMessages1796200000000,
  EmailSandboxMode1796270000001,
  UnsampledWideColumns1796400000000,
];

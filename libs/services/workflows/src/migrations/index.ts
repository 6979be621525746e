import { InitialSchema1795260981015 } from './1795260981015-initial-schema.js';
import { WorkflowsDefinitionsAndRuntime1795600000000 } from './1795600000000-workflows-definitions-and-runtime.js';
import { PlunkShapes1795900000000 } from './1795900000000-plunk-shapes.js';
import { WaitWithoutTimeout1796000000000 } from './1796000000000-wait-without-timeout.js';
import { StepRunTraceparent1796100000000 } from './1796100000000-step-run-traceparent.js';
import { UnsampledOutboxEnvelope1796400000000 } from './1796400000000-unsampled-outbox-envelope.js';

/** Committed migrations of the workflows schema, oldest first. Never edit one that has landed. */
// eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
export const workflowsMigrations: Function[] = [
  InitialSchema1795260981015,
  WorkflowsDefinitionsAndRuntime1795600000000,
  PlunkShapes1795900000000,
  WaitWithoutTimeout1796000000000,
  StepRunTraceparent1796100000000,
  UnsampledOutboxEnvelope1796400000000,
];

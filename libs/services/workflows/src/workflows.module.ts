import { loadConfig, type ServiceDefinition } from '@herald/core';
import { messagingEntities, MessagingModule } from '@herald/messaging';
import { PersistenceModule } from '@herald/persistence';
import { Module } from '@nestjs/common';
import { ContactsClient, SegmentsClient, SendingClient } from './clients/internal-clients.js';
import { WORKFLOWS } from './consumer.js';
import { StepsService } from './definitions/steps.service.js';
import { Workflow, WorkflowStep, WorkflowTransition, WorkflowVersion } from './definitions/workflow.entity.js';
import { WorkflowExecutionsPort } from './definitions/workflow-executions.port.js';
import { WorkflowStore } from './definitions/workflow-store.js';
import { WorkflowsController } from './definitions/workflows.controller.js';
import { WorkflowsService } from './definitions/workflows.service.js';
import {
  WorkflowContactActivity,
  WorkflowEntry,
  WorkflowExecution,
  WorkflowSeenKey,
  WorkflowSegmentMember,
  WorkflowStepRun,
} from './executions/execution.entity.js';
import { ApplyContactEventsUseCase } from './executions/apply-contact-events.use-case.js';
import { ContactFactsStore } from './executions/contact-facts.store.js';
import { ExecutionStarter } from './executions/execution-starter.js';
import { ExecutionsController } from './executions/executions.controller.js';
import { ExecutionsService } from './executions/executions.service.js';
import { ExecutionsStore } from './executions/executions.store.js';
import { RunnerWake } from './executions/runner-wake.js';
import { SeenKeysStore } from './executions/seen-keys.store.js';
import { StepRunsStore } from './executions/step-runs.store.js';
import { StepScheduler } from './executions/step-scheduler.js';
import { TriggerHandlers } from './executions/trigger.handlers.js';
import { workflowsMigrations } from './migrations/index.js';
import { RENDER_THREADS_PROVIDER } from './render-threads.provider.js';
import { StepEffects } from './runtime/step-effects.js';
import { StepRunner } from './runtime/step-runner.js';
import { SimulateController } from './simulate/simulate.controller.js';
import { SimulateService } from './simulate/simulate.service.js';
import { WORKFLOWS_SETTINGS, WorkflowsServiceConfig, WorkflowsSettings } from './workflows.settings.js';

const projectTables = [
  WorkflowStepRun,
  WorkflowExecution,
  WorkflowEntry,
  WorkflowVersion,
  WorkflowTransition,
  WorkflowStep,
  Workflow,
  WorkflowContactActivity,
  WorkflowSegmentMember,
  WorkflowSeenKey,
];

export const workflowsSchema = {
  service: WORKFLOWS,
  entities: [...projectTables, ...messagingEntities],
  migrations: workflowsMigrations,
};

/** Workflows, steps, transitions, executions and their durable timers (docs/workflows.md). */
@Module({
  imports: [PersistenceModule.forService(workflowsSchema), MessagingModule.forService({ service: WORKFLOWS })],
  // the dry run's controller first: its static GET /workflows/fields before GET /workflows/:id
  controllers: [SimulateController, WorkflowsController, ExecutionsController, TriggerHandlers],
  providers: [
    { provide: WORKFLOWS_SETTINGS, useFactory: () => loadConfig(WorkflowsSettings) },
    RENDER_THREADS_PROVIDER,
    ContactsClient,
    SendingClient,
    SegmentsClient,
    WorkflowStore,
    ExecutionsStore,
    // definitions ask executions through a port, the executions feature wakes the runtime through one
    { provide: WorkflowExecutionsPort, useExisting: ExecutionsStore },
    StepRunsStore,
    ContactFactsStore,
    SeenKeysStore,
    WorkflowsService,
    StepsService,
    StepScheduler,
    ExecutionStarter,
    StepEffects,
    StepRunner,
    { provide: RunnerWake, useExisting: StepRunner },
    ExecutionsService,
    ApplyContactEventsUseCase,
    SimulateService,
  ],
})
export class WorkflowsModule {}

export const workflowsService: ServiceDefinition = {
  name: WORKFLOWS,
  module: WorkflowsModule,
  config: WorkflowsServiceConfig,
  schema: workflowsSchema,
  projectData: { tables: projectTables },
};

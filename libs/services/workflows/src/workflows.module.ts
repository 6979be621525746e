import type { ServiceDefinition } from '@herald/core';
import { messagingEntities, MessagingModule } from '@herald/messaging';
import { PersistenceModule } from '@herald/persistence';
import { Module } from '@nestjs/common';
import { WORKFLOWS } from './consumer.js';
import { workflowsMigrations } from './migrations/index.js';

const schema = { service: WORKFLOWS, entities: [...messagingEntities], migrations: workflowsMigrations };

/** Workflows, steps, transitions, executions and timers. */
@Module({
  imports: [PersistenceModule.forService(schema), MessagingModule.forService({ service: WORKFLOWS })],
})
export class WorkflowsModule {}

export const workflowsService: ServiceDefinition = { name: WORKFLOWS, module: WorkflowsModule, defaultPort: 3005, schema };

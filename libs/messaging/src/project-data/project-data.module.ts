import { Topics, type EventEnvelope } from '@herald/contracts';
import type { ProjectData } from '@herald/core';
import { deleteProjectRows } from '@herald/persistence';
import { Controller, Module, type DynamicModule, type Type } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import { Ctx, Payload } from '@nestjs/microservices';
import type { EventContext } from '../consumer/event-context.js';
import { OnEvent } from '../consumer/on-event.decorator.js';

export type ProjectDataTopic = typeof Topics.ProjectReset | typeof Topics.ProjectDeleted;

/**
 * The work a service does for `project.reset` / `project.deleted` beyond deleting its declared
 * rows: a provider of the service's module named by `ProjectData.hook`. It runs first, in the
 * transaction that then deletes the rows and records the event in the inbox, so it still sees them.
 */
export interface ProjectDataHook {
  beforeDelete(event: EventEnvelope, ctx: EventContext, topic: ProjectDataTopic): Promise<void>;
}

/**
 * One consumer per service for `project.reset` and `project.deleted`: the service's declared hook,
 * then its declared tables (all of them on deletion; those not `keptOnReset` on reset). Being an
 * `OnEvent` handler it runs exactly once in effect per event (the inbox row commits with the deletes).
 */
export function projectDataHandler(service: string, data: ProjectData): Type {
  @Controller()
  class ProjectDataHandler {
    constructor(private readonly moduleRef: ModuleRef) {}

    @OnEvent(service, Topics.ProjectReset)
    onReset(@Payload() event: EventEnvelope, @Ctx() ctx: EventContext): Promise<void> {
      return this.forget(event, ctx, Topics.ProjectReset);
    }

    @OnEvent(service, Topics.ProjectDeleted)
    onDeleted(@Payload() event: EventEnvelope, @Ctx() ctx: EventContext): Promise<void> {
      return this.forget(event, ctx, Topics.ProjectDeleted);
    }

    private async forget(event: EventEnvelope, ctx: EventContext, topic: ProjectDataTopic): Promise<void> {
      if (data.hook) {
        const hook = this.moduleRef.get<ProjectDataHook>(data.hook as Type<ProjectDataHook>, { strict: false });
        await hook.beforeDelete(event, ctx, topic);
      }
      const tables = topic === Topics.ProjectDeleted ? [...data.tables, ...(data.keptOnReset ?? [])] : data.tables;
      await deleteProjectRows(ctx.manager, event.projectId, tables as Type[]);
    }
  }
  Object.defineProperty(ProjectDataHandler, 'name', { value: `ProjectDataHandler_${service}` });
  return ProjectDataHandler;
}

@Module({})
export class ProjectDataModule {
  /** The project clean-up of one hosted service (mounted by the runtime from its ServiceDefinition). */
  static forService(service: string, data: ProjectData): DynamicModule {
    return {
      module: ProjectDataModule,
      controllers: [projectDataHandler(service, data)],
      providers: [{ provide: `herald:project-data:${service}`, useValue: service }],
    };
  }
}

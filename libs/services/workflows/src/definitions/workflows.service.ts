import { newId } from '@herald/core';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, EntityManager } from 'typeorm';
import { WORKFLOWS } from '../consumer.js';
import type { CreateWorkflowDto, UpdateWorkflowDto } from './workflow.dto.js';
import { Workflow } from './workflow.entity.js';
import { WorkflowErrors } from './workflow.errors.js';
import { WorkflowExecutionsPort } from './workflow-executions.port.js';
import { WorkflowStore } from './workflow-store.js';
import { workflowView, type WorkflowView } from './workflow-view.js';

/** The trigger's event name: `eventName`, or `triggerConfig.eventName`. */
function triggerOf(body: {
  eventName?: string;
  triggerConfig?: Record<string, unknown>;
}): Record<string, unknown> | undefined {
  if (body.eventName !== undefined) return { ...(body.triggerConfig ?? {}), eventName: body.eventName };
  if (body.triggerConfig === undefined) return undefined;
  const name = body.triggerConfig.eventName;
  if (name !== undefined && (typeof name !== 'string' || name.length < 1 || name.length > 255))
    throw WorkflowErrors.field('triggerConfig.eventName', 'eventName must be a string of 1 to 255 characters');
  const unknown = Object.keys(body.triggerConfig).filter((k) => k !== 'eventName');
  if (unknown.length)
    throw WorkflowErrors.field(`triggerConfig.${unknown[0]}`, 'the EVENT trigger takes eventName only');
  return body.triggerConfig;
}

/** Workflows: create, list, read (with the graph's problems), change (enabled as sent), delete (docs/workflows.md). */
@Injectable()
export class WorkflowsService {
  constructor(
    @InjectDataSource(WORKFLOWS) private readonly db: DataSource,
    private readonly store: WorkflowStore,
    private readonly executions: WorkflowExecutionsPort,
  ) {}

  async create(projectId: string, body: CreateWorkflowDto, requestId?: string): Promise<WorkflowView> {
    const trigger = triggerOf(body) ?? {};
    const w = await this.db.transaction(async (m) => {
      const created = m.create(Workflow, {
        id: newId('wf'),
        projectId,
        name: body.name,
        description: body.description ?? null,
        triggerType: 'EVENT',
        triggerConfig: trigger,
        eventName: (trigger.eventName as string | undefined) ?? null,
        enabled: false,
        allowReentry: body.allowReentry ?? false,
        graphVersion: 1,
      });
      const saved = await m.save(created);
      return this.store.changed(m, saved, false, requestId);
    });
    return workflowView(w, { steps: [], transitions: [] });
  }

  async list(projectId: string): Promise<WorkflowView[]> {
    const rows = await this.db
      .getRepository(Workflow)
      .find({ where: { projectId }, order: { createdAt: 'ASC', id: 'ASC' } });
    return rows.map((w) => workflowView(w));
  }

  async get(projectId: string, id: string, m: EntityManager = this.db.manager): Promise<WorkflowView> {
    const w = await this.store.find(m, projectId, id);
    return workflowView(w, await this.store.graphRows(m, id));
  }

  async update(projectId: string, id: string, body: UpdateWorkflowDto, requestId?: string): Promise<WorkflowView> {
    return this.db.transaction(async (m) => {
      const w = await this.store.find(m, projectId, id, true);
      const trigger = triggerOf(body);
      if (body.name !== undefined) w.name = body.name;
      if (body.description !== undefined) w.description = body.description;
      if (trigger !== undefined) {
        w.triggerConfig = trigger;
        w.eventName = (trigger.eventName as string | undefined) ?? null;
      }
      if (body.allowReentry !== undefined) w.allowReentry = body.allowReentry;
      // enabled as sent (the spec): the graph's shape never refuses it; its problems are in the answer
      if (body.enabled !== undefined) w.enabled = body.enabled;
      const saved = await this.store.changed(m, w, false, requestId);
      return workflowView(saved, await this.store.graphRows(m, id));
    });
  }

  /** 409 while an execution is RUNNING or WAITING; otherwise the workflow and everything of it goes. */
  async remove(projectId: string, id: string, requestId?: string): Promise<void> {
    await this.db.transaction(async (m) => {
      const w = await this.store.find(m, projectId, id, true);
      const active = await this.executions.activeCount(m, id);
      if (active > 0) throw WorkflowErrors.active(active);
      await this.executions.deleteOf(m, id);
      await this.store.delete(m, id);
      await this.store.unpublish(m, w, requestId);
    });
  }
}

import type { DomainError } from '@herald/core';
import { newId } from '@herald/core';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, EntityManager } from 'typeorm';
import { SegmentsClient, SendingClient } from '../clients/internal-clients.js';
import { WORKFLOWS } from '../consumer.js';
import type { CreateStepDto, CreateTransitionDto, UpdateStepDto } from './workflow.dto.js';
import { conditionReferences, parseCondition, unknownSegments } from './condition-filter.js';
import { checkTransition, splicePlan } from './graph.js';
import { checkStepConfig } from './step-config.js';
import { WorkflowStep, WorkflowTransition, type Workflow } from './workflow.entity.js';
import { WorkflowErrorCode, WorkflowErrors } from './workflow.errors.js';
import { WorkflowStore } from './workflow-store.js';
import { stepView, transitionView, type StepView, type TransitionView } from './workflow-view.js';

/** Steps and transitions of a workflow; every change is one transaction that bumps the graph version. */
@Injectable()
export class StepsService {
  constructor(
    @InjectDataSource(WORKFLOWS) private readonly db: DataSource,
    private readonly store: WorkflowStore,
    private readonly sending: SendingClient,
    private readonly segments: SegmentsClient,
  ) {}

  async addStep(projectId: string, workflowId: string, body: CreateStepDto, requestId?: string): Promise<StepView> {
    await this.checkConfig(projectId, body.type, body.config, requestId);
    return this.db.transaction(async (m) => {
      const w = await this.store.find(m, projectId, workflowId, true);
      const position =
        body.position ??
        Number(
          (
            await m.query(
              `SELECT coalesce(max(position) + 1, 0) AS p FROM workflows.workflow_steps WHERE workflow_id = $1`,
              [workflowId],
            )
          )[0].p,
        );
      const step = await m.save(
        m.create(WorkflowStep, {
          id: newId('wfs'),
          projectId,
          workflowId,
          type: body.type,
          name: body.name,
          position,
          config: body.config,
        }),
      );
      await this.store.changed(m, w, true, requestId);
      return stepView(step);
    });
  }

  async updateStep(
    projectId: string,
    workflowId: string,
    stepId: string,
    body: UpdateStepDto,
    requestId?: string,
  ): Promise<StepView> {
    const current = await this.findStep(this.db.manager, workflowId, stepId, projectId);
    if (body.config !== undefined) await this.checkConfig(projectId, current.type, body.config, requestId);
    return this.db.transaction(async (m) => {
      const w = await this.store.find(m, projectId, workflowId, true);
      const step = await this.findStep(m, workflowId, stepId, projectId);
      if (body.name !== undefined) step.name = body.name;
      if (body.position !== undefined) step.position = body.position;
      if (body.config !== undefined) step.config = body.config;
      const saved = await m.save(step);
      await this.store.changed(m, w, true, requestId);
      return stepView(saved);
    });
  }

  /** Deletes a step and its transitions; `splice` reconnects its predecessors to its successor (409 for two continuing branches). */
  async removeStep(
    projectId: string,
    workflowId: string,
    stepId: string,
    splice: boolean,
    requestId?: string,
  ): Promise<void> {
    await this.db.transaction(async (m) => {
      const w = await this.store.find(m, projectId, workflowId, true);
      await this.findStep(m, workflowId, stepId, projectId);
      if (splice) {
        const plan = splicePlan(await this.store.graph(m, workflowId), stepId);
        if (!plan.ok) throw WorkflowErrors.cannotSplice(plan.message);
        if (plan.remove.length)
          await m.delete(
            WorkflowTransition,
            plan.remove.map((id) => ({ id })),
          );
        for (const r of plan.retarget)
          await m.update(WorkflowTransition, { id: r.transitionId }, { toStepId: r.toStepId });
      }
      await m.delete(WorkflowTransition, [
        { workflowId, fromStepId: stepId },
        { workflowId, toStepId: stepId },
      ]);
      await m.delete(WorkflowStep, { id: stepId });
      await this.store.changed(m, w, true, requestId);
    });
  }

  async addTransition(
    projectId: string,
    workflowId: string,
    body: CreateTransitionDto,
    requestId?: string,
  ): Promise<TransitionView> {
    return this.db.transaction(async (m) => {
      const w: Workflow = await this.store.find(m, projectId, workflowId, true);
      const problem = checkTransition(await this.store.graph(m, workflowId), body);
      if (problem?.kind === 'invalid') throw WorkflowErrors.invalid(problem.problems);
      if (problem?.kind === 'conflict')
        throw WorkflowErrors.conflict(WorkflowErrorCode.TransitionExists, problem.message);
      const t = await m.save(
        m.create(WorkflowTransition, {
          id: newId('wft'),
          projectId,
          workflowId,
          fromStepId: body.fromStepId,
          toStepId: body.toStepId,
          branch: body.branch ?? '',
        }),
      );
      await this.store.changed(m, w, true, requestId);
      return transitionView(t);
    });
  }

  async removeTransition(
    projectId: string,
    workflowId: string,
    transitionId: string,
    requestId?: string,
  ): Promise<void> {
    await this.db.transaction(async (m) => {
      const w = await this.store.find(m, projectId, workflowId, true);
      const r = await m.delete(WorkflowTransition, { id: transitionId, workflowId, projectId });
      if (!r.affected) throw WorkflowErrors.transitionNotFound(transitionId);
      await this.store.changed(m, w, true, requestId);
    });
  }

  private async findStep(
    m: EntityManager,
    workflowId: string,
    stepId: string,
    projectId: string,
  ): Promise<WorkflowStep> {
    await this.store.find(m, projectId, workflowId);
    const s = await m.findOneBy(WorkflowStep, { id: stepId, workflowId, projectId });
    if (!s) throw WorkflowErrors.stepNotFound(stepId);
    return s;
  }

  /**
   * The config's shape for its type (422 field by field), then what it names must be the project's:
   * a SEND_EMAIL's template (asked of sending), a CONDITION's `segment.<id>` (asked of segments). The
   * owners answer for the caller's project only, so another project's id is refused exactly as an
   * unknown one, on the same field.
   */
  private async checkConfig(
    projectId: string,
    type: CreateStepDto['type'],
    config: Record<string, unknown>,
    requestId?: string,
  ): Promise<void> {
    const problems = checkStepConfig(type, config);
    if (problems.length) throw WorkflowErrors.invalid(problems, `The ${type} step's config is invalid`);
    if (type === 'SEND_EMAIL') {
      try {
        await this.sending.template(projectId, config.templateId as string);
      } catch (err) {
        if ((err as DomainError).kind === 'not_found')
          throw WorkflowErrors.field(
            'config.templateId',
            'no template of this project has this id',
            'TEMPLATE_NOT_FOUND',
          );
        throw err;
      }
    }
    if (type === 'CONDITION') {
      const filter = parseCondition(config);
      const ids = conditionReferences(filter).segments;
      if (ids.length === 0) return;
      const known = await this.segments.known(projectId, ids, requestId);
      const unknown = unknownSegments(filter, known);
      if (unknown.length) throw WorkflowErrors.invalid(unknown, "The CONDITION step's config is invalid");
    }
  }
}

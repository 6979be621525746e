import type { DomainError } from '@herald/core';
import { newId } from '@herald/core';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, EntityManager } from 'typeorm';
import { SegmentsClient, SendingClient } from '../clients/internal-clients.js';
import { WORKFLOWS } from '../consumer.js';
import { unknownSegments } from './condition-filter.js';
import { conditionStepReferences, filtersOf, parseConditionStep } from './condition-step.js';
import { branchesOf, branchOrDefault, checkTransition, splicePlan } from './graph.js';
import { readStepConfig, readTransitionBranch } from './plunk-shapes.js';
import {
  isCoordinates,
  type CreateStepDto,
  type CreateTransitionDto,
  type StepCoordinates,
  type UpdateStepDto,
} from './workflow.dto.js';
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

  /**
   * A step placed with canvas coordinates (a graph editor's `position: {x, y}`) takes the next order,
   * as one without a position; an integer position is its order.
   */
  async addStep(projectId: string, workflowId: string, body: CreateStepDto, requestId?: string): Promise<StepView> {
    const config = await this.checkConfig(projectId, body.type, body.config, body.templateId, requestId);
    const coordinates = isCoordinates(body.position) ? coordinatesOf(body.position) : null;
    return this.db.transaction(async (m) => {
      const w = await this.store.find(m, projectId, workflowId, true);
      const position =
        (typeof body.position === 'number' ? body.position : undefined) ??
        (await this.store.nextPosition(m, workflowId));
      const step = await m.save(
        m.create(WorkflowStep, {
          id: newId('wfs'),
          projectId,
          workflowId,
          type: body.type,
          name: body.name,
          position,
          coordinates,
          config,
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
    // Plunk's templateId alone replaces the SEND_EMAIL's template in its config
    const { templateId: _replaced, ...kept } = current.config;
    const raw = body.config ?? (typeof body.templateId === 'string' ? kept : undefined);
    const config =
      raw === undefined ? undefined : await this.checkConfig(projectId, current.type, raw, body.templateId, requestId);
    return this.db.transaction(async (m) => {
      const w = await this.store.find(m, projectId, workflowId, true);
      const step = await this.findStep(m, workflowId, stepId, projectId);
      if (body.name !== undefined) step.name = body.name;
      if (typeof body.position === 'number') {
        step.position = body.position;
        step.coordinates = null;
      } else if (isCoordinates(body.position)) step.coordinates = coordinatesOf(body.position);
      if (config !== undefined) {
        await this.checkBranchesKept(m, step, config);
        step.config = config;
      }
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
    const named = readTransitionBranch(body);
    if (named.problems.length) throw WorkflowErrors.invalid(named.problems);
    return this.db.transaction(async (m) => {
      const w: Workflow = await this.store.find(m, projectId, workflowId, true);
      const graph = await this.store.graph(m, workflowId);
      const t = { fromStepId: body.fromStepId, toStepId: body.toStepId, branch: named.branch };
      const problem = checkTransition(graph, t, named.field);
      if (problem?.kind === 'invalid') throw WorkflowErrors.invalid(problem.problems);
      if (problem?.kind === 'conflict')
        throw WorkflowErrors.conflict(WorkflowErrorCode.TransitionExists, problem.message);
      const from = graph.steps.find((s) => s.id === body.fromStepId)!;
      const saved = await m.save(
        m.create(WorkflowTransition, {
          id: newId('wft'),
          projectId,
          workflowId,
          fromStepId: body.fromStepId,
          toStepId: body.toStepId,
          branch: branchOrDefault(from, named.branch),
        }),
      );
      await this.store.changed(m, w, true, requestId);
      return transitionView(saved);
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
   * A step's new config must keep every branch a transition leaves by: a CONDITION's (a multi-branch
   * one's ids, or yes/no), a WAIT_FOR_EVENT's timeout (a config without a timeout has no timeout
   * branch). A 422 `STEP_BRANCH_IN_USE` (on `config`, `config.timeout` for the timeout) names the
   * transition to delete first, rather than leaving it on a branch the step no longer has.
   */
  private async checkBranchesKept(
    m: EntityManager,
    step: WorkflowStep,
    config: Record<string, unknown>,
  ): Promise<void> {
    if (step.type !== 'CONDITION' && step.type !== 'WAIT_FOR_EVENT') return;
    const slots = branchesOf({ type: step.type, config });
    const orphans = (await m.findBy(WorkflowTransition, { fromStepId: step.id })).filter(
      (t) => !slots.includes(t.branch),
    );
    if (orphans.length)
      throw WorkflowErrors.invalid(
        orphans.map((t) => ({
          field: step.type === 'WAIT_FOR_EVENT' ? 'config.timeout' : 'config',
          message:
            step.type === 'WAIT_FOR_EVENT'
              ? `transition ${t.id} leaves by the timeout branch, which a WAIT_FOR_EVENT without a timeout does not have: delete it first`
              : `transition ${t.id} leaves by branch ${t.branch}, which this config does not have: delete it first`,
          code: 'STEP_BRANCH_IN_USE',
        })),
        `The ${step.type} step's config is invalid`,
      );
  }

  /**
   * The config in the internal model (Plunk's shapes normalised, `plunk-shapes.ts`) after its shape
   * for its type (422 field by field, on the fields as written), then what it names must be the
   * project's: a SEND_EMAIL's template (asked of sending), a CONDITION's `segment.<id>` (asked of
   * segments), in any branch. The owners answer for the caller's project only, so another project's
   * id is refused exactly as an unknown one, on the same field.
   */
  private async checkConfig(
    projectId: string,
    type: CreateStepDto['type'],
    raw: Record<string, unknown>,
    templateId: string | null | undefined,
    requestId?: string,
  ): Promise<Record<string, unknown>> {
    const { config, problems } = readStepConfig(type, raw, templateId);
    if (problems.length) throw WorkflowErrors.invalid(problems, `The ${type} step's config is invalid`);
    if (type === 'SEND_EMAIL') {
      try {
        await this.sending.template(projectId, config.templateId as string);
      } catch (err) {
        if ((err as DomainError).kind === 'not_found')
          throw WorkflowErrors.field(
            templateId ? 'templateId' : 'config.templateId',
            'no template of this project has this id',
            'TEMPLATE_NOT_FOUND',
          );
        throw err;
      }
    }
    if (type === 'CONDITION') {
      const condition = parseConditionStep(config);
      const ids = conditionStepReferences(condition).segments;
      if (ids.length === 0) return config;
      const known = await this.segments.known(projectId, ids, requestId);
      const unknown = filtersOf(condition).flatMap((f) => unknownSegments(f, known));
      if (unknown.length) throw WorkflowErrors.invalid(unknown, "The CONDITION step's config is invalid");
    }
    return config;
  }
}

const coordinatesOf = (p: StepCoordinates): StepCoordinates => ({ x: p.x, y: p.y });

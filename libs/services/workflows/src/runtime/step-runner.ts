import { createLogger, inTrace } from '@herald/core';
import { Inject, Injectable, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, EntityManager } from 'typeorm';
import { WORKFLOWS } from '../consumer.js';
import { nextStepId } from '../definitions/graph.js';
import { executionEvents } from '../executions/execution-events.js';
import { ExecutionsStore } from '../executions/executions.store.js';
import { RunnerWake } from '../executions/runner-wake.js';
import { StepBatch } from '../executions/step-batch.js';
import { StepRunsStore } from '../executions/step-runs.store.js';
import { StepScheduler } from '../executions/step-scheduler.js';
import { WORKFLOWS_SETTINGS, type WorkflowsSettings } from '../workflows.settings.js';
import { StepEffects, type StepOutcome, type StepTask } from './step-effects.js';

const log = createLogger('workflows.runner');

/**
 * The runtime: claims due step runs from PostgreSQL (`FOR UPDATE SKIP LOCKED`, on the partial index
 * of pending runs by due time), runs their effects and advances their executions, one batch per
 * transaction. A crash anywhere before the commit leaves the runs pending, to be claimed again:
 * emails are sent by idempotent key (`workflow:<executionId>:<stepId>`), so they go out once;
 * webhooks are called at least once with the run's id as `Idempotency-Key`.
 */
@Injectable()
export class StepRunner implements RunnerWake, OnApplicationBootstrap, OnApplicationShutdown {
  private stopped = true;
  private loops: Promise<void>[] = [];
  private wakers: (() => void)[] = [];

  constructor(
    @InjectDataSource(WORKFLOWS) private readonly db: DataSource,
    private readonly scheduler: StepScheduler,
    private readonly effects: StepEffects,
    @Inject(WORKFLOWS_SETTINGS) private readonly settings: WorkflowsSettings,
    private readonly runs: StepRunsStore,
    private readonly executions: ExecutionsStore,
  ) {}

  onApplicationBootstrap(): void {
    this.stopped = false;
    for (let i = 0; i < this.settings.WORKFLOWS_CONCURRENCY; i++) this.loops.push(this.loop());
  }

  async onApplicationShutdown(): Promise<void> {
    this.stopped = true;
    this.wake();
    await Promise.allSettled(this.loops);
  }

  /** Work became due now (an execution started, an awaited event arrived): look at once. */
  wake(): void {
    const w = this.wakers;
    this.wakers = [];
    w.forEach((f) => f());
  }

  private async loop(): Promise<void> {
    while (!this.stopped) {
      let n = 0;
      try {
        n = await this.tick();
      } catch (err) {
        log.error('a runtime batch failed', { err: String(err) });
      }
      if (n === 0 && !this.stopped)
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, this.settings.WORKFLOWS_POLL_MS);
          this.wakers.push(() => {
            clearTimeout(timer);
            resolve();
          });
        });
    }
  }

  /** Claims and runs one batch of due step runs; returns how many it claimed. */
  async tick(limit = this.settings.WORKFLOWS_BATCH): Promise<number> {
    return this.db.transaction(async (m) => {
      const runs = await this.runs.claimDue(m, limit);
      if (runs.length === 0) return 0;
      const executions = await this.executions.lockByIds(
        m,
        runs.map((r) => r.executionId),
      );
      const byId = new Map(executions.map((e) => [e.id, e]));
      const tasks: StepTask[] = [];
      const stale: string[] = [];
      for (const run of runs) {
        const e = byId.get(run.executionId);
        const v =
          e && (e.status === 'RUNNING' || e.status === 'WAITING')
            ? await this.scheduler.version(m, e.workflowId, e.graphVersion)
            : undefined;
        const step = v?.graph.steps.find((s) => s.id === run.stepId);
        if (!e || !v || !step) stale.push(run.id);
        else tasks.push({ run, execution: e, step, workflowName: v.name });
      }
      await this.runs.cancel(m, stale);
      const outcomes = await this.effects.runAll(tasks, m);
      const batch = new StepBatch();
      // each run's writes and workflow.* events carry its trace (ADR 0019), and so does its next step
      for (const t of tasks) await inTrace(t.run.traceparent, () => this.apply(m, t, outcomes.get(t.run.id)!, batch));
      await this.scheduler.flush(m, batch);
      return runs.length;
    });
  }

  private async apply(m: EntityManager, t: StepTask, o: StepOutcome, batch: StepBatch): Promise<void> {
    const { run, execution: e, step } = t;
    if (o.kind === 'retry') return batch.retryRun(run.id, o.error, o.delayMs, o.detail);
    const outcome = o.kind === 'next' ? o.outcome : o.kind === 'exit' ? 'exited' : 'failed';
    const detail = o.kind === 'next' || o.kind === 'fail' ? o.detail : undefined;
    batch.finishRun(run.id, o.kind === 'fail' ? 'FAILED' : 'DONE', outcome, o.kind === 'fail' ? o.error : null, detail);
    batch.events.push(
      executionEvents.stepCompleted(e, t.workflowName, {
        stepId: step.id,
        stepType: step.type,
        stepName: step.name,
        outcome,
        ...(detail && step.type !== 'CONDITION' ? { data: detail } : {}),
      }),
    );
    if (o.kind === 'fail') return batch.finish(e, t.workflowName, 'FAILED', `${step.name}: ${o.error}`);
    if (o.kind === 'exit') return batch.finish(e, t.workflowName, 'EXITED', o.reason);
    if (o.context) batch.setContext(e, o.context);
    const v = (await this.scheduler.version(m, e.workflowId, e.graphVersion))!;
    const next = nextStepId(v.graph, step.id, o.branch);
    const nextStep = next ? v.graph.steps.find((s) => s.id === next) : undefined;
    if (!nextStep) return batch.finish(e, t.workflowName, 'COMPLETED', null);
    batch.enter(e, t.workflowName, nextStep, false, run.traceparent);
  }
}

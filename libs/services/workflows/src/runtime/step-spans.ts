import { parseTraceparent, SpanKind, tracingEnabled, withSpan } from '@herald/core';
import type { StepTask } from './step-effects.js';

const attributes = (list: StepTask[]) => ({
  'herald.workflow.step_type': list[0]!.step.type,
  'herald.workflow.steps': list.length,
  ...(list.length === 1
    ? {
        'herald.workflow.id': list[0]!.execution.workflowId,
        'herald.workflow.execution_id': list[0]!.execution.id,
        'herald.workflow.step_id': list[0]!.step.id,
        'herald.workflow.step_run_id': list[0]!.run.id,
      }
    : {}),
});

/**
 * Runs claimed step runs of one type (one step, or a project's SEND_EMAIL steps sent in one intake
 * call) in a `workflow step <type>` span (ADR 0019), so what they call — `call sending.intake`,
 * contacts, and sending's SMTP hand-off after it — joins the trace of the event that started or
 * resumed their executions (each run's `traceparent`). Runs of one trace: the span is a child of the
 * first's context; runs of several traces: a trace of its own, linked to each. Untraced runs (or
 * tracing off): no span.
 */
export function stepSpan<T>(list: StepTask[], fn: () => Promise<T>): Promise<T> {
  const traced = list.filter((t) => t.run.traceparent);
  if (!tracingEnabled() || traced.length === 0) return fn();
  const traceIds = new Set(list.map((t) => parseTraceparent(t.run.traceparent)?.traceId));
  const oneTrace = traceIds.size === 1 && !traceIds.has(undefined);
  return withSpan(
    `workflow step ${list[0]!.step.type}`,
    {
      kind: SpanKind.INTERNAL,
      parent: oneTrace ? traced[0]!.run.traceparent! : null,
      ...(list.length > 1 ? { links: traced.map((t) => t.run.traceparent!) } : {}),
      attributes: attributes(list),
    },
    fn,
  );
}

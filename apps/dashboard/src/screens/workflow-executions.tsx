import { useEffect, useState } from 'preact/hooks';
import type { components } from '@herald/sdk';
import { api } from '../api.js';
import { Empty, ErrorNote, Loading, usePoll } from '../ui.js';
import type { Step } from './workflow-graph.js';

type Execution = components['schemas']['ExecutionView'];
const POLL_MS = 1500;
const ACTIVE = new Set(['RUNNING', 'WAITING']);

const when = (iso: string | null | undefined) => (iso ? new Date(iso).toLocaleString() : '—');

/**
 * A workflow's executions, newest first, with their states: followed while the workflow is enabled
 * (a tracked event may start one) or one of them is running or waiting. One opened shows its step
 * runs, and `onSteps` hands their statuses to the graph.
 */
export function Executions(props: {
  projectId: string;
  workflowId: string;
  enabled: boolean;
  steps: Step[];
  onSteps: (statuses: Record<string, string> | undefined) => void;
}) {
  const { projectId, workflowId } = props;
  const [open, setOpen] = useState<string | null>(null);
  const list = usePoll(
    () =>
      api(projectId).request('get', '/workflows/{id}/executions', { path: { id: workflowId }, query: { limit: 20 } }),
    (answer) => !props.enabled && !answer.data.some((x) => ACTIVE.has(x.status)),
    POLL_MS,
    [projectId, workflowId, props.enabled],
  );
  return (
    <section class="card wide" aria-labelledby="executions-heading">
      <h2 id="executions-heading">Executions</h2>
      {list.failure !== null && <ErrorNote error={list.failure} retry={list.reload} />}
      {list.data === null && list.failure === null && <Loading what="executions" />}
      {list.data &&
        (list.data.data.length === 0 ? (
          <Empty>
            {props.enabled
              ? 'No execution yet: one starts when the trigger event is tracked.'
              : 'No execution: enable the workflow to start them.'}
          </Empty>
        ) : (
          <table>
            <caption class="sr-only">Executions</caption>
            <thead>
              <tr>
                <th scope="col">Contact</th>
                <th scope="col">State</th>
                <th scope="col">Trigger</th>
                <th scope="col">Started</th>
                <th scope="col">Finished</th>
                <th scope="col">Steps</th>
              </tr>
            </thead>
            <tbody>
              {list.data.data.map((x) => (
                <tr key={x.id} data-execution={x.id} data-contact={x.email}>
                  <td>{x.email}</td>
                  <td>
                    <span class={`badge ${x.status.toLowerCase()}`} data-execution-status={x.status}>
                      {x.status.toLowerCase()}
                    </span>
                    {x.reason && <span class="muted"> {x.reason}</span>}
                  </td>
                  <td>{x.trigger}</td>
                  <td>{when(x.startedAt)}</td>
                  <td>{when(x.finishedAt)}</td>
                  <td>
                    <button type="button" class="link" onClick={() => setOpen(open === x.id ? null : x.id)}>
                      {open === x.id ? 'Hide' : 'Show'} steps
                      <span class="sr-only"> of the execution of {x.email}</span>
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        ))}
      {open && (
        <ExecutionSteps
          key={open}
          projectId={projectId}
          workflowId={workflowId}
          executionId={open}
          steps={props.steps}
          onSteps={props.onSteps}
        />
      )}
    </section>
  );
}

function ExecutionSteps(props: {
  projectId: string;
  workflowId: string;
  executionId: string;
  steps: Step[];
  onSteps: (statuses: Record<string, string> | undefined) => void;
}) {
  const one = usePoll(
    () =>
      api(props.projectId).request('get', '/workflows/{id}/executions/{executionId}', {
        path: { id: props.workflowId, executionId: props.executionId },
      }),
    (x: Execution) => !ACTIVE.has(x.status),
    POLL_MS,
    [props.projectId, props.workflowId, props.executionId],
  );
  const runs = one.data?.steps ?? [];
  useEffect(() => {
    if (one.data) props.onSteps(Object.fromEntries(runs.map((r) => [r.stepId, r.status])));
  }, [one.data]);
  useEffect(() => () => props.onSteps(undefined), []);
  const names = new Map(props.steps.map((s) => [s.id, s.name]));
  if (one.failure !== null) return <ErrorNote error={one.failure} retry={one.reload} />;
  if (!one.data) return <Loading what="the execution's steps" />;
  return (
    <table data-execution-steps={props.executionId}>
      <caption>Steps of the execution of {one.data.email}</caption>
      <thead>
        <tr>
          <th scope="col">Step</th>
          <th scope="col">State</th>
          <th scope="col">Outcome</th>
          <th scope="col">Finished</th>
        </tr>
      </thead>
      <tbody>
        {runs.map((r) => (
          <tr key={r.id} data-step-run={names.get(r.stepId) ?? r.stepId}>
            <td>
              {names.get(r.stepId) ?? r.stepId} <span class="muted">{r.type.toLowerCase().replace(/_/g, ' ')}</span>
            </td>
            <td>
              <span class={`badge ${r.status.toLowerCase()}`}>{r.status.toLowerCase()}</span>
            </td>
            <td>{r.error ?? r.outcome ?? ''}</td>
            <td>{when(r.finishedAt)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

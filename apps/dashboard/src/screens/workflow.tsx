import { useEffect, useState } from 'preact/hooks';
import type { components } from '@herald/sdk';
import { api, fieldErrors, isStatus } from '../api.js';
import { Empty, ErrorNote, Field, Loading, Page, RefusalAlert, useRefusal } from '../ui.js';
import { NotFound } from './projects.js';
import { SelectField } from './workflow-controls.js';
import { DryRun } from './workflow-dryrun.js';
import { Executions } from './workflow-executions.js';
import { layout, WorkflowGraph, type Step, type Transition } from './workflow-graph.js';
import { StepEditor } from './workflow-step.js';
import { eventNameOf } from './workflows.js';

type Workflow = components['schemas']['WorkflowView'];

/**
 * A workflow's page: its trigger and state (enable/disable), the `problems` the API reports, the
 * graph (SVG), the step editor (add, configure, remove), the transitions (connect, disconnect), the
 * dry run, and its executions with their states.
 */
export function WorkflowPage({ projectId, workflowId }: { projectId: string; workflowId: string }) {
  const [round, setRound] = useState(0);
  const [selected, setSelected] = useState<string | null>(null);
  const [statuses, setStatuses] = useState<Record<string, string> | undefined>(undefined);
  const [moveFailure, setMoveFailure] = useState<unknown>(null);
  // the workflow, read again after each change; the page keeps showing the last answer meanwhile
  const [w, setW] = useState<Workflow | null>(null);
  const [failure, setFailure] = useState<unknown>(null);
  useEffect(() => {
    let live = true;
    api(projectId)
      .workflows.get(workflowId)
      .then(
        (answer) => {
          if (!live) return;
          setW(answer);
          setFailure(null);
        },
        (error: unknown) => live && setFailure(error),
      );
    return () => {
      live = false;
    };
  }, [projectId, workflowId, round]);
  const reload = () => setRound((n) => n + 1);
  if (failure !== null && (isStatus(failure, 404) || isStatus(failure, 403))) return <NotFound />;
  if (failure !== null && !w) return <ErrorNote error={failure} retry={reload} />;
  if (!w || w.id !== workflowId) return <Loading what="the workflow" />;
  const steps = w.steps ?? [];
  const transitions = w.transitions ?? [];
  const eventName = eventNameOf(w.triggerConfig);
  const step = steps.find((s) => s.id === selected) ?? null;
  const { at } = layout(steps, transitions);
  const lowest = Math.max(-110, ...[...at.values()].map((p) => p.y));
  return (
    <Page title={w.name}>
      {failure !== null && <ErrorNote error={failure} retry={reload} />}
      <p>
        <span class={`badge ${w.enabled ? 'completed' : ''}`} data-workflow-enabled={String(w.enabled)}>
          {w.enabled ? 'enabled' : 'disabled'}
        </span>{' '}
        <span class="muted">version {w.version}</span>
      </p>
      <Trigger projectId={projectId} workflow={w} onSaved={reload} />
      <Problems problems={w.problems ?? []} steps={steps} />
      <section class="card wide" aria-labelledby="graph-heading">
        <h2 id="graph-heading">Graph</h2>
        {steps.length === 0 && <Empty>No step yet: add the first one below.</Empty>}
        {steps.length > 0 && <p class="muted">Drag a step to move it; click it to configure it.</p>}
        {moveFailure !== null && <ErrorNote error={moveFailure} />}
        <div class="graph-scroll">
          <WorkflowGraph
            eventName={eventName}
            steps={steps}
            transitions={transitions}
            selected={selected}
            statuses={statuses}
            onSelect={setSelected}
            onMove={(stepId, position) => {
              setMoveFailure(null);
              api(projectId)
                .request('patch', '/workflows/{id}/steps/{stepId}', { path: { id: w.id, stepId }, body: { position } })
                .then(reload, setMoveFailure);
            }}
          />
        </div>
        {steps.length > 0 && (
          <ul class="list" aria-label="Steps">
            {steps.map((s) => (
              <li key={s.id}>
                <button type="button" class="link" aria-pressed={selected === s.id} onClick={() => setSelected(s.id)}>
                  Configure {s.name}
                </button>{' '}
                <span class="muted">{s.type.toLowerCase().replace(/_/g, ' ')}</span>
              </li>
            ))}
          </ul>
        )}
        {step && (
          <button type="button" onClick={() => setSelected(null)}>
            Add another step
          </button>
        )}
      </section>
      <StepEditor
        key={step?.id ?? `new-${steps.length}`}
        projectId={projectId}
        workflowId={w.id}
        workflowName={w.name}
        eventName={eventName}
        step={step}
        position={{ x: at.get(steps.at(-1)?.id ?? '')?.x ?? 0, y: lowest + 110 }}
        onSaved={(s) => {
          setSelected(s.id);
          reload();
        }}
        onRemoved={() => {
          setSelected(null);
          reload();
        }}
      />
      <Connections projectId={projectId} workflowId={w.id} steps={steps} transitions={transitions} onChange={reload} />
      <DryRun projectId={projectId} workflowId={w.id} eventName={eventName} />
      <Executions projectId={projectId} workflowId={w.id} enabled={w.enabled} steps={steps} onSteps={setStatuses} />
      <p>
        <a href={`/app/p/${projectId}/workflows`}>All workflows</a>
      </p>
    </Page>
  );
}

/** The trigger's event name (`PATCH {eventName}`) and enabling/disabling (`PATCH {enabled}`, as sent). */
function Trigger({ projectId, workflow, onSaved }: { projectId: string; workflow: Workflow; onSaved: () => void }) {
  const [eventName, setEventName] = useState(eventNameOf(workflow.triggerConfig) ?? '');
  const [busy, setBusy] = useState(false);
  const refusal = useRefusal();
  const patch = async (body: { eventName?: string; enabled?: boolean }) => {
    setBusy(true);
    refusal.clear();
    try {
      await api(projectId).workflows.update(workflow.id, body);
      onSaved();
    } catch (error) {
      const byField = fieldErrors(error);
      if (byField['triggerConfig.eventName']) byField.eventName = byField['triggerConfig.eventName'];
      refusal.show(error, byField);
    } finally {
      setBusy(false);
    }
  };
  return (
    <form
      class="card wide"
      noValidate
      aria-labelledby="trigger-heading"
      onSubmit={(e) => {
        e.preventDefault();
        void patch({ eventName });
      }}
    >
      <h2 id="trigger-heading">Trigger</h2>
      <RefusalAlert message={refusal.message} />
      <div class="inline-form">
        <Field
          name="eventName"
          label="Trigger event name"
          value={eventName}
          error={refusal.fields.eventName}
          onInput={setEventName}
        />
        <button type="submit" disabled={busy}>
          Save trigger
        </button>
      </div>
      <button type="button" disabled={busy} onClick={() => void patch({ enabled: !workflow.enabled })}>
        {workflow.enabled ? 'Disable workflow' : 'Enable workflow'}
      </button>
    </form>
  );
}

function Problems({ problems, steps }: { problems: NonNullable<Workflow['problems']>; steps: Step[] }) {
  if (problems.length === 0)
    return (
      <p class="muted" data-problems="0">
        No problem found in the graph.
      </p>
    );
  const names = new Map(steps.map((s) => [s.id, s.name]));
  return (
    <section class="notice" aria-labelledby="problems-heading" data-problems={problems.length}>
      <h2 id="problems-heading">Problems</h2>
      <ul>
        {problems.map((p, i) => (
          <li key={i} data-problem={p.code}>
            {p.stepId && <strong>{names.get(p.stepId) ?? p.stepId}: </strong>}
            {p.message}
          </li>
        ))}
      </ul>
    </section>
  );
}

/** The ways a step's transitions may leave by (docs/workflows.md, Graph rules); [] when it takes none. */
function branchesOf(step: Step | undefined): string[] {
  if (!step) return [];
  const c = step.config as { branches?: { id: string }[]; timeout?: number };
  if (step.type === 'CONDITION') return c.branches ? [...c.branches.map((b) => b.id), 'default'] : ['yes', 'no'];
  if (step.type === 'WAIT_FOR_EVENT') return c.timeout ? ['event', 'timeout'] : ['event'];
  return [];
}

/** The transitions listed (each removable) and the form connecting two steps (`POST …/transitions`). */
function Connections(props: {
  projectId: string;
  workflowId: string;
  steps: Step[];
  transitions: Transition[];
  onChange: () => void;
}) {
  const { steps } = props;
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const [branch, setBranch] = useState('');
  const [busy, setBusy] = useState(false);
  const refusal = useRefusal();
  const fromId = from || steps[0]?.id || '';
  const toId = to || steps.find((s) => s.id !== fromId)?.id || '';
  const branches = branchesOf(steps.find((s) => s.id === fromId));
  const chosenBranch = branches.includes(branch) ? branch : (branches[0] ?? '');
  const names = new Map(steps.map((s) => [s.id, s.name]));
  const run = async (call: () => Promise<unknown>) => {
    setBusy(true);
    refusal.clear();
    try {
      await call();
      props.onChange();
    } catch (error) {
      refusal.show(error, fieldErrors(error));
    } finally {
      setBusy(false);
    }
  };
  const connect = () =>
    api(props.projectId).request('post', '/workflows/{id}/transitions', {
      path: { id: props.workflowId },
      body: { fromStepId: fromId, toStepId: toId, ...(chosenBranch ? { branch: chosenBranch } : {}) },
    });
  const disconnect = (transitionId: string) =>
    api(props.projectId).request('delete', '/workflows/{id}/transitions/{transitionId}', {
      path: { id: props.workflowId, transitionId },
    });
  return (
    <form
      class="card wide"
      noValidate
      aria-labelledby="connect-heading"
      onSubmit={(e) => {
        e.preventDefault();
        void run(connect);
      }}
    >
      <h2 id="connect-heading">Transitions</h2>
      <RefusalAlert message={refusal.message} />
      {props.transitions.length === 0 ? (
        <Empty>No transition yet.</Empty>
      ) : (
        <ul class="list">
          {props.transitions.map((t) => (
            <li key={t.id} data-transition={`${names.get(t.fromStepId)}->${names.get(t.toStepId)}`}>
              {names.get(t.fromStepId)} → {names.get(t.toStepId)} {t.branch && <span class="badge">{t.branch}</span>}{' '}
              <button type="button" class="link" disabled={busy} onClick={() => void run(() => disconnect(t.id))}>
                Remove
              </button>
            </li>
          ))}
        </ul>
      )}
      {steps.length < 2 ? (
        <Empty>Add two steps to connect them.</Empty>
      ) : (
        <div class="inline-form">
          <SelectField
            name="fromStepId"
            label="From"
            value={fromId}
            error={refusal.fields.fromStepId}
            onChange={setFrom}
          >
            {steps.map((s) => (
              <option key={s.id} value={s.id}>
                {s.name}
              </option>
            ))}
          </SelectField>
          {branches.length > 0 && (
            <SelectField
              name="branch"
              label="Branch"
              value={chosenBranch}
              error={refusal.fields.branch}
              onChange={setBranch}
            >
              {branches.map((b) => (
                <option key={b} value={b}>
                  {b}
                </option>
              ))}
            </SelectField>
          )}
          <SelectField name="toStepId" label="To" value={toId} error={refusal.fields.toStepId} onChange={setTo}>
            {steps.map((s) => (
              <option key={s.id} value={s.id}>
                {s.name}
              </option>
            ))}
          </SelectField>
          <button type="submit" disabled={busy}>
            Connect
          </button>
        </div>
      )}
    </form>
  );
}

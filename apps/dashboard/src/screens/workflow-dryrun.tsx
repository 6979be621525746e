import { useState } from 'preact/hooks';
import type { Result } from '@herald/sdk';
import { api, fieldErrors } from '../api.js';
import { Empty, Field, RefusalAlert, useRefusal } from '../ui.js';
import { TextField } from './workflow-controls.js';

type DryRun = Result<'simulateSimulate'>;

/**
 * The dry run (`POST /workflows/:id/simulate`): the current graph walked on a virtual clock for a
 * contact (by address, with data) and the trigger event's data, with no side effect; shown step by
 * step (virtual time, outcome, what a condition read), then the emails it would send.
 */
export function DryRun(props: { projectId: string; workflowId: string; eventName: string | undefined }) {
  const [email, setEmail] = useState('');
  const [eventData, setEventData] = useState('{}');
  const [busy, setBusy] = useState(false);
  const [run, setRun] = useState<DryRun | null>(null);
  const refusal = useRefusal('The dry run was refused: see the fields below.');
  const submit = async (e: Event) => {
    e.preventDefault();
    refusal.clear();
    setRun(null);
    let data: Record<string, unknown>;
    try {
      data = JSON.parse(eventData || '{}') as Record<string, unknown>;
    } catch {
      refusal.show(null, { 'event.data': 'not JSON: write an object, e.g. {"plan": "pro"}' });
      return;
    }
    setBusy(true);
    try {
      setRun(
        await api(props.projectId).request('post', '/workflows/{id}/simulate', {
          path: { id: props.workflowId },
          body: {
            contact: { email, data: {} },
            ...(props.eventName ? { event: { name: props.eventName, data } } : {}),
          },
        }),
      );
    } catch (error) {
      refusal.show(error, fieldErrors(error));
    } finally {
      setBusy(false);
    }
  };
  const f = refusal.fields;
  return (
    <form class="card wide" onSubmit={(e) => void submit(e)} noValidate aria-labelledby="dryrun-heading">
      <h2 id="dryrun-heading">Dry run</h2>
      <p class="muted">Walks the graph on a virtual clock: nothing is sent, no contact changes.</p>
      <RefusalAlert message={refusal.message} />
      <Field
        name="contact.email"
        type="email"
        label="Contact's address"
        value={email}
        error={f['contact.email'] ?? f.contact}
        onInput={setEmail}
      />
      <TextField
        name="event.data"
        label={`Data of the ${props.eventName ?? 'trigger'} event (JSON)`}
        value={eventData}
        error={f['event.data'] ?? f.event}
        onInput={setEventData}
      />
      <button type="submit" disabled={busy}>
        {busy ? 'Running…' : 'Run dry'}
      </button>
      {run && <DryRunResult run={run} />}
    </form>
  );
}

function DryRunResult({ run }: { run: DryRun }) {
  return (
    <div role="status" data-dryrun-status={run.status}>
      <h3>
        Ended <span class={`badge ${run.status.toLowerCase()}`}>{run.status.toLowerCase()}</span>{' '}
        <span class="muted">at {new Date(run.endedAt).toLocaleString()}</span>
      </h3>
      {run.path.length === 0 ? (
        <Empty>No step ran.</Empty>
      ) : (
        <ol class="list">
          {run.path.map((s, i) => (
            <li key={i} data-dryrun-step={s.name}>
              <strong>{s.name}</strong> <span class="muted">{s.type.toLowerCase().replace(/_/g, ' ')}</span> →{' '}
              <span data-outcome>{s.outcome}</span> <span class="muted">at {new Date(s.at).toLocaleString()}</span>
              {s.why && Object.keys(s.why).length > 0 && <code class="long"> {JSON.stringify(s.why)}</code>}
            </li>
          ))}
        </ol>
      )}
      {run.emails.length > 0 && (
        <>
          <h3>Emails</h3>
          <ul class="list">
            {run.emails.map((m, i) => (
              <li key={i} data-dryrun-email={m.to}>
                to {m.to}: {m.subject ?? '(no subject)'}
                {m.skipped && <span class="muted"> (skipped: {m.skipped})</span>}
              </li>
            ))}
          </ul>
        </>
      )}
    </div>
  );
}

import { useLocation } from 'preact-iso';
import { useState } from 'preact/hooks';
import { api, fieldErrors, isStatus } from '../api.js';
import { Empty, ErrorNote, Field, Loading, Page, RefusalAlert, useLoad, useRefusal } from '../ui.js';
import { NotFound } from './projects.js';

/**
 * Screen 7 (issue 43): a project's workflows and the form creating one; a workflow's page is
 * `workflow.tsx`. Loaded on demand (app.tsx), off the first screen's JavaScript.
 */
export function Workflows({ projectId }: { projectId: string }) {
  const workflows = useLoad(() => api(projectId).workflows.list(), [projectId]);
  return (
    <Page title="Workflows">
      {workflows.state === 'loading' && <Loading what="workflows" />}
      {workflows.state === 'error' &&
        (isStatus(workflows.error, 403) ? (
          <NotFound />
        ) : (
          <ErrorNote error={workflows.error} retry={workflows.reload} />
        ))}
      {workflows.state === 'ready' &&
        (workflows.data.length === 0 ? (
          <Empty>No workflow yet: create the first one below.</Empty>
        ) : (
          <table>
            <caption class="sr-only">Workflows</caption>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Trigger event</th>
                <th scope="col">State</th>
              </tr>
            </thead>
            <tbody>
              {workflows.data.map((w) => (
                <tr key={w.id} data-workflow={w.name}>
                  <td>
                    <a href={`/app/p/${projectId}/workflows/${w.id}`}>{w.name}</a>
                  </td>
                  <td>{eventNameOf(w.triggerConfig) ?? <span class="muted">none</span>}</td>
                  <td>
                    <span class={`badge ${w.enabled ? 'completed' : ''}`}>{w.enabled ? 'enabled' : 'disabled'}</span>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        ))}
      <CreateWorkflow projectId={projectId} />
    </Page>
  );
}

/** The trigger's event name of a workflow (`triggerConfig.eventName`), if it has one. */
export const eventNameOf = (triggerConfig: Record<string, unknown>): string | undefined =>
  typeof triggerConfig.eventName === 'string' ? triggerConfig.eventName : undefined;

function CreateWorkflow({ projectId }: { projectId: string }) {
  const { route } = useLocation();
  const [name, setName] = useState('');
  const [eventName, setEventName] = useState('');
  const [busy, setBusy] = useState(false);
  const refusal = useRefusal();
  const submit = async (e: Event) => {
    e.preventDefault();
    setBusy(true);
    refusal.clear();
    try {
      const created = await api(projectId).workflows.create({ name, ...(eventName ? { eventName } : {}) });
      route(`/app/p/${projectId}/workflows/${created.id}`);
    } catch (error) {
      refusal.show(error, fieldErrors(error));
    } finally {
      setBusy(false);
    }
  };
  return (
    <form class="card" onSubmit={(e) => void submit(e)} noValidate aria-labelledby="new-workflow-heading">
      <h2 id="new-workflow-heading">New workflow</h2>
      <RefusalAlert message={refusal.message} />
      <Field name="name" label="Workflow name" value={name} error={refusal.fields.name} required onInput={setName} />
      <Field
        name="eventName"
        label="Trigger event name"
        value={eventName}
        error={refusal.fields.eventName ?? refusal.fields['triggerConfig.eventName']}
        onInput={setEventName}
      />
      <button type="submit" disabled={busy}>
        {busy ? 'Creating…' : 'Create workflow'}
      </button>
    </form>
  );
}

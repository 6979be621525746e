import { useEffect, useState } from 'preact/hooks';
import { api, messageOf } from '../api.js';
import { ErrorNote, usePoll } from '../ui.js';

export type BulkAction = 'subscribe' | 'unsubscribe' | 'delete';
const POLL_MS = 400;

const ROUTES = {
  subscribe: '/contacts/bulk-subscribe',
  unsubscribe: '/contacts/bulk-unsubscribe',
  delete: '/contacts/bulk-delete',
} as const;

/**
 * The bulk actions on the selected contacts: `POST /contacts/bulk-{subscribe,unsubscribe,delete}`
 * (a queued job), then the job followed (`GET /contacts/bulk/:jobId`) with a progress bar to done;
 * `onDone` when it is (the list reloads). Deleting asks for a confirmation first.
 */
export function BulkActions(props: { projectId: string; selected: string[]; onDone: () => void }) {
  const { projectId, selected } = props;
  const [job, setJob] = useState<{ id: string; action: BulkAction } | null>(null);
  const [failure, setFailure] = useState<unknown>(null);
  const [confirming, setConfirming] = useState(false);
  const start = async (action: BulkAction) => {
    setFailure(null);
    setConfirming(false);
    try {
      const started = await api(projectId).request('post', ROUTES[action], { body: { contactIds: selected } });
      setJob({ id: started.jobId, action });
    } catch (error) {
      setFailure(error);
    }
  };
  const none = selected.length === 0;
  return (
    <div class="bulk" role="group" aria-label="Bulk actions">
      <span class="muted">{selected.length} selected</span>{' '}
      <button type="button" disabled={none} onClick={() => void start('subscribe')}>
        Subscribe
      </button>{' '}
      <button type="button" disabled={none} onClick={() => void start('unsubscribe')}>
        Unsubscribe
      </button>{' '}
      {confirming ? (
        <>
          <button type="button" class="danger" onClick={() => void start('delete')}>
            Delete {selected.length} contact(s) for good
          </button>{' '}
          <button type="button" onClick={() => setConfirming(false)}>
            Keep them
          </button>
        </>
      ) : (
        <button type="button" disabled={none} onClick={() => setConfirming(true)}>
          Delete…
        </button>
      )}
      {failure !== null && <ErrorNote error={failure} />}
      {job && (
        <BulkProgress key={job.id} projectId={projectId} jobId={job.id} action={job.action} onDone={props.onDone} />
      )}
    </div>
  );
}

function BulkProgress(props: { projectId: string; jobId: string; action: BulkAction; onDone: () => void }) {
  const poll = usePoll(
    () => api(props.projectId).request('get', '/contacts/bulk/{jobId}', { path: { jobId: props.jobId } }),
    (answer) => answer.status !== 'queued',
    POLL_MS,
    [props.projectId, props.jobId],
  );
  const state = poll.data;
  useEffect(() => {
    if (state && state.status !== 'queued') props.onDone();
  }, [state]);
  if (poll.failure !== null)
    return (
      <p class="error" role="alert">
        {messageOf(poll.failure)}
      </p>
    );
  const done = state ? state.succeeded + state.unchanged + state.failed : 0;
  const total = state?.total ?? 0;
  return (
    <div class="card" data-bulk-status={state?.status ?? 'starting'}>
      <progress
        max={total || 1}
        value={state?.status === 'completed' ? total || 1 : done}
        aria-label={`Bulk ${props.action} progress`}
      />{' '}
      <span role="status">
        {!state
          ? 'Starting…'
          : state.status === 'queued'
            ? `${props.action}: ${done} of ${total}…`
            : `${props.action} ${state.status}: ${state.succeeded} changed, ${state.unchanged} unchanged, ${state.failed} failed`}
      </span>
      {state && state.errors.length > 0 && (
        <ul>
          {state.errors.map((e) => (
            <li key={e.contactId}>
              {e.contactId}: {e.reason.replace(/_/g, ' ')}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

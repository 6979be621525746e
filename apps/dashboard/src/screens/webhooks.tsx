import { useEffect, useState } from 'preact/hooks';
import type { Body, Result } from '@herald/sdk';
import { api, fieldErrors } from '../api.js';
import { Empty, ErrorNote, Field, Loading, Page, RefusalAlert, useLoad, useRefusal } from '../ui.js';
import { Deliveries } from './webhook-deliveries.js';

type Endpoint = Result<'endpointsList'>['data'][number];
type EventType = Body<'endpointsCreate'>['eventTypes'][number];
export const EVENT_TYPES: EventType[] = [
  'email.sent',
  'email.delivered',
  'email.opened',
  'email.clicked',
  'email.bounced',
  'email.complained',
  'email.failed',
  'email.received',
  'contact.created',
  'contact.updated',
  'contact.subscribed',
  'contact.unsubscribed',
  'contact.deleted',
  'segment.entered',
  'segment.exited',
  'workflow.started',
  'workflow.finished',
  'campaign.sending',
  'campaign.sent',
];

/**
 * Screen 10: the project's webhook endpoints (`/webhooks/endpoints`): create one with the events it
 * receives (its signing secret shown once), enable/disable, delete; an endpoint opened shows its
 * delivery log with test and replay (webhook-deliveries.tsx).
 */
export function Webhooks({ projectId }: { projectId: string }) {
  const [round, setRound] = useState(0);
  const [created, setCreated] = useState<{ id: string; secret: string } | null>(null);
  const endpoints = useLoad(
    () => api(projectId).request('get', '/webhooks/endpoints', { query: { limit: 100 } }),
    [projectId, round],
  );
  return (
    <Page title="Webhooks">
      <CreateEndpoint
        projectId={projectId}
        onCreated={(e) => {
          setCreated(e);
          setRound((n) => n + 1);
        }}
      />
      {created && (
        <div class="card wide secret" role="status" data-endpoint-secret={created.id}>
          <p>
            The endpoint's signing secret, shown this once: verify each delivery's <code>webhook-signature</code> with
            it.
          </p>
          <code data-secret>{created.secret}</code>{' '}
          <button type="button" class="secondary" onClick={() => setCreated(null)}>
            I have kept it
          </button>
        </div>
      )}
      <h2>Endpoints</h2>
      {endpoints.state === 'loading' ? (
        <Loading what="the endpoints" />
      ) : endpoints.state === 'error' ? (
        <ErrorNote error={endpoints.error} retry={endpoints.reload} />
      ) : endpoints.data.data.length === 0 ? (
        <Empty>No endpoint yet: add one above to receive the project's events.</Empty>
      ) : (
        endpoints.data.data.map((e) => (
          <EndpointCard
            key={e.id}
            projectId={projectId}
            endpoint={e}
            onChanged={() => setRound((n) => n + 1)}
            onSecret={setCreated}
          />
        ))
      )}
    </Page>
  );
}

function CreateEndpoint({
  projectId,
  onCreated,
}: {
  projectId: string;
  onCreated: (e: { id: string; secret: string }) => void;
}) {
  const [url, setUrl] = useState('');
  const [description, setDescription] = useState('');
  const [events, setEvents] = useState<EventType[]>([]);
  const [busy, setBusy] = useState(false);
  const refusal = useRefusal();
  const submit = async (e: Event) => {
    e.preventDefault();
    setBusy(true);
    refusal.clear();
    try {
      const answer = await api(projectId).request('post', '/webhooks/endpoints', {
        body: { url, eventTypes: events, ...(description ? { description } : {}) },
      });
      setUrl('');
      setDescription('');
      setEvents([]);
      onCreated({ id: answer.id, secret: answer.secret });
    } catch (error) {
      refusal.show(error, fieldErrors(error));
    } finally {
      setBusy(false);
    }
  };
  return (
    <form class="card wide" onSubmit={(e) => void submit(e)} aria-labelledby="new-endpoint-heading">
      <h2 id="new-endpoint-heading">Add an endpoint</h2>
      <RefusalAlert message={refusal.message} />
      <Field name="url" label="URL" value={url} error={refusal.fields.url} required onInput={setUrl} />
      <Field
        name="description"
        label="Description"
        value={description}
        error={refusal.fields.description}
        onInput={setDescription}
      />
      <fieldset
        class="events"
        aria-invalid={refusal.fields.eventTypes ? 'true' : undefined}
        aria-describedby={refusal.fields.eventTypes ? 'field-eventTypes-error' : undefined}
      >
        <legend>Events</legend>
        {EVENT_TYPES.map((t) => (
          <label key={t}>
            <input
              type="checkbox"
              name="eventTypes"
              value={t}
              checked={events.includes(t)}
              onChange={(e) =>
                setEvents(
                  (e.target as HTMLInputElement).checked
                    ? EVENT_TYPES.filter((x) => x === t || events.includes(x))
                    : events.filter((x) => x !== t),
                )
              }
            />{' '}
            {t}
          </label>
        ))}
        {refusal.fields.eventTypes && (
          <p class="field-error" id="field-eventTypes-error">
            {refusal.fields.eventTypes}
          </p>
        )}
      </fieldset>
      <button type="submit" disabled={busy}>
        {busy ? 'Adding…' : 'Add endpoint'}
      </button>
    </form>
  );
}

function EndpointCard({
  projectId,
  endpoint,
  onChanged,
  onSecret,
}: {
  projectId: string;
  endpoint: Endpoint;
  onChanged: () => void;
  onSecret: (e: { id: string; secret: string }) => void;
}) {
  const [rotating, setRotating] = useState(false);
  const [open, setOpen] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<unknown>(null);
  const [state, setState] = useState(endpoint);
  useEffect(() => setState(endpoint), [endpoint]);
  const act = async (what: () => Promise<unknown>) => {
    setBusy(true);
    setFailure(null);
    try {
      await what();
    } catch (error) {
      setFailure(error);
    } finally {
      setBusy(false);
    }
  };
  const toggle = () =>
    act(async () =>
      setState(
        await api(projectId).request('patch', '/webhooks/endpoints/{id}', {
          path: { id: endpoint.id },
          body: { enabled: !state.enabled },
        }),
      ),
    );
  const rotate = () =>
    act(async () => {
      const answer = await api(projectId).request('post', '/webhooks/endpoints/{id}/rotate-secret', {
        path: { id: endpoint.id },
      });
      setRotating(false);
      onSecret({ id: answer.id, secret: answer.secret });
    });
  const remove = () =>
    act(async () => {
      await api(projectId).request('delete', '/webhooks/endpoints/{id}', { path: { id: endpoint.id } });
      onChanged();
    });
  return (
    <section
      class="card wide"
      aria-label={`Endpoint ${state.url}`}
      data-endpoint={state.id}
      data-enabled={String(state.enabled)}
    >
      <h3>
        <code>{state.url}</code>
      </h3>
      <p>
        <span class={`badge ${state.enabled ? state.status : 'disabled'}`}>
          {state.enabled ? state.status : 'disabled'}
        </span>{' '}
        {state.description && <span class="muted">{state.description}</span>}
      </p>
      <p class="muted">{state.eventTypes.join(', ')}</p>
      {failure !== null && <ErrorNote error={failure} />}
      <button type="button" disabled={busy} onClick={() => void toggle()}>
        {state.enabled ? 'Disable' : 'Enable'}
      </button>{' '}
      <button type="button" aria-expanded={open} onClick={() => setOpen(!open)}>
        {open ? 'Hide deliveries' : 'Deliveries'}
      </button>{' '}
      {rotating ? (
        <>
          <button type="button" class="danger" disabled={busy} onClick={() => void rotate()}>
            Yes, a new secret (the old one signs beside it for 24 hours)
          </button>{' '}
          <button type="button" class="secondary" onClick={() => setRotating(false)}>
            Keep the secret
          </button>
        </>
      ) : (
        <button type="button" class="secondary" onClick={() => setRotating(true)}>
          Rotate secret
        </button>
      )}{' '}
      {confirming ? (
        <>
          <button type="button" class="danger" disabled={busy} onClick={() => void remove()}>
            Yes, delete this endpoint
          </button>{' '}
          <button type="button" class="secondary" onClick={() => setConfirming(false)}>
            Keep it
          </button>
        </>
      ) : (
        <button type="button" class="secondary" onClick={() => setConfirming(true)}>
          Delete
        </button>
      )}
      {open && <Deliveries projectId={projectId} endpointId={state.id} />}
    </section>
  );
}

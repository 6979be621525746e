import { useState } from 'preact/hooks';
import type { Result } from '@herald/sdk';
import { api } from '../api.js';
import { Empty, ErrorNote, Loading, usePoll } from '../ui.js';

type Delivery = Result<'deliveriesLog'>['data'][number];
const POLL_MS = 1000;

/**
 * An endpoint's delivery log (`GET …/deliveries`, newest first), read again every second while one
 * is pending; **Send a test event** (`POST …/test`) and **Replay** of one delivery (`POST
 * …/deliveries/:id/replay`: pending again, attempted at once).
 */
export function Deliveries({ projectId, endpointId }: { projectId: string; endpointId: string }) {
  const [actionFailure, setActionFailure] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const poll = usePoll(
    () =>
      api(projectId).request('get', '/webhooks/endpoints/{id}/deliveries', {
        path: { id: endpointId },
        query: { limit: 50 },
      }),
    (answer) => !answer.data.some((d) => d.status === 'pending'),
    POLL_MS,
    [projectId, endpointId],
  );
  const log = poll.data;
  const act = async (what: () => Promise<unknown>) => {
    setBusy(true);
    setActionFailure(null);
    try {
      await what();
      poll.reload();
    } catch (error) {
      setActionFailure(error);
    } finally {
      setBusy(false);
    }
  };
  const test = () =>
    act(() => api(projectId).request('post', '/webhooks/endpoints/{id}/test', { path: { id: endpointId } }));
  const replay = (d: Delivery) =>
    act(() =>
      api(projectId).request('post', '/webhooks/endpoints/{id}/deliveries/{deliveryId}/replay', {
        path: { id: endpointId, deliveryId: d.id },
      }),
    );
  return (
    <div class="deliveries" data-deliveries={endpointId}>
      <h4>Delivery log</h4>
      <button type="button" disabled={busy} onClick={() => void test()}>
        Send a test event
      </button>{' '}
      <button type="button" class="secondary" onClick={poll.reload}>
        Refresh
      </button>
      {actionFailure !== null && <ErrorNote error={actionFailure} />}
      {poll.failure !== null ? (
        <ErrorNote error={poll.failure} retry={poll.reload} />
      ) : !log ? (
        <Loading what="the deliveries" />
      ) : log.data.length === 0 ? (
        <Empty>No delivery yet: send a test event, or wait for one of its events.</Empty>
      ) : (
        <table>
          <thead>
            <tr>
              <th scope="col">Event</th>
              <th scope="col">Status</th>
              <th scope="col">Attempts</th>
              <th scope="col">Answer</th>
              <th scope="col">Last attempt</th>
              <th scope="col">
                <span class="sr-only">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {log.data.map((d) => (
              <tr key={d.id} data-delivery={d.id} data-status={d.status} data-attempts={d.attempts}>
                <td>
                  {d.eventType}
                  <br />
                  <code class="muted">{d.eventId}</code>
                </td>
                <td>
                  <span class={`badge ${d.status}`}>{d.status}</span>
                </td>
                <td>{d.attempts}</td>
                <td>
                  {d.responseStatus !== null ? `HTTP ${d.responseStatus}` : (d.error ?? '—')}
                  {d.latencyMs !== null && <span class="muted"> in {d.latencyMs} ms</span>}
                </td>
                <td>{d.lastAttemptAt ? new Date(d.lastAttemptAt).toLocaleString() : '—'}</td>
                <td>
                  <button
                    type="button"
                    class="secondary"
                    disabled={busy || d.status === 'pending'}
                    aria-label={`Replay ${d.eventType} ${d.eventId}`}
                    onClick={() => void replay(d)}
                  >
                    Replay
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </div>
  );
}

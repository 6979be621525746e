import { useState } from 'preact/hooks';
import { api, fieldErrors } from '../api.js';
import { ErrorNote } from '../ui.js';

/** The browser's time zone, in which a schedule is entered and shown. */
export const timeZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone;

/** An instant as the user reads it: date and time in their time zone, the zone named. */
export function localTime(iso: string): string {
  return `${new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' })} (${timeZone()})`;
}

/** `YYYY-MM-DDTHH:mm` of a date in the browser's zone: a datetime-local input's value. */
function inputValue(d: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/**
 * Send later: a date and time in the user's time zone, sent as an ISO 8601 instant (`scheduledFor`);
 * on a scheduled campaign it reschedules. The API's refusal (a past or unreadable time) on the field.
 */
export function Schedule({
  projectId,
  campaignId,
  scheduledAt,
  onScheduled,
}: {
  projectId: string;
  campaignId: string;
  scheduledAt: string | null;
  onScheduled: () => void;
}) {
  const [when, setWhen] = useState(() =>
    inputValue(scheduledAt ? new Date(scheduledAt) : new Date(Date.now() + 60 * 60_000)),
  );
  const [busy, setBusy] = useState(false);
  const [fields, setFields] = useState<Record<string, string>>({});
  const [failure, setFailure] = useState<unknown>(null);
  const submit = async (e: Event) => {
    e.preventDefault();
    setBusy(true);
    setFields({});
    setFailure(null);
    const at = new Date(when); // a datetime-local value reads in the browser's zone
    try {
      await api(projectId).request('post', '/campaigns/{id}/send', {
        path: { id: campaignId },
        body: { scheduledFor: Number.isNaN(at.getTime()) ? when : at.toISOString() },
      });
      onScheduled();
    } catch (error) {
      const byField = fieldErrors(error);
      if (Object.keys(byField).length) setFields(byField);
      else setFailure(error);
    } finally {
      setBusy(false);
    }
  };
  const error = fields.scheduledFor;
  return (
    <form class="card" onSubmit={(e) => void submit(e)} aria-labelledby="schedule-heading">
      <h2 id="schedule-heading">{scheduledAt ? 'Reschedule' : 'Schedule'}</h2>
      {failure !== null && <ErrorNote error={failure} />}
      <div class="field">
        <label for="field-scheduledFor">Send at (your time zone, {timeZone()})</label>
        <input
          id="field-scheduledFor"
          type="datetime-local"
          required
          value={when}
          aria-invalid={error ? 'true' : undefined}
          aria-describedby={error ? 'field-scheduledFor-error' : undefined}
          onInput={(e) => setWhen((e.target as HTMLInputElement).value)}
        />
        {error && (
          <p class="field-error" id="field-scheduledFor-error">
            {error}
          </p>
        )}
      </div>
      <button type="submit" disabled={busy}>
        {busy ? 'Scheduling…' : scheduledAt ? 'Reschedule' : 'Schedule'}
      </button>
    </form>
  );
}

/** Cancel a scheduled or sending campaign, after a confirmation: what is still pending is never sent. */
export function Cancel({
  projectId,
  campaignId,
  sending,
  onCancelled,
}: {
  projectId: string;
  campaignId: string;
  sending: boolean;
  onCancelled: () => void;
}) {
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<unknown>(null);
  const cancel = async () => {
    setBusy(true);
    setFailure(null);
    try {
      await api(projectId).request('post', '/campaigns/{id}/cancel', { path: { id: campaignId } });
      onCancelled();
    } catch (error) {
      setFailure(error);
    } finally {
      setBusy(false);
    }
  };
  return (
    <section class="card" aria-labelledby="cancel-heading">
      <h2 id="cancel-heading">Cancel</h2>
      {failure !== null && <ErrorNote error={failure} />}
      {confirming ? (
        <>
          <p>
            {sending
              ? 'The emails not handed over yet will not be sent (those already sent stay sent).'
              : 'The campaign will not be sent. To send it later, duplicate it.'}
          </p>
          <button type="button" disabled={busy} onClick={() => void cancel()}>
            Yes, cancel the campaign
          </button>{' '}
          <button type="button" onClick={() => setConfirming(false)}>
            Keep it
          </button>
        </>
      ) : (
        <button type="button" onClick={() => setConfirming(true)}>
          Cancel the campaign
        </button>
      )}
    </section>
  );
}

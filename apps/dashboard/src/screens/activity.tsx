import { useEffect, useState } from 'preact/hooks';
import type { Query, Result } from '@herald/sdk';
import { api, fieldErrors, messageOf } from '../api.js';
import { Empty, ErrorNote, Field, Loading, Page, RefusalAlert, useLoad, useRefusal } from '../ui.js';

type Item = Result<'activityList'>['data'][number];
type ActivityType = NonNullable<Query<'activityList'>['type']>[number];
const TYPES: ActivityType[] = [
  'email.sent',
  'email.delivered',
  'email.opened',
  'email.clicked',
  'email.bounced',
  'email.complained',
  'email.failed',
  'email.received',
  'contact.created',
  'contact.deleted',
  'contact.subscribed',
  'contact.unsubscribed',
  'event.tracked',
  'segment.entered',
  'segment.exited',
  'workflow.started',
  'workflow.step.completed',
  'workflow.finished',
];
const PAGE = 25;

interface Filters {
  type: ActivityType | '';
  contactId: string;
  from: string;
  to: string;
}
const NO_FILTER: Filters = { type: '', contactId: '', from: '', to: '' };

/** The contact filter as typed: an address is looked up (`GET /contacts?search=`), anything else is an id. */
async function contactOf(projectId: string, typed: string): Promise<string> {
  const text = typed.trim();
  if (!text.includes('@')) return text;
  const found = await api(projectId).contacts.list({ search: text, limit: 10 });
  const contact = found.data.find((c) => c.email.toLowerCase() === text.toLowerCase());
  if (!contact) throw new Error(`No contact has the address ${text}`);
  return contact.id;
}

/** `datetime-local` (the browser's zone) to the API's ISO instant; '' stays unset. */
const instant = (local: string) => (local ? new Date(local).toISOString() : undefined);

/**
 * Screen 9, the feed: `GET /activity` filtered by type, contact and time range, a cursor page at a
 * time ("Show more" appends the next), and what is coming (`GET /activity/upcoming`).
 */
export function Activity({ projectId }: { projectId: string }) {
  const [draft, setDraft] = useState<Filters>(NO_FILTER);
  const [applied, setApplied] = useState<Filters>(NO_FILTER);
  const [round, setRound] = useState(0);
  const refusal = useRefusal('The filters were refused: see the fields.');
  return (
    <Page title="Activity">
      <form
        class="card wide filters"
        aria-label="Filter the activity"
        onSubmit={(e) => {
          e.preventDefault();
          refusal.clear();
          void contactOf(projectId, draft.contactId).then(
            (contactId) => {
              setApplied({ ...draft, contactId });
              setRound((n) => n + 1);
            },
            (error: unknown) => refusal.show(error, { contactId: messageOf(error) }),
          );
        }}
      >
        <RefusalAlert message={refusal.message} />
        <div class="field">
          <label for="activity-type">Type</label>
          <select
            id="activity-type"
            value={draft.type}
            onChange={(e) => setDraft({ ...draft, type: (e.target as HTMLSelectElement).value as ActivityType })}
          >
            <option value="">Every type</option>
            {TYPES.map((t) => (
              <option key={t} value={t}>
                {t}
              </option>
            ))}
          </select>
        </div>
        <Field
          name="contactId"
          label="Contact (address or id)"
          value={draft.contactId}
          error={refusal.fields.contactId}
          onInput={(contactId) => setDraft({ ...draft, contactId })}
        />
        <div class="field">
          <label for="activity-from">From</label>
          <input
            id="activity-from"
            type="datetime-local"
            value={draft.from}
            aria-invalid={refusal.fields.from ? 'true' : undefined}
            aria-describedby={refusal.fields.from ? 'activity-from-error' : undefined}
            onInput={(e) => setDraft({ ...draft, from: (e.target as HTMLInputElement).value })}
          />
          {refusal.fields.from && (
            <p class="field-error" id="activity-from-error">
              {refusal.fields.from}
            </p>
          )}
        </div>
        <div class="field">
          <label for="activity-to">To</label>
          <input
            id="activity-to"
            type="datetime-local"
            value={draft.to}
            aria-invalid={refusal.fields.to ? 'true' : undefined}
            aria-describedby={refusal.fields.to ? 'activity-to-error' : undefined}
            onInput={(e) => setDraft({ ...draft, to: (e.target as HTMLInputElement).value })}
          />
          {refusal.fields.to && (
            <p class="field-error" id="activity-to-error">
              {refusal.fields.to}
            </p>
          )}
        </div>
        <button type="submit">Apply filters</button>{' '}
        <button
          type="button"
          class="secondary"
          onClick={() => {
            setDraft(NO_FILTER);
            setApplied(NO_FILTER);
            setRound((n) => n + 1);
          }}
        >
          Clear
        </button>
      </form>
      <Feed key={round} projectId={projectId} filters={applied} onRefused={refusal.show} />
      <Upcoming projectId={projectId} />
    </Page>
  );
}

/** The feed for the applied filters; a refusal naming fields goes to the form's fields (`onRefused`). */
function Feed({
  projectId,
  filters,
  onRefused,
}: {
  projectId: string;
  filters: Filters;
  onRefused: (error: unknown, byField: Record<string, string>) => void;
}) {
  const query = (cursor?: string): Query<'activityList'> => ({
    limit: PAGE,
    ...(filters.type ? { type: [filters.type] } : {}),
    ...(filters.contactId.trim() ? { contactId: filters.contactId.trim() } : {}),
    ...(filters.from ? { from: instant(filters.from) } : {}),
    ...(filters.to ? { to: instant(filters.to) } : {}),
    ...(cursor ? { cursor } : {}),
  });
  const first = useLoad(() => api(projectId).request('get', '/activity', { query: query() }), [projectId]);
  const [more, setMore] = useState<{ items: Item[]; cursor: string | null; hasMore: boolean } | null>(null);
  const [busy, setBusy] = useState(false);
  const refusal = useRefusal();
  const byField = first.state === 'error' ? fieldErrors(first.error) : {};
  const refused = Object.keys(byField).length > 0;
  useEffect(() => {
    if (first.state === 'error' && refused) onRefused(first.error, byField);
  }, [first.state]);
  if (first.state === 'loading') return <Loading what="the activity" />;
  if (first.state === 'error') return refused ? null : <ErrorNote error={first.error} retry={first.reload} />;
  const items = [...first.data.data, ...(more?.items ?? [])];
  const cursor = more ? more.cursor : first.data.cursor;
  const hasMore = more ? more.hasMore : first.data.hasMore;
  const loadMore = async () => {
    if (!cursor) return;
    setBusy(true);
    refusal.clear();
    try {
      const page = await api(projectId).request('get', '/activity', { query: query(cursor) });
      setMore({ items: [...(more?.items ?? []), ...page.data], cursor: page.cursor, hasMore: page.hasMore });
    } catch (error) {
      refusal.show(error, {});
    } finally {
      setBusy(false);
    }
  };
  return (
    <section aria-labelledby="feed-heading" data-activity-total={first.data.total}>
      <h2 id="feed-heading">
        Feed <span class="muted">({first.data.total} in all)</span>
      </h2>
      {items.length === 0 ? (
        <Empty>No activity matches.</Empty>
      ) : (
        <table>
          <thead>
            <tr>
              <th scope="col">When</th>
              <th scope="col">Type</th>
              <th scope="col">Contact</th>
              <th scope="col">About</th>
            </tr>
          </thead>
          <tbody>
            {items.map((item) => (
              <tr key={item.id} data-activity-type={item.type}>
                <td>{new Date(item.occurredAt).toLocaleString()}</td>
                <td>{item.type}</td>
                <td>
                  {item.contact?.id ? (
                    <a href={`/app/p/${projectId}/contacts/${item.contact.id}`}>
                      {item.contact.email ?? item.contact.id}
                    </a>
                  ) : (
                    (item.contact?.email ?? '—')
                  )}
                </td>
                <td>{about(item)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <RefusalAlert message={refusal.message} />
      {hasMore && (
        <button type="button" disabled={busy} onClick={() => void loadMore()}>
          {busy ? 'Loading…' : 'Show more'}
        </button>
      )}
    </section>
  );
}

/** What an item is about: its email's subject, campaign, workflow, or the tracked event's name. */
function about(item: Item): string {
  const parts: string[] = [];
  if (typeof item.data.event === 'string') parts.push(item.data.event);
  else if (typeof item.data.name === 'string') parts.push(item.data.name);
  if (item.email?.subject) parts.push(`“${item.email.subject}”`);
  if (item.campaign) parts.push(`campaign ${item.campaign.name ?? item.campaign.id}`);
  if (item.workflow) parts.push(`workflow ${item.workflow.name ?? item.workflow.id}`);
  return parts.join(' · ') || '—';
}

function Upcoming({ projectId }: { projectId: string }) {
  const upcoming = useLoad(
    () => api(projectId).request('get', '/activity/upcoming', { query: { limit: 20 } }),
    [projectId],
  );
  return (
    <section aria-labelledby="upcoming-heading">
      <h2 id="upcoming-heading">Upcoming</h2>
      {upcoming.state === 'loading' ? (
        <Loading what="what is coming" />
      ) : upcoming.state === 'error' ? (
        <ErrorNote error={upcoming.error} retry={upcoming.reload} />
      ) : upcoming.data.campaigns.length + upcoming.data.executions.length === 0 ? (
        <Empty>Nothing scheduled: no campaign is scheduled and no workflow is waiting.</Empty>
      ) : (
        <ul class="upcoming">
          {upcoming.data.campaigns.map((c) => (
            <li key={c.campaign.id}>
              Campaign <a href={`/app/p/${projectId}/campaigns/${c.campaign.id}`}>{c.campaign.name ?? c.campaign.id}</a>
              {c.scheduledAt && ` at ${new Date(c.scheduledAt).toLocaleString()}`}
              {c.estimatedRecipients !== null && ` to about ${c.estimatedRecipients} contact(s)`}
            </li>
          ))}
          {upcoming.data.executions.map((x) => (
            <li key={x.executionId}>
              Workflow <a href={`/app/p/${projectId}/workflows/${x.workflow.id}`}>{x.workflow.name}</a> for{' '}
              {x.contact.email ?? x.contact.id}: {x.nextStep.name ?? x.nextStep.type ?? 'next step'}
              {x.dueAt && ` at ${new Date(x.dueAt).toLocaleString()}`}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

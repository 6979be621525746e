import { useState } from 'preact/hooks';
import type { components } from '@herald/sdk';
import { api } from '../api.js';
import { Empty, ErrorNote, Loading, useLoad } from '../ui.js';

type Item = components['schemas']['ActivityView'];
const PAGE_SIZE = 25;

/** What an item says, by its kind: a tracked event, an email, a segment entry or exit, the rest. */
function describe(item: Item): { kind: string; what: string } {
  const data = item.data as Record<string, unknown>;
  if (item.type === 'event.tracked') return { kind: 'event', what: `Event ${String(data.name ?? data.event ?? '')}` };
  if (item.type.startsWith('email.'))
    return { kind: 'email', what: `Email ${item.type.slice(6)}: ${item.email?.subject ?? '(no subject)'}` };
  if (item.type === 'segment.entered' || item.type === 'segment.exited')
    return {
      kind: 'segment',
      what: `${item.type === 'segment.entered' ? 'Entered' : 'Left'} segment ${String(data.segmentName ?? data.segmentId)}`,
    };
  if (item.type.startsWith('workflow.'))
    return { kind: 'workflow', what: `Workflow ${item.workflow?.name ?? ''}: ${item.type.slice(9)}` };
  return { kind: 'contact', what: item.type.replace('.', ' ') };
}

/**
 * A contact's timeline: the activity feed filtered by the contact (`GET /activity?contactId=`, its
 * tracked events, emails, segment entries and exits, workflow steps), newest first, in cursor pages.
 */
export function ContactTimeline({ projectId, contactId }: { projectId: string; contactId: string }) {
  const [cursors, setCursors] = useState<(string | undefined)[]>([undefined]);
  const cursor = cursors[cursors.length - 1];
  const page = useLoad(
    () =>
      api(projectId).request('get', '/activity', {
        query: { contactId, limit: PAGE_SIZE, ...(cursor ? { cursor } : {}) },
      }),
    [projectId, contactId, cursor],
  );
  return (
    <section aria-labelledby="timeline-heading">
      <h2 id="timeline-heading">Timeline</h2>
      <p>
        <button
          type="button"
          disabled={page.state === 'loading'}
          onClick={() => page.state !== 'loading' && page.reload()}
        >
          Refresh
        </button>
      </p>
      {page.state === 'loading' && <Loading what="the timeline" />}
      {page.state === 'error' && <ErrorNote error={page.error} retry={page.reload} />}
      {page.state === 'ready' &&
        (page.data.data.length === 0 ? (
          <Empty>Nothing happened to this contact yet.</Empty>
        ) : (
          <ol class="timeline">
            {page.data.data.map((item) => {
              const { kind, what } = describe(item);
              return (
                <li key={item.id} data-kind={kind} data-type={item.type}>
                  <time dateTime={item.occurredAt}>{new Date(item.occurredAt).toLocaleString()}</time> {what}
                </li>
              );
            })}
          </ol>
        ))}
      <nav class="pager" aria-label="Timeline pages">
        <button type="button" disabled={cursors.length === 1} onClick={() => setCursors(cursors.slice(0, -1))}>
          Newer
        </button>
        <button
          type="button"
          disabled={page.state !== 'ready' || !page.data.hasMore || !page.data.cursor}
          onClick={() => page.state === 'ready' && page.data.cursor && setCursors([...cursors, page.data.cursor])}
        >
          Older
        </button>
      </nav>
    </section>
  );
}

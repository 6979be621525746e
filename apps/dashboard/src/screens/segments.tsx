import { useEffect, useState } from 'preact/hooks';
import type { components } from '@herald/sdk';
import { api, fieldErrors, isStatus } from '../api.js';
import { Empty, ErrorNote, Field, Loading, Page, RefusalAlert, useLoad, useRefusal } from '../ui.js';
import { GroupEditor, type Field as FilterField, type Group } from './filter-builder.js';
import { MembersPreview, StaticMembers } from './segment-members.js';
import { NotFound } from './projects.js';

type Segment = components['schemas']['SegmentView'];
type Member = components['schemas']['MemberView2'];

export const listSegments = (projectId: string) => api(projectId).request('get', '/segments');

/** The fields a filter can name: `/contacts/fields` (the built-in ones and the project's data fields). */
const loadFields = (projectId: string) =>
  api(projectId)
    .request('get', '/contacts/fields')
    .then((a) => a.fields);

/** How long the builder waits after the last change before counting (`POST /segments/count`). */
const COUNT_DEBOUNCE_MS = 300;
/** How many members the preview beside the count lists. */
const PREVIEW_SIZE = 10;

/**
 * A project's segments with their member counts, and the builder: a new segment, or a saved one
 * opened from the list. The filter's count and a preview of its first members follow it as it
 * changes (`POST /segments/count` with `preview`, the latest answer wins; its errors on the parts
 * they name); saving writes the segment and shows its count (`POST /segments/:id/refresh`). A static
 * segment has no filter: its members are pasted or uploaded, listed and removed (StaticMembers).
 */
export function Segments({ projectId }: { projectId: string }) {
  const segments = useLoad(() => listSegments(projectId), [projectId]);
  const fields = useLoad(() => loadFields(projectId), [projectId]);
  const [editing, setEditing] = useState<Segment | null>(null);
  const [round, setRound] = useState(0);
  const failure = segments.state === 'error' ? segments.error : fields.state === 'error' ? fields.error : null;
  if (failure !== null && isStatus(failure, 403)) return <NotFound />;
  return (
    <Page title="Segments">
      {segments.state === 'loading' && <Loading what="segments" />}
      {failure !== null && (
        <ErrorNote
          error={failure}
          retry={() => {
            if (segments.state === 'error') segments.reload();
            if (fields.state === 'error') fields.reload();
          }}
        />
      )}
      {segments.state === 'ready' &&
        (segments.data.length === 0 ? (
          <Empty>No segment yet: build the first one below.</Empty>
        ) : (
          <table>
            <caption class="sr-only">Segments</caption>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Type</th>
                <th scope="col">Members</th>
              </tr>
            </thead>
            <tbody>
              {segments.data.map((s) => (
                <tr key={s.id} data-segment={s.name}>
                  <td>
                    <button type="button" class="link" onClick={() => setEditing(s)}>
                      {s.name}
                    </button>
                  </td>
                  <td>{s.type.toLowerCase()}</td>
                  <td data-field="memberCount">{s.memberCount}</td>
                </tr>
              ))}
            </tbody>
          </table>
        ))}
      {fields.state === 'loading' && <Loading what="contact fields" />}
      {fields.state === 'ready' && (
        <SegmentEditor
          key={`${editing?.id ?? 'new'}-${round}`}
          projectId={projectId}
          segment={editing}
          fields={fields.data}
          onSaved={(s) => {
            setEditing(s);
            setRound((n) => n + 1);
            if (segments.state === 'ready') segments.reload();
          }}
          onNew={() => setEditing(null)}
          onMembersChanged={() => segments.state === 'ready' && segments.reload()}
        />
      )}
    </Page>
  );
}

function SegmentEditor(props: {
  projectId: string;
  segment: Segment | null;
  fields: FilterField[];
  onSaved: (s: Segment) => void;
  onNew: () => void;
  onMembersChanged: () => void;
}) {
  const { projectId, segment } = props;
  const [name, setName] = useState(segment?.name ?? '');
  const [type, setType] = useState<Segment['type']>(segment?.type ?? 'DYNAMIC');
  const isStatic = type === 'STATIC';
  const [filter, setFilter] = useState<Group>(segment?.filters ?? { operator: 'AND', conditions: [] });
  const [count, setCount] = useState<number | null>(segment?.memberCount ?? null);
  const [preview, setPreview] = useState<Member[] | null>(null);
  const [counting, setCounting] = useState(false);
  const [countErrors, setCountErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  const refusal = useRefusal();
  // the live count: after each change settles, the latest filter's count (an older answer is dropped)
  useEffect(() => {
    if (isStatic) return;
    let current = true;
    setCounting(true);
    const timer = setTimeout(() => {
      api(projectId)
        .request('post', '/segments/count', { body: { filters: filter, preview: PREVIEW_SIZE } })
        .then(
          (answer) => {
            if (!current) return;
            setCount(answer.total);
            setPreview(answer.preview ?? []);
            setCountErrors({});
          },
          (error: unknown) => {
            if (!current) return;
            setCount(null);
            setPreview(null);
            setCountErrors(fieldErrors(error));
          },
        )
        .finally(() => current && setCounting(false));
    }, COUNT_DEBOUNCE_MS);
    return () => {
      current = false;
      clearTimeout(timer);
    };
  }, [projectId, isStatic, JSON.stringify(filter)]);
  const save = async (e: Event) => {
    e.preventDefault();
    setBusy(true);
    refusal.clear();
    try {
      const client = api(projectId);
      const body = isStatic ? { name } : { name, filters: filter };
      const saved = segment
        ? await client.request('patch', '/segments/{id}', { path: { id: segment.id }, body })
        : await client.request('post', '/segments', { body: isStatic ? { name, type } : body });
      const counted = await client.request('post', '/segments/{id}/refresh', { path: { id: saved.id } });
      setCount(counted.memberCount);
      props.onSaved(counted);
    } catch (error) {
      refusal.show(error, fieldErrors(error));
    } finally {
      setBusy(false);
    }
  };
  const filterErrors = Object.fromEntries(
    Object.entries({ ...countErrors, ...refusal.fields })
      .filter(([k]) => k.startsWith('filters') || k.startsWith('condition'))
      .map(([k, v]) => [k.replace(/^condition/, 'filters'), v]),
  );
  return (
    <form class="card wide" onSubmit={(e) => void save(e)} aria-labelledby="segment-editor-heading">
      <h2 id="segment-editor-heading">{segment ? `Segment ${segment.name}` : 'New segment'}</h2>
      <RefusalAlert message={refusal.message} />
      <Field name="name" label="Segment name" value={name} error={refusal.fields.name} required onInput={setName} />
      {!segment && (
        <div class="field">
          <label for="field-type">Segment type</label>
          <select
            id="field-type"
            value={type}
            onChange={(e) => setType((e.target as HTMLSelectElement).value as Segment['type'])}
          >
            <option value="DYNAMIC">dynamic: the contacts a filter matches</option>
            <option value="STATIC">static: the contacts you list</option>
          </select>
        </div>
      )}
      {isStatic ? (
        // a saved one's members and their count are listed below (StaticMembers)
        !segment && <p class="muted">Create the segment, then paste or upload its members.</p>
      ) : (
        <>
          {props.fields.length === 0 ? (
            <Empty>No contact field yet: import or add contacts first.</Empty>
          ) : (
            <GroupEditor
              group={filter}
              fields={props.fields}
              errors={filterErrors}
              path="filters"
              onChange={setFilter}
            />
          )}
          <p class="count" role="status" aria-live="polite" data-counting={String(counting)}>
            {counting ? 'Counting…' : count === null ? 'No count: fix the filter.' : `${count} member(s)`}
          </p>
          <MembersPreview members={counting ? null : preview} total={count} />
        </>
      )}
      <button type="submit" disabled={busy}>
        {busy ? 'Saving…' : segment ? 'Save and count' : 'Create and count'}
      </button>{' '}
      {segment && (
        <button type="button" onClick={props.onNew}>
          New segment
        </button>
      )}
      {isStatic && segment && (
        <StaticMembers projectId={projectId} segmentId={segment.id} onChange={props.onMembersChanged} />
      )}
    </form>
  );
}

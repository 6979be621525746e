import { useState } from 'preact/hooks';
import type { components } from '@herald/sdk';
import { api, fieldErrors, isStatus } from '../api.js';
import { ErrorNote, Loading, Page, RefusalAlert, useLoad, useRefusal } from '../ui.js';
import { ContactTimeline } from './contact-timeline.js';
import { NotFound } from './projects.js';

type ContactView = components['schemas']['ContactView'];
type ValueType = 'string' | 'number' | 'boolean' | 'date' | 'json';
interface Row {
  key: string;
  type: ValueType;
  value: string;
}

const DATE = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}:\d{2}(\.\d{1,3})?Z)?$/;

/** A stored value as an editor row: its type as the API infers it (spec, "Type inference"), its text. */
function rowOf(key: string, v: unknown): Row {
  if (typeof v === 'number') return { key, type: 'number', value: String(v) };
  if (typeof v === 'boolean') return { key, type: 'boolean', value: String(v) };
  if (typeof v === 'string') return { key, type: DATE.test(v) ? 'date' : 'string', value: v };
  return { key, type: 'json', value: JSON.stringify(v) };
}

/** The row's value as sent, or the reason it cannot be (shown on its value field). */
function valueOf(row: Row): { ok: true; value: unknown } | { ok: false; reason: string } {
  switch (row.type) {
    case 'number':
      return row.value.trim() !== '' && Number.isFinite(Number(row.value))
        ? { ok: true, value: Number(row.value) }
        : { ok: false, reason: 'must be a number' };
    case 'boolean':
      return { ok: true, value: row.value === 'true' };
    case 'date':
      return DATE.test(row.value)
        ? { ok: true, value: row.value }
        : { ok: false, reason: 'must be YYYY-MM-DD or YYYY-MM-DDTHH:MM:SSZ' };
    case 'json':
      try {
        return { ok: true, value: JSON.parse(row.value) as unknown };
      } catch {
        return { ok: false, reason: 'must be JSON' };
      }
    default:
      return row.value === ''
        ? { ok: false, reason: 'must not be empty (remove the field instead)' }
        : { ok: true, value: row.value };
  }
}

/** One contact: its subscription and data, both editable (`PATCH /contacts/:id`), and its timeline. */
export function Contact({ projectId, contactId }: { projectId: string; contactId: string }) {
  const contact = useLoad(() => api(projectId).contacts.get(contactId), [projectId, contactId]);
  const [latest, setLatest] = useState<ContactView | null>(null);
  if (contact.state === 'loading') return <Loading what="the contact" />;
  if (contact.state === 'error')
    return isStatus(contact.error, 404) || isStatus(contact.error, 403) ? (
      <NotFound />
    ) : (
      <ErrorNote error={contact.error} retry={contact.reload} />
    );
  const c = latest?.id === contact.data.id ? latest : contact.data;
  return (
    <Page title={c.email}>
      <p>
        <a href={`/app/p/${projectId}/contacts`}>All contacts</a>
      </p>
      <dl class="facts">
        <dt>Created</dt>
        <dd>{new Date(c.createdAt).toLocaleString()}</dd>
        <dt>Updated</dt>
        <dd>{new Date(c.updatedAt).toLocaleString()}</dd>
      </dl>
      <ContactEditor projectId={projectId} contact={contact.data} onSaved={setLatest} />
      <ContactTimeline projectId={projectId} contactId={contactId} />
    </Page>
  );
}

const rowsOf = (c: ContactView) => Object.entries(c.data ?? {}).map(([k, v]) => rowOf(k, v));

/** The editor: rows of key, type and value; saved as the API answered (a removed key sent as null). */
function ContactEditor(props: { projectId: string; contact: ContactView; onSaved: (c: ContactView) => void }) {
  const { contact } = props;
  const [stored, setStored] = useState<Row[]>(() => rowsOf(contact));
  const [subscribed, setSubscribed] = useState(contact.subscribed);
  const [rows, setRows] = useState<Row[]>(stored);
  const [local, setLocal] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  const [saved, setSaved] = useState(false);
  const refusal = useRefusal('The contact was not saved: see the fields below.');
  const set = (i: number, patch: Partial<Row>) => setRows(rows.map((r, j) => (j === i ? { ...r, ...patch } : r)));
  const save = async (e: Event) => {
    e.preventDefault();
    refusal.clear();
    setSaved(false);
    const problems: Record<string, string> = {};
    const data: Record<string, unknown> = {};
    rows.forEach((r, i) => {
      const key = r.key.trim();
      if (!key) problems[`row-${i}-key`] = 'give the field a name';
      const v = valueOf(r);
      if (!v.ok) problems[`row-${i}-value`] = v.reason;
      else if (key) data[key] = v.value;
    });
    setLocal(problems);
    if (Object.keys(problems).length) return;
    // a field removed is sent as null: the API deletes the key (data is patched)
    for (const r of stored) if (!(r.key in data)) data[r.key] = null;
    setBusy(true);
    try {
      const answer = await api(props.projectId).contacts.update(contact.id, { subscribed, data });
      setStored(rowsOf(answer));
      setRows(rowsOf(answer));
      setSubscribed(answer.subscribed);
      setSaved(true);
      props.onSaved(answer);
    } catch (error) {
      refusal.show(error, fieldErrors(error));
    } finally {
      setBusy(false);
    }
  };
  const apiError = (i: number) => refusal.fields[`data.${rows[i]?.key.trim() ?? ''}`] ?? refusal.fields.data;
  return (
    <form class="card wide" aria-labelledby="contact-data-heading" onSubmit={(e) => void save(e)}>
      <h2 id="contact-data-heading">Subscription and data</h2>
      <RefusalAlert message={refusal.message} />
      <div class="field">
        <label>
          <input
            type="checkbox"
            name="subscribed"
            checked={subscribed}
            onChange={(e) => setSubscribed((e.target as HTMLInputElement).checked)}
          />{' '}
          Subscribed
        </label>
        {refusal.fields.subscribed && <p class="field-error">{refusal.fields.subscribed}</p>}
      </div>
      <table class="data-editor">
        <caption class="sr-only">Data of {contact.email}</caption>
        <thead>
          <tr>
            <th scope="col">Field</th>
            <th scope="col">Type</th>
            <th scope="col">Value</th>
            <th scope="col">
              <span class="sr-only">Remove</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {rows.map((r, i) => {
            const keyError = local[`row-${i}-key`];
            const valueError = local[`row-${i}-value`] ?? apiError(i);
            const label = r.key || `new field ${i + 1}`;
            return (
              <tr key={i} data-row={r.key}>
                <td>
                  <input
                    aria-label={`Name of ${label}`}
                    value={r.key}
                    aria-invalid={keyError ? 'true' : undefined}
                    aria-describedby={keyError ? `row-${i}-key-error` : undefined}
                    onInput={(e) => set(i, { key: (e.target as HTMLInputElement).value })}
                  />
                  {keyError && (
                    <p class="field-error" id={`row-${i}-key-error`}>
                      {keyError}
                    </p>
                  )}
                </td>
                <td>
                  <select
                    aria-label={`Type of ${label}`}
                    value={r.type}
                    onChange={(e) => {
                      const type = (e.target as HTMLSelectElement).value as ValueType;
                      set(i, { type, value: type === 'boolean' ? 'true' : r.value });
                    }}
                  >
                    <option value="string">text</option>
                    <option value="number">number</option>
                    <option value="boolean">boolean</option>
                    <option value="date">date</option>
                    <option value="json">JSON</option>
                  </select>
                </td>
                <td>
                  {r.type === 'boolean' ? (
                    <select
                      aria-label={`Value of ${label}`}
                      value={r.value}
                      onChange={(e) => set(i, { value: (e.target as HTMLSelectElement).value })}
                    >
                      <option value="true">true</option>
                      <option value="false">false</option>
                    </select>
                  ) : (
                    <input
                      aria-label={`Value of ${label}`}
                      value={r.value}
                      aria-invalid={valueError ? 'true' : undefined}
                      aria-describedby={valueError ? `row-${i}-value-error` : undefined}
                      onInput={(e) => set(i, { value: (e.target as HTMLInputElement).value })}
                    />
                  )}
                  {valueError && (
                    <p class="field-error" id={`row-${i}-value-error`}>
                      {valueError}
                    </p>
                  )}
                </td>
                <td>
                  <button type="button" onClick={() => setRows(rows.filter((_, j) => j !== i))}>
                    Remove<span class="sr-only"> {label}</span>
                  </button>
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
      {rows.length === 0 && <p class="empty">This contact has no data.</p>}
      <p>
        <button type="button" onClick={() => setRows([...rows, { key: '', type: 'string', value: '' }])}>
          Add a field
        </button>{' '}
        <button type="submit" disabled={busy}>
          {busy ? 'Saving…' : 'Save'}
        </button>{' '}
        <span role="status">{saved ? 'Saved.' : ''}</span>
      </p>
    </form>
  );
}

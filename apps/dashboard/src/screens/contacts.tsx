import { useState } from 'preact/hooks';
import { api, isStatus } from '../api.js';
import { Empty, ErrorNote, Loading, Page, useLoad } from '../ui.js';
import { NotFound } from './projects.js';

const PAGE_SIZE = 25;

/** A project's contacts: search by email, cursor pages (next, and back through the cursors seen). */
export function Contacts({ projectId }: { projectId: string }) {
  const [search, setSearch] = useState('');
  const [query, setQuery] = useState('');
  const [cursors, setCursors] = useState<(string | undefined)[]>([undefined]);
  const cursor = cursors[cursors.length - 1];
  const page = useLoad(
    () =>
      api(projectId).contacts.list({
        limit: PAGE_SIZE,
        ...(query ? { search: query } : {}),
        ...(cursor ? { cursor } : {}),
      }),
    [projectId, query, cursor],
  );
  const submit = (e: Event) => {
    e.preventDefault();
    setCursors([undefined]);
    setQuery(search.trim());
  };
  return (
    <Page title="Contacts">
      <form class="search" role="search" onSubmit={submit}>
        <label for="contact-search">Search contacts</label>
        <input
          id="contact-search"
          type="search"
          value={search}
          placeholder="email contains…"
          onInput={(e) => setSearch((e.target as HTMLInputElement).value)}
        />
        <button type="submit">Search</button>
        <a href={`/app/p/${projectId}/import`}>Import a CSV file</a>
      </form>
      {page.state === 'loading' && <Loading what="contacts" />}
      {page.state === 'error' &&
        (isStatus(page.error, 403) || isStatus(page.error, 404) ? (
          <NotFound />
        ) : (
          <ErrorNote error={page.error} retry={page.reload} />
        ))}
      {page.state === 'ready' &&
        (page.data.data.length === 0 ? (
          <Empty>
            {query ? `No contact matches “${query}”.` : 'No contact yet: add them with the API or an import.'}
          </Empty>
        ) : (
          <>
            <p class="muted">{page.data.total} contact(s)</p>
            <table>
              <caption class="sr-only">Contacts</caption>
              <thead>
                <tr>
                  <th scope="col">Email</th>
                  <th scope="col">Subscribed</th>
                  <th scope="col">Created</th>
                </tr>
              </thead>
              <tbody>
                {page.data.data.map((c) => (
                  <tr key={c.id}>
                    <td>
                      <a href={`/app/p/${projectId}/contacts/${c.id}`}>{c.email}</a>
                    </td>
                    <td>{c.subscribed ? 'yes' : 'no'}</td>
                    <td>{new Date(c.createdAt).toLocaleString()}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </>
        ))}
      <nav class="pager" aria-label="Pages">
        <button type="button" disabled={cursors.length === 1} onClick={() => setCursors(cursors.slice(0, -1))}>
          Previous page
        </button>
        <button
          type="button"
          disabled={page.state !== 'ready' || !page.data.hasMore || !page.data.cursor}
          onClick={() => page.state === 'ready' && page.data.cursor && setCursors([...cursors, page.data.cursor])}
        >
          Next page
        </button>
      </nav>
    </Page>
  );
}

/** One contact: its email, subscription and data. */
export function Contact({ projectId, contactId }: { projectId: string; contactId: string }) {
  const contact = useLoad(() => api(projectId).contacts.get(contactId), [projectId, contactId]);
  if (contact.state === 'loading') return <Loading what="the contact" />;
  if (contact.state === 'error')
    return isStatus(contact.error, 404) || isStatus(contact.error, 403) ? (
      <NotFound />
    ) : (
      <ErrorNote error={contact.error} retry={contact.reload} />
    );
  const c = contact.data;
  const data = Object.entries(c.data ?? {});
  return (
    <Page title={c.email}>
      <p>
        <a href={`/app/p/${projectId}/contacts`}>All contacts</a>
      </p>
      <dl class="facts">
        <dt>Subscribed</dt>
        <dd>{c.subscribed ? 'yes' : 'no'}</dd>
        <dt>Created</dt>
        <dd>{new Date(c.createdAt).toLocaleString()}</dd>
        <dt>Updated</dt>
        <dd>{new Date(c.updatedAt).toLocaleString()}</dd>
      </dl>
      <h2>Data</h2>
      {data.length === 0 ? (
        <Empty>This contact has no data.</Empty>
      ) : (
        <table>
          <caption class="sr-only">Data of {c.email}</caption>
          <thead>
            <tr>
              <th scope="col">Field</th>
              <th scope="col">Value</th>
            </tr>
          </thead>
          <tbody>
            {data.map(([k, v]) => (
              <tr key={k}>
                <th scope="row">{k}</th>
                <td>
                  <code>{typeof v === 'string' ? v : JSON.stringify(v)}</code>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </Page>
  );
}

import { useState } from 'preact/hooks';
import { api, isStatus } from '../api.js';
import { Empty, ErrorNote, Loading, Page, useLoad } from '../ui.js';
import { BulkActions } from './contacts-bulk.js';
import { NotFound } from './projects.js';

const PAGE_SIZE = 25;

/**
 * A project's contacts: search by email, cursor pages (next, and back through the cursors seen), and
 * the selected ones subscribed, unsubscribed or deleted in bulk.
 */
export function Contacts({ projectId }: { projectId: string }) {
  const [search, setSearch] = useState('');
  const [query, setQuery] = useState('');
  const [cursors, setCursors] = useState<(string | undefined)[]>([undefined]);
  const cursor = cursors[cursors.length - 1];
  const [selected, setSelected] = useState<string[]>([]);
  const page = useLoad(
    () =>
      api(projectId).contacts.list({
        limit: PAGE_SIZE,
        ...(query ? { search: query } : {}),
        ...(cursor ? { cursor } : {}),
      }),
    [projectId, query, cursor],
  );
  const toggle = (id: string, on: boolean) =>
    setSelected(on ? [...selected.filter((s) => s !== id), id] : selected.filter((s) => s !== id));
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
        <a href={`/app/p/${projectId}/import`}>Import a CSV file</a>{' '}
        <a href={`/app/p/${projectId}/contacts/fields`}>Fields</a>
      </form>
      <BulkActions
        projectId={projectId}
        selected={selected}
        onDone={() => {
          setSelected([]);
          if (page.state !== 'loading') page.reload();
        }}
      />
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
                  <th scope="col">
                    <span class="sr-only">Selected</span>
                  </th>
                  <th scope="col">Email</th>
                  <th scope="col">Subscribed</th>
                  <th scope="col">Created</th>
                </tr>
              </thead>
              <tbody>
                {page.data.data.map((c) => (
                  <tr key={c.id} data-contact={c.email}>
                    <td>
                      <input
                        type="checkbox"
                        aria-label={`Select ${c.email}`}
                        checked={selected.includes(c.id)}
                        onChange={(e) => toggle(c.id, (e.target as HTMLInputElement).checked)}
                      />
                    </td>
                    <td>
                      <a href={`/app/p/${projectId}/contacts/${c.id}`}>{c.email}</a>
                    </td>
                    <td data-field="subscribed">{c.subscribed ? 'yes' : 'no'}</td>
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

import { api, isStatus } from '../api.js';
import { Empty, ErrorNote, Loading, Page, useLoad } from '../ui.js';
import { NotFound } from './projects.js';

/** The project's contact fields (`GET /contacts/fields`): the built-in and data fields, their types and coverage. */
export function ContactFields({ projectId }: { projectId: string }) {
  const fields = useLoad(
    () =>
      api(projectId)
        .request('get', '/contacts/fields')
        .then((a) => a.fields),
    [projectId],
  );
  return (
    <Page title="Contact fields">
      <p>
        <a href={`/app/p/${projectId}/contacts`}>All contacts</a>
      </p>
      {fields.state === 'loading' && <Loading what="the fields" />}
      {fields.state === 'error' &&
        (isStatus(fields.error, 403) ? <NotFound /> : <ErrorNote error={fields.error} retry={fields.reload} />)}
      {fields.state === 'ready' &&
        (fields.data.length === 0 ? (
          <Empty>No field yet.</Empty>
        ) : (
          <table>
            <caption class="sr-only">Contact fields</caption>
            <thead>
              <tr>
                <th scope="col">Field</th>
                <th scope="col">Type</th>
                <th scope="col">Kind</th>
                <th scope="col">Coverage</th>
              </tr>
            </thead>
            <tbody>
              {fields.data.map((f) => (
                <tr key={f.field} data-field={f.field}>
                  <th scope="row">
                    <code>{f.field}</code>
                  </th>
                  <td data-type>{f.type}</td>
                  <td>{f.isCustom ? 'data' : 'built-in'}</td>
                  <td>
                    <meter min={0} max={1} value={f.coverage} aria-label={`Coverage of ${f.field}`} />{' '}
                    {Math.round(f.coverage * 100)}%
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        ))}
    </Page>
  );
}

import { useLocation } from 'preact-iso';
import { useState } from 'preact/hooks';
import { api, fieldErrors } from '../api.js';
import { freshKeys } from '../session.js';
import { Empty, ErrorNote, Field, Loading, Page, RefusalAlert, useLoad, useRefusal } from '../ui.js';

export const listProjects = () => api().request('get', '/users/@me/projects');

/** The account's projects (each opens its contacts) and the form creating one. */
export function Projects() {
  const projects = useLoad(listProjects, []);
  return (
    <Page title="Projects">
      {projects.state === 'loading' && <Loading what="projects" />}
      {projects.state === 'error' && <ErrorNote error={projects.error} retry={projects.reload} />}
      {projects.state === 'ready' &&
        (projects.data.length === 0 ? (
          <Empty>No project yet: create the first one below.</Empty>
        ) : (
          <ul class="list">
            {projects.data.map((p) => (
              <li key={p.id}>
                <a href={`/app/p/${p.id}/contacts`}>{p.name}</a> <span class="muted">{p.role.toLowerCase()}</span>{' '}
                <a href={`/app/p/${p.id}/keys`}>API keys</a>
              </li>
            ))}
          </ul>
        ))}
      <CreateProject />
    </Page>
  );
}

function CreateProject() {
  const { route } = useLocation();
  const [name, setName] = useState('');
  const [busy, setBusy] = useState(false);
  const refusal = useRefusal();
  const submit = async (e: Event) => {
    e.preventDefault();
    setBusy(true);
    refusal.clear();
    try {
      const created = await api().request('post', '/users/@me/projects', { body: { name } });
      const keys: Record<string, string> = { secret: created.secretKey, public: created.publicKey };
      if (created.testSecretKey) keys.testSecret = created.testSecretKey;
      if (created.testPublicKey) keys.testPublic = created.testPublicKey;
      freshKeys.set(created.id, keys);
      route(`/app/p/${created.id}/keys`);
    } catch (error) {
      refusal.show(error, fieldErrors(error));
    } finally {
      setBusy(false);
    }
  };
  return (
    <form class="card" onSubmit={(e) => void submit(e)} noValidate>
      <h2>New project</h2>
      <RefusalAlert message={refusal.message} />
      <Field name="name" label="Project name" value={name} error={refusal.fields.name} onInput={setName} required />
      <button type="submit" disabled={busy}>
        Create project
      </button>
    </form>
  );
}

const KEY_LABELS: Record<string, string> = {
  secret: 'Secret key',
  public: 'Public key',
  testSecret: 'Test secret key',
  testPublic: 'Test public key',
};

/** A project's API keys: in full right after the project was created (the API shows them once), else their prefixes. */
export function Keys({ projectId }: { projectId: string }) {
  const projects = useLoad(listProjects, []);
  const fresh = freshKeys.get(projectId);
  if (projects.state === 'loading') return <Loading what="the project" />;
  if (projects.state === 'error') return <ErrorNote error={projects.error} retry={projects.reload} />;
  const project = projects.data.find((p) => p.id === projectId);
  if (!project) return <NotFound />;
  return (
    <Page title={`API keys of ${project.name}`}>
      {fresh && (
        <p class="notice" role="status">
          Copy these keys now: they are shown only once.
        </p>
      )}
      <table>
        <caption class="sr-only">API keys</caption>
        <thead>
          <tr>
            <th scope="col">Key</th>
            <th scope="col">Value</th>
            <th scope="col">Created</th>
          </tr>
        </thead>
        <tbody>
          {Object.entries(project.keys).map(([kind, key]) => (
            <tr key={kind}>
              <th scope="row">{KEY_LABELS[kind] ?? kind}</th>
              <td>
                <code data-key={kind}>{fresh?.[kind] ?? (key ? `${key.prefix}…` : 'none')}</code>
              </td>
              <td>{key ? new Date(key.createdAt).toLocaleString() : ''}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </Page>
  );
}

export function NotFound() {
  return (
    <Page title="Not found">
      <p>There is nothing here, or it belongs to a project you are not a member of.</p>
      <p>
        <a href="/app/projects">Back to your projects</a>
      </p>
    </Page>
  );
}

import { useLocation } from 'preact-iso';
import { useState } from 'preact/hooks';
import type { Result } from '@herald/sdk';
import { api, fieldErrors, isStatus } from '../api.js';
import { Empty, ErrorNote, Field, Loading, Page, RefusalAlert, useLoad, useRefusal } from '../ui.js';
import { NotFound } from './projects.js';
import { TemplatePreview } from './template-preview.js';

type Template = Result<'templatesGet'>;
type Format = Template['format'];

const STARTER: Record<Format, string> = {
  html: '<p>Hello {{ name ?? "there" }},</p>\n<p></p>',
  markdown: 'Hello **{{ name ?? "there" }}**,\n\n',
};

const isGone = (error: unknown) => isStatus(error, 404) || isStatus(error, 403);

/** A project's templates, and a new one (named, in HTML or Markdown) opened in the editor. */
export function Templates({ projectId }: { projectId: string }) {
  const templates = useLoad(() => api(projectId).request('get', '/templates', { query: { limit: 100 } }), [projectId]);
  return (
    <Page title="Templates">
      {templates.state === 'loading' && <Loading what="templates" />}
      {templates.state === 'error' &&
        (isGone(templates.error) ? <NotFound /> : <ErrorNote error={templates.error} retry={templates.reload} />)}
      {templates.state === 'ready' &&
        (templates.data.data.length === 0 ? (
          <Empty>No template yet: create the first one below.</Empty>
        ) : (
          <table>
            <caption class="sr-only">Templates</caption>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Subject</th>
                <th scope="col">Format</th>
                <th scope="col">Updated</th>
              </tr>
            </thead>
            <tbody>
              {templates.data.data.map((t) => (
                <tr key={t.id}>
                  <td>
                    <a href={`/app/p/${projectId}/templates/${t.id}`}>{t.name}</a>
                  </td>
                  <td>{t.subject}</td>
                  <td>{t.format}</td>
                  <td>{new Date(t.updatedAt).toLocaleString()}</td>
                </tr>
              ))}
            </tbody>
          </table>
        ))}
      <NewTemplate projectId={projectId} />
    </Page>
  );
}

function FormatSelect({ value, onChange }: { value: Format; onChange: (format: Format) => void }) {
  return (
    <div class="field">
      <label for="template-format">Format</label>
      <select
        id="template-format"
        value={value}
        onChange={(e) => onChange((e.target as HTMLSelectElement).value as Format)}
      >
        <option value="html">HTML</option>
        <option value="markdown">Markdown</option>
      </select>
    </div>
  );
}

function NewTemplate({ projectId }: { projectId: string }) {
  const { route } = useLocation();
  const [name, setName] = useState('');
  const [format, setFormat] = useState<Format>('html');
  const [busy, setBusy] = useState(false);
  const refusal = useRefusal();
  const submit = async (e: Event) => {
    e.preventDefault();
    setBusy(true);
    refusal.clear();
    try {
      const body = { name, subject: name || 'Hello', body: STARTER[format], format };
      const created = await api(projectId).request('post', '/templates', { body });
      route(`/app/p/${projectId}/templates/${created.id}`);
    } catch (error) {
      refusal.show(error, fieldErrors(error));
    } finally {
      setBusy(false);
    }
  };
  return (
    <form class="card" onSubmit={(e) => void submit(e)} noValidate>
      <h2>New template</h2>
      <RefusalAlert message={refusal.message} />
      <Field name="name" label="Template name" value={name} error={refusal.fields.name} onInput={setName} required />
      <FormatSelect value={format} onChange={setFormat} />
      <button type="submit" disabled={busy}>
        Create template
      </button>
    </form>
  );
}

/** One template: the editor beside its live preview, duplicate, delete, and where it is used. */
export function TemplatePage({ projectId, templateId }: { projectId: string; templateId: string }) {
  const template = useLoad(
    () => api(projectId).request('get', '/templates/{id}', { path: { id: templateId } }),
    [projectId, templateId],
  );
  if (template.state === 'loading') return <Loading what="the template" />;
  if (template.state === 'error')
    return isGone(template.error) ? <NotFound /> : <ErrorNote error={template.error} retry={template.reload} />;
  return <Editor key={template.data.id} projectId={projectId} template={template.data} />;
}

function Editor({ projectId, template }: { projectId: string; template: Template }) {
  const { route } = useLocation();
  const [form, setForm] = useState({
    name: template.name,
    subject: template.subject,
    from: template.from ?? '',
    body: template.body,
    format: template.format,
  });
  const [busy, setBusy] = useState(false);
  const [said, setSaid] = useState('');
  const [failure, setFailure] = useState<unknown>(null);
  const [deleting, setDeleting] = useState(false);
  const refusal = useRefusal('Please correct the fields below.');
  const set = (key: keyof typeof form) => (value: string) => setForm((f) => ({ ...f, [key]: value }));
  const path = { path: { id: template.id } };

  const save = async (e: Event) => {
    e.preventDefault();
    setBusy(true);
    setSaid('');
    refusal.clear();
    try {
      const { from, ...rest } = form;
      const body = { ...rest, from: from.trim() || null }; // empty: the template has no sender of its own
      await api(projectId).request('patch', '/templates/{id}', { ...path, body });
      setSaid('Saved');
    } catch (error) {
      refusal.show(error, fieldErrors(error));
    } finally {
      setBusy(false);
    }
  };
  const run = async (action: () => Promise<void>) => {
    setBusy(true);
    setFailure(null);
    try {
      await action();
    } catch (error) {
      setFailure(error);
    } finally {
      setBusy(false);
    }
  };
  const duplicate = () =>
    run(async () => {
      const copy = await api(projectId).request('post', '/templates/{id}/duplicate', path);
      route(`/app/p/${projectId}/templates/${copy.id}`);
    });
  const remove = () =>
    run(async () => {
      setDeleting(false);
      await api(projectId).request('delete', '/templates/{id}', path);
      route(`/app/p/${projectId}/templates`);
    });

  return (
    <Page title={template.name}>
      <div class="editor">
        <form class="card" onSubmit={(e) => void save(e)} noValidate>
          <h2>Content</h2>
          <RefusalAlert message={refusal.message} />
          <Field name="name" label="Name" value={form.name} error={refusal.fields.name} onInput={set('name')} />
          <Field
            name="subject"
            label="Subject"
            value={form.subject}
            error={refusal.fields.subject}
            onInput={set('subject')}
          />
          <Field
            name="from"
            label="From (optional, on a verified domain)"
            type="email"
            value={form.from}
            error={refusal.fields.from}
            onInput={set('from')}
          />
          <FormatSelect value={form.format} onChange={(format) => setForm((f) => ({ ...f, format }))} />
          <div class="field">
            <label for="field-body">Body ({form.format === 'html' ? 'HTML' : 'Markdown'})</label>
            <textarea
              id="field-body"
              name="body"
              rows={14}
              value={form.body}
              aria-invalid={refusal.fields.body ? 'true' : undefined}
              aria-describedby={refusal.fields.body ? 'field-body-error' : undefined}
              onInput={(e) => set('body')((e.target as HTMLTextAreaElement).value)}
            />
            {refusal.fields.body && (
              <p class="field-error" id="field-body-error">
                {refusal.fields.body}
              </p>
            )}
          </div>
          <button type="submit" disabled={busy}>
            Save template
          </button>{' '}
          <span class="muted" role="status">
            {said}
          </span>
        </form>
        <TemplatePreview projectId={projectId} source={form} />
      </div>
      <section class="card" aria-labelledby="actions-heading">
        <h2 id="actions-heading">Copy or delete</h2>
        {failure !== null && <ErrorNote error={failure} />}
        <button type="button" disabled={busy} onClick={() => void duplicate()}>
          Duplicate
        </button>{' '}
        {deleting ? (
          <>
            <button type="button" disabled={busy} onClick={() => void remove()}>
              Yes, delete this template
            </button>{' '}
            <button type="button" onClick={() => setDeleting(false)}>
              Keep it
            </button>
          </>
        ) : (
          <button type="button" onClick={() => setDeleting(true)}>
            Delete
          </button>
        )}
      </section>
      <Usage projectId={projectId} templateId={template.id} />
      <p>
        <a href={`/app/p/${projectId}/templates`}>All templates</a>
      </p>
    </Page>
  );
}

/** The campaigns and workflow steps that reference the template (GET /templates/:id/usage). */
function Usage({ projectId, templateId }: { projectId: string; templateId: string }) {
  const usage = useLoad(
    () => api(projectId).request('get', '/templates/{id}/usage', { path: { id: templateId } }),
    [projectId, templateId],
  );
  return (
    <section class="card" aria-labelledby="usage-heading">
      <h2 id="usage-heading">Used by</h2>
      {usage.state === 'loading' && <Loading what="where the template is used" />}
      {usage.state === 'error' && <ErrorNote error={usage.error} retry={usage.reload} />}
      {usage.state === 'ready' &&
        (usage.data.campaigns.length + usage.data.workflows.length === 0 ? (
          <Empty>No campaign or workflow uses this template.</Empty>
        ) : (
          <ul class="list" data-usage>
            {usage.data.campaigns.map((c) => (
              <li key={c.id}>
                Campaign <a href={`/app/p/${projectId}/campaigns/${c.id}`}>{c.name}</a>
              </li>
            ))}
            {usage.data.workflows.map((w) => (
              <li key={`${w.id}-${w.stepId ?? ''}`}>
                Workflow <a href={`/app/p/${projectId}/workflows/${w.id}`}>{w.name}</a>
                {w.stepId ? <span class="muted"> (step {w.stepId})</span> : null}
              </li>
            ))}
          </ul>
        ))}
    </section>
  );
}

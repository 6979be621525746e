import { useMemo, useState } from 'preact/hooks';
import { api } from '../api.js';
import { ErrorNote, useLoad } from '../ui.js';
import { previewVariables, renderPreview, type PreviewContact } from './template-render.js';

export interface PreviewSource {
  subject: string;
  body: string;
  format: 'html' | 'markdown';
}

/**
 * The live preview: the subject and body as they are typed, rendered for a contact chosen among the
 * project's (its data and built-in fields; or sample values). The body is shown in a sandboxed frame
 * (no script, no same-origin access); the page's policy still applies to it, so nothing is fetched
 * from another origin (remote images stay blank) and inline styles are not applied.
 */
export function TemplatePreview({ projectId, source }: { projectId: string; source: PreviewSource }) {
  const contacts = useLoad(() => api(projectId).contacts.list({ limit: 50 }), [projectId]);
  const [contactId, setContactId] = useState('');
  const list: PreviewContact[] = contacts.state === 'ready' ? contacts.data.data : [];
  const contact = list.find((c) => c.id === contactId) ?? list[0] ?? null;
  const rendered = useMemo(
    () => renderPreview(source, previewVariables(contact)),
    [source.subject, source.body, source.format, contact],
  );
  return (
    <section class="card preview" aria-labelledby="preview-heading">
      <h2 id="preview-heading">Preview</h2>
      {contacts.state === 'error' && <ErrorNote error={contacts.error} retry={contacts.reload} />}
      <div class="field">
        <label for="preview-contact">Rendered for</label>
        <select
          id="preview-contact"
          value={contact?.id ?? ''}
          disabled={list.length === 0}
          onChange={(e) => setContactId((e.target as HTMLSelectElement).value)}
        >
          {list.length === 0 && <option value="">sample values (no contact yet)</option>}
          {list.map((c) => (
            <option key={c.id} value={c.id}>
              {c.email}
            </option>
          ))}
        </select>
      </div>
      {'problem' in rendered ? (
        <p class="error" role="status" data-preview-problem>
          {rendered.problem}
        </p>
      ) : (
        <>
          <p>
            <strong>Subject:</strong> <span data-preview-subject>{rendered.subject}</span>
          </p>
          <iframe class="preview-body" title="Preview of the body" sandbox="" srcdoc={rendered.html} />
        </>
      )}
    </section>
  );
}

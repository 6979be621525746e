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
 * (no script runs in it) under the page's policy, so nothing is fetched from another origin (remote
 * images stay blank); its inline styles, which the policy refuses as markup, are applied through
 * the CSSOM (`framed`).
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
          <FramedBody html={rendered.html} />
        </>
      )}
    </section>
  );
}

interface Framed {
  doc: string;
  /** The text of the `<style>` elements. */
  sheets: string[];
}

const STYLE_ELEMENT = /<style\b[^>]*>([\s\S]*?)<\/style\s*>/gi;
/** A start tag: its name, then its attributes, quoted or not (text's `<` is `&lt;` in HTML, so never one). */
const START_TAG = /(<[a-zA-Z][^\s/>]*)((?:\s+[^\s=>/]+(?:\s*=\s*(?:"[^"]*"|'[^']*'|[^\s"'>]+))?)*)(\s*\/?>)/g;
/** One attribute of a start tag, read from where the previous one ended (so never inside a value). */
const ATTRIBUTE = /(\s+)([^\s=>/]+)((?:\s*=\s*(?:"[^"]*"|'[^']*'|[^\s"'>]+))?)/g;

/**
 * The body's document for the frame with its inline styles set aside: the page's policy (which a
 * `srcdoc` frame inherits) refuses `style` attributes and `<style>` elements in markup, though not
 * styles set through the CSSOM. Done on the text: any parser of this page (DOMParser, a template)
 * would itself report each one to the policy. A `style` attribute becomes `data-preview-style`.
 */
function framed(html: string): Framed {
  const sheets: string[] = [];
  const unstyled = html
    .replace(STYLE_ELEMENT, (_, css: string) => {
      sheets.push(css);
      return '';
    })
    .replace(
      START_TAG,
      (_, open: string, attributes: string, close: string) =>
        open +
        attributes.replace(ATTRIBUTE, (all, space: string, name: string, value: string) =>
          name.toLowerCase() === 'style' ? `${space}data-preview-style${value}` : all,
        ) +
        close,
    );
  return { doc: unstyled, sheets };
}

/** Puts the styles back once the frame has loaded: declarations on their elements, the sheets adopted. */
function restyle(frame: HTMLIFrameElement, body: Framed): void {
  const doc = frame.contentDocument;
  const view = frame.contentWindow as (Window & typeof globalThis) | null;
  if (!doc || !view) return;
  for (const el of doc.querySelectorAll<HTMLElement>('[data-preview-style]'))
    el.style.cssText = el.dataset.previewStyle ?? '';
  const sheet = new view.CSSStyleSheet();
  sheet.replaceSync(body.sheets.join('\n'));
  doc.adoptedStyleSheets = [sheet];
}

/**
 * `allow-same-origin` (and no `allow-scripts`): this page may restyle the frame; the email's own
 * scripts, forms and pop-ups stay off.
 */
function FramedBody({ html }: { html: string }) {
  const body = useMemo(() => framed(html), [html]);
  return (
    <iframe
      class="preview-body"
      title="Preview of the body"
      sandbox="allow-same-origin"
      srcdoc={body.doc}
      onLoad={(e) => restyle(e.currentTarget, body)}
    />
  );
}

import { TemplateRenderer } from '@herald/templating/renderer';

/**
 * The templates screen's preview, rendered in the browser by the server's own renderer
 * (libs/templating: Liquid with Herald's `??` defaults, Markdown by markdown-it, the same limits), so
 * what is shown is what a send renders. Loaded with the templates screen only (a lazy chunk).
 */

// the renderer measures a long source with Node's Buffer.byteLength; a browser counts with TextEncoder
const scope = globalThis as { Buffer?: unknown };
scope.Buffer ??= { byteLength: (s: string) => new TextEncoder().encode(s).length };

const renderer = new TemplateRenderer();

export interface PreviewContact {
  id: string;
  email: string;
  subscribed: boolean;
  createdAt: string;
  updatedAt: string;
  data: Record<string, unknown>;
}

/** The links a send signs per contact; the preview points them nowhere. */
const PREVIEW_LINK = '#preview';

/**
 * A contact's variables as a send gives them (libs/services/sending/src/render/contact-variables.ts):
 * its data keys, then the built-in fields over them.
 */
export function previewVariables(contact: PreviewContact | null): Record<string, unknown> {
  const data = contact?.data ?? {};
  return {
    ...data,
    email: contact?.email ?? 'someone@example.com',
    id: contact?.id ?? '',
    subscribed: contact?.subscribed ?? true,
    createdAt: contact?.createdAt ?? '',
    updatedAt: contact?.updatedAt ?? '',
    locale: data.locale ?? null,
    unsubscribeUrl: PREVIEW_LINK,
    subscribeUrl: PREVIEW_LINK,
    manageUrl: PREVIEW_LINK,
    svc_id: contact?.id ?? '',
    svc_email: contact?.email ?? 'someone@example.com',
  };
}

export type Rendered = { subject: string; html: string } | { problem: string };

export function renderPreview(
  source: { subject: string; body: string; format: 'html' | 'markdown' },
  variables: Record<string, unknown>,
): Rendered {
  try {
    return {
      subject: renderer.render(source.subject, variables, { escape: 'none' }),
      html: renderer.render(source.body, variables, { escape: 'html', format: source.format }),
    };
  } catch (error) {
    return { problem: error instanceof Error ? error.message : String(error) };
  }
}

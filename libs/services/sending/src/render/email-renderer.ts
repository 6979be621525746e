import { invalidInput } from '@herald/core';
import { TemplateError, type BodyFormat, type TemplateRenderPool } from '@herald/templating';
import { Inject, Injectable } from '@nestjs/common';
import { LinkSigner } from '../links/link-signer.js';
import { SENDING_SETTINGS, type SendingSettings } from '../sending.settings.js';
import type { TemplateType } from '../templates/template.entity.js';
import { addOpenPixel, rewriteLinks } from './email-content.js';
import { contactVariables, type RenderContact } from './contact-variables.js';

/** The render threads of sending (RENDER_THREADS; `createTemplateRenderPool`). */
export const TEMPLATE_RENDER_POOL = Symbol('TEMPLATE_RENDER_POOL');

/** Longest subject of a rendered email (RFC 5322 line length). */
export const MAX_SUBJECT_LENGTH = 998;

/** What to render: Liquid sources of the subject and the body, the body's format, and the kind of mail. */
export interface EmailSource {
  subject: string;
  body: string;
  /** `markdown`: the body is Markdown, converted to HTML (its Liquid kept) before it renders as an HTML body. */
  format: BodyFormat;
  type: TemplateType;
}

export interface RenderedEmail {
  subject: string;
  html: string;
  text: string;
  /** Headers the rendering adds (List-Unsubscribe of marketing mail). */
  headers: Record<string, string>;
}

/** One email to one contact: the email's id (its links point at it) and the request's non-persistent data. */
export interface RenderTarget {
  projectId: string;
  emailId: string;
  contact: RenderContact;
  transient?: Record<string, unknown>;
}

/**
 * The one place an email is rendered for a contact (/v1/send today; campaigns and workflows call
 * it too): the contact's built-in fields and data as variables (contactVariables), the subject
 * without escaping (line breaks folded), the body HTML-escaped (a Markdown body converted to HTML
 * first, on the render thread, once per source), a plain-text part, click tracking,
 * the open pixel, and List-Unsubscribe for marketing mail. A template that fails to render is a
 * field error on `fields.body` (or `fields.subject`).
 */
@Injectable()
export class EmailRenderer {
  constructor(
    @Inject(SENDING_SETTINGS) private readonly settings: SendingSettings,
    private readonly links: LinkSigner,
    @Inject(TEMPLATE_RENDER_POOL) private readonly renderer: TemplateRenderPool,
  ) {}

  async render(
    source: EmailSource,
    target: RenderTarget,
    fields: { subject: string; body: string } = { subject: 'subject', body: 'body' },
  ): Promise<RenderedEmail> {
    const urls = this.links.subscriptionUrls(target.projectId, target.contact.id, target.emailId);
    const variables = contactVariables(target.contact, urls, target.transient);
    let subject: string;
    let html: string;
    let text: string;
    try {
      // one task: the subject as is, the body escaped, and the body's plain text, off the event loop
      const rendered = await this.renderer.render({
        parts: [
          { source: source.subject, escape: 'none' },
          { source: source.body, escape: 'html', format: source.format },
        ],
        variables,
        plainTextOf: 1,
      });
      subject = rendered.outputs[0]!.replace(/[\r\n]+/g, ' ').trim();
      html = rendered.outputs[1]!;
      text = rendered.plainText!;
    } catch (err) {
      if (!(err instanceof TemplateError)) throw err;
      throw invalidInput([
        {
          field: fields.body,
          message: `The template could not be rendered: ${(err as Error).message}`,
          code: 'render_failed',
        },
      ]);
    }
    if (subject.length === 0 || subject.length > MAX_SUBJECT_LENGTH) {
      throw invalidInput([
        {
          field: fields.subject,
          message: `The rendered subject must be 1 to ${MAX_SUBJECT_LENGTH} characters`,
          code: 'invalid_string',
        },
      ]);
    }
    const ownLink = (url: string) => url.startsWith(`${this.links.appUrl}/`);
    if (this.settings.TRACK_CLICKS)
      html = rewriteLinks(html, (url) => this.links.trackedLink(target.emailId, url), ownLink);
    if (this.settings.TRACK_OPENS) html = addOpenPixel(html, this.links.openUrl(target.emailId));
    const headers: Record<string, string> =
      source.type === 'marketing'
        ? { 'List-Unsubscribe': `<${urls.unsubscribeUrl}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' }
        : {};
    return { subject, html, text, headers };
  }
}

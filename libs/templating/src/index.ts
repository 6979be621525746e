import { TemplateRenderer, type RenderOptions, type TemplateVariables } from './template-renderer.js';
import type { BodyFormat } from './markdown-template.js';
import type { TemplateProblem } from './template-errors.js';

export * from './template-renderer.js';
export * from './template-errors.js';
export { htmlToPlainText, type PlainTextOptions } from './html-to-plain-text.js';
export { NULLISH_OPERATOR } from './nullish-default.js';
export { BODY_FORMATS, markdownTemplate, type BodyFormat, type MarkdownTemplate } from './markdown-template.js';

let shared: TemplateRenderer | undefined;

/** The process-wide renderer with the default limits (its parsed-template cache is shared by all callers). */
export const defaultTemplateRenderer = (): TemplateRenderer => (shared ??= new TemplateRenderer());

/** Renders with the default renderer; see `TemplateRenderer.render`. */
export const renderTemplate = (source: string, variables: TemplateVariables, options: RenderOptions): string =>
  defaultTemplateRenderer().render(source, variables, options);

/**
 * Parses (does not render) a template: `[]`, or its problems with 1-based line and column. A
 * Markdown body (`format: 'markdown'`) is held to its own size limit; its Liquid is checked as written.
 */
export const validateTemplate = (source: string, options: { format?: BodyFormat } = {}): TemplateProblem[] =>
  defaultTemplateRenderer().validate(source, options);
export {
  createTemplateRenderPool,
  runRenderTask,
  type RenderReply,
  type RenderResult,
  type RenderTask,
  type TemplateRenderPool,
} from './render-threads.js';
export { renderThreadsProvider, type RenderThreadsProviderOptions } from './render-threads.provider.js';

import { TypeGuards, type Liquid } from 'liquidjs';
import MarkdownIt, { type MarkdownIt as Markdown, type StateBlock } from 'markdown-it';
import { topLevelTokens } from './linear-parse.js';

/** How an email body is written: HTML, or Markdown converted to HTML before Liquid renders it. */
export type BodyFormat = 'html' | 'markdown';
export const BODY_FORMATS: readonly BodyFormat[] = ['html', 'markdown'];

/** A Markdown body converted to an HTML Liquid template, with the way back to the author's positions. */
export interface MarkdownTemplate {
  /** HTML with every `{{ … }}` and `{% … %}` of the source exactly as written. */
  html: string;
  /** The offset in the Markdown source of an offset in `html` (a Liquid span maps into itself). */
  sourceOffset(offset: number): number;
}

/** One Liquid span of the source and where its copy sits in the converted HTML. */
interface Span {
  /** Offset in the converted HTML. */
  at: number;
  /** Offset in the Markdown source. */
  from: number;
  length: number;
}

/** A line holding only Liquid tags (placeholders of `{% … %}`), and the block token it becomes. */
const TAG_LINE = 'liquid_tag_line';

/**
 * markdown-it (docs/adr/0015-markdown-bodies.md): CommonMark plus GitHub's tables and strikethrough,
 * raw HTML allowed (the author may send HTML anyway; contact data never reaches the converter),
 * bare `http(s)://` URLs and email addresses made links (not bare domains: `www.example.com` and
 * `Herald.app` stay text), no typographic replacements (quotes and dashes stay as written), CommonMark's
 * line breaks (a single newline is a space). Links markdown-it refuses (`javascript:`,
 * `vbscript:`, `file:`, `data:` other than images) stay text.
 */
function createMarkdown(): Markdown {
  const md = new MarkdownIt('default', { html: true, linkify: true, typographer: false, breaks: false });
  md.linkify.set({ fuzzyLink: false });
  // a line of Liquid tags only is a block of its own: never wrapped in <p>, and it ends the
  // paragraph, list, quote or table before it, so `{% if %}` … `{% endif %}` around blocks keeps
  // the HTML well formed whichever way the condition goes
  md.block.ruler.before('table', TAG_LINE, tagLine, {
    alt: ['paragraph', 'reference', 'blockquote', 'list', 'table'],
  });
  md.renderer.rules[TAG_LINE] = (tokens, idx) => `${tokens[idx]!.content}\n`;
  return md;
}

/** The placeholders of the current conversion: which are tags, and how a tag-only line reads. */
interface Placeholders {
  tags: ReadonlySet<number>;
  tagLine: RegExp;
  each: RegExp;
}

function tagLine(state: StateBlock, startLine: number, _endLine: number, silent: boolean): boolean {
  const placeholders = (state.env as { placeholders?: Placeholders }).placeholders;
  if (!placeholders || state.sCount[startLine]! - state.blkIndent >= 4) return false; // indented code
  const line = state.src.slice(state.bMarks[startLine]! + state.tShift[startLine]!, state.eMarks[startLine]);
  if (!placeholders.tagLine.test(line)) return false;
  for (const m of line.matchAll(placeholders.each)) if (!placeholders.tags.has(Number(m[1]))) return false;
  if (silent) return true;
  const token = state.push(TAG_LINE, '', 0);
  token.content = line.trimEnd();
  token.map = [startLine, startLine + 1];
  state.line = startLine + 1;
  return true;
}

let markdown: Markdown | undefined;

/**
 * Converts a Markdown email body to an HTML Liquid template, Liquid left as written: each
 * `{{ … }}` and `{% … %}` (found by liquidjs' own tokenizer, so quotes and `{% raw %}` are read as
 * Liquid reads them) is replaced by an inert alphanumeric placeholder, the Markdown converted, and
 * the spans put back. So `[Unsubscribe]({{ unsubscribeUrl }})` keeps its braces (markdown-it
 * would percent-encode them in a link), `{{ first_name }}` is no emphasis, and a line holding only
 * tags stays outside paragraphs. The result renders as any HTML body: values HTML-escaped, and
 * contact data is never Markdown (it arrives after the conversion). Throws liquidjs' tokenizer
 * error when the source does not tokenize (an unclosed `{{`).
 */
export function markdownTemplate(source: string, options: Liquid['options']): MarkdownTemplate {
  const tokens = topLevelTokens(source, options);
  const marker = placeholderMarker(source);
  const spans: { begin: number; end: number }[] = [];
  const tags = new Set<number>();
  let text = '';
  let at = 0;
  for (const token of tokens) {
    const isTag = TypeGuards.isTagToken(token);
    if (!isTag && !TypeGuards.isOutputToken(token)) continue;
    if (isTag) tags.add(spans.length);
    text += `${source.slice(at, token.begin)}${marker}${spans.length}z`;
    spans.push({ begin: token.begin, end: token.end });
    at = token.end;
  }
  text += source.slice(at);

  const each = new RegExp(`${marker}(\\d+)z`, 'g');
  const env = {
    placeholders: { tags, each, tagLine: new RegExp(`^(?:${marker}\\d+z[ \\t]*)+$`) } satisfies Placeholders,
  };
  const rendered = (markdown ??= createMarkdown()).render(text, env);

  // the spans back in; a placeholder markdown-it copied (a linkified URL is its text and its href) is restored each time
  const copies: Span[] = [];
  let html = '';
  let last = 0;
  for (const m of rendered.matchAll(each)) {
    const span = spans[Number(m[1])];
    if (!span) continue;
    html += rendered.slice(last, m.index);
    copies.push({ at: html.length, from: span.begin, length: span.end - span.begin });
    html += source.slice(span.begin, span.end);
    last = m.index + m[0].length;
  }
  html += rendered.slice(last);
  return { html, sourceOffset: (offset) => sourceOffset(copies, offset) };
}

/**
 * `lq` followed by one `x` more than any `lq`, `lqx`, `lqxx`, … of the source has: a marker the
 * source does not contain, found in one pass.
 */
function placeholderMarker(source: string): string {
  let longest = -1;
  for (const m of source.matchAll(/lq(x*)/gi)) longest = Math.max(longest, m[1]!.length);
  return `lq${'x'.repeat(longest + 1)}`;
}

/** Inside a span: the same place in the source; between spans: the end of the span before (or 0). */
function sourceOffset(copies: readonly Span[], offset: number): number {
  let low = 0;
  let high = copies.length - 1;
  let before: Span | undefined;
  while (low <= high) {
    const mid = (low + high) >> 1;
    const copy = copies[mid]!;
    if (copy.at <= offset) {
      before = copy;
      low = mid + 1;
    } else high = mid - 1;
  }
  if (!before) return 0;
  const inside = offset - before.at;
  return inside < before.length ? before.from + inside : before.from + before.length;
}

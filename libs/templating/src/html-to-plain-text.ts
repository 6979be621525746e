import { compile, type FormatCallback, type HtmlToTextOptions } from 'html-to-text';

export interface PlainTextOptions {
  /** Wrap lines at this many characters, or `false` for no wrapping. Default 78 (RFC 5322 line length). */
  wordwrap?: number | false;
}

/** An image becomes its alt text (never its src: inline images are long base64 `data:` URLs). */
const imageAlt: FormatCallback = (elem, _walk, builder) => {
  const alt = typeof elem.attribs?.alt === 'string' ? elem.attribs.alt.trim() : '';
  if (alt) builder.addInline(alt);
};

const options = (wordwrap: number | false): HtmlToTextOptions => ({
  wordwrap,
  formatters: { imageAlt },
  selectors: [
    { selector: 'img', format: 'imageAlt' },
    // links as "text [url]"; the url alone when it is the text; "#fragment" and bare anchors hidden
    { selector: 'a', options: { linkBrackets: ['[', ']'], hideLinkHrefIfSameAsText: true, noAnchorUrl: true } },
    // email layouts are nested tables: one cell per line reads better than a text grid
    { selector: 'table', format: 'block' },
    ...['tr', 'td', 'th'].map((selector) => ({
      selector,
      format: 'block',
      options: { leadingLineBreaks: 1, trailingLineBreaks: 1 },
    })),
  ],
});

const converters = new Map<number | false, (html: string) => string>();

/**
 * A readable plain-text alternative of an HTML email body: headings, paragraphs and lists kept,
 * links as `text [url]`, images as their alt text, `<head>`, `<style>` and `<script>` dropped.
 */
export function htmlToPlainText(html: string, { wordwrap = 78 }: PlainTextOptions = {}): string {
  let convert = converters.get(wordwrap);
  if (!convert) {
    convert = compile(options(wordwrap));
    if (converters.size < 16) converters.set(wordwrap, convert);
  }
  return convert(html);
}

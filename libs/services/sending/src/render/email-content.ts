/** Rewrites of a rendered HTML body for tracking: click redirects and the open pixel. */

import { escapeHtml } from '../shared/escape-html.js';

const ANCHOR_HREF = /(<a\b[^>]*?\bhref\s*=\s*)(["'])(https?:\/\/[^"']+)\2/gi;

const unescapeHtml = (s: string) =>
  s
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');

/** Every http(s) link of `<a href>` goes through `track(url)` unless `keep(url)` (subscription links stay as they are). */
export function rewriteLinks(html: string, track: (url: string) => string, keep: (url: string) => boolean): string {
  return html.replace(ANCHOR_HREF, (whole, prefix: string, quote: string, href: string) => {
    const url = unescapeHtml(href);
    if (keep(url)) return whole;
    return `${prefix}${quote}${escapeHtml(track(url))}${quote}`;
  });
}

/** Adds a 1×1 open pixel before `</body>`, or at the end of a fragment. */
export function addOpenPixel(html: string, pixelUrl: string): string {
  const img = `<img src="${escapeHtml(pixelUrl)}" width="1" height="1" alt="" style="display:none;border:0" />`;
  const close = html.search(/<\/body\s*>/i);
  return close >= 0 ? `${html.slice(0, close)}${img}${html.slice(close)}` : `${html}${img}`;
}

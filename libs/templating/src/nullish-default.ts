import { defaultOperators, Tokenizer, TypeGuards, type Liquid, type Operators } from 'liquidjs';

/**
 * `{{ field ?? default }}`: the default is used when the value is missing (undefined) or null, never
 * for 0, false or "". Implemented in two parts:
 *
 * 1. `??` is a liquidjs binary operator (so `{{ a ?? "x" | upcase }}` applies filters to the result,
 *    and quoted defaults even work inside `{% if %}` / `{% assign %}`);
 * 2. before parsing, every output tag `{{ … ?? default … }}` is rewritten so that the default is a
 *    quoted string literal: an unquoted default is literal text (`{{ name ?? there }}` → "there",
 *    `{{ n ?? 0 }}` → "0"), never a variable lookup, and the spaces around `??` become optional
 *    (liquid identifiers may end in `?`, so `name??x` would otherwise read as the variable `name??x`).
 *
 * The rewrite records its edits so that error positions can be mapped back to the author's source.
 */

export const NULLISH_OPERATOR = '??';

const nullish = (left: unknown, right: unknown): unknown => (left === undefined || left === null ? right : left);

/** The liquid operators with `??` added (liquidjs types operators as boolean-returning; ours returns the value). */
export const templateOperators: Operators = {
  ...defaultOperators,
  [NULLISH_OPERATOR]: nullish as unknown as Operators[string],
};

/** One replacement: `source.slice(start, end)` became `text`. */
export interface SourceEdit {
  start: number;
  end: number;
  text: string;
}

export interface RewrittenSource {
  source: string;
  edits: SourceEdit[];
  /**
   * When the rewritten text was itself made from the author's source (a Markdown body converted to
   * HTML): the offset in the author's source of an offset in that text, before the edits.
   */
  origin?: (offset: number) => number;
}

/**
 * Rewrites the `??` defaults of output tags. Tags (`{% %}`), raw blocks and plain text are left alone.
 * A source that does not tokenize is returned unchanged (the parser reports the error).
 */
export function rewriteNullishDefaults(source: string, options: Liquid['options']): RewrittenSource {
  if (!source.includes(NULLISH_OPERATOR)) return { source, edits: [] };
  let tokens;
  try {
    tokens = new Tokenizer(
      source,
      options.operators,
      undefined,
      undefined,
      options.groupedExpressions,
    ).readTopLevelTokens(options);
  } catch {
    return { source, edits: [] };
  }
  const edits: SourceEdit[] = [];
  for (const token of tokens) {
    if (!TypeGuards.isOutputToken(token)) continue;
    const [contentBegin, contentEnd] = token.contentRange;
    const edit = rewriteOutput(source, contentBegin, contentEnd);
    if (edit) edits.push(edit);
  }
  return { source: applyEdits(source, edits), edits };
}

function rewriteOutput(source: string, begin: number, end: number): SourceEdit | undefined {
  const operatorAt = indexOutsideQuotes(source, NULLISH_OPERATOR, begin, end);
  if (operatorAt < 0) return undefined;
  if (!source.slice(begin, operatorAt).trim()) return undefined; // `{{ ?? x }}`: nothing to default; the parser rejects it
  const defaultBegin = operatorAt + NULLISH_OPERATOR.length;
  const pipeAt = indexOutsideQuotes(source, '|', defaultBegin, end);
  const defaultEnd = pipeAt < 0 ? end : pipeAt;
  const text = source.slice(defaultBegin, defaultEnd).trim();
  const literal = isQuotedLiteral(text) ? text : toStringLiteral(text);
  return { start: operatorAt, end: defaultEnd, text: ` ${NULLISH_OPERATOR} ${literal} ` };
}

/** First index of `needle` in `source[begin, end)` that is not inside a quoted string literal. */
function indexOutsideQuotes(source: string, needle: string, begin: number, end: number): number {
  let quote: string | undefined;
  for (let i = begin; i < end; i++) {
    const ch = source[i];
    if (quote) {
      if (ch === '\\') i++;
      else if (ch === quote) quote = undefined;
    } else if (ch === '"' || ch === "'") {
      quote = ch;
    } else if (source.startsWith(needle, i) && i + needle.length <= end) {
      return i;
    }
  }
  return -1;
}

const QUOTED = /^(?:"(?:\\[\s\S]|[^"\\])*"|'(?:\\[\s\S]|[^'\\])*')$/;

function isQuotedLiteral(text: string): boolean {
  return QUOTED.test(text);
}

/** A liquid string literal whose value is exactly `text` (liquid literals understand backslash escapes). */
function toStringLiteral(text: string): string {
  return `"${text.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
}

function applyEdits(source: string, edits: readonly SourceEdit[]): string {
  let out = '';
  let at = 0;
  for (const edit of edits) {
    out += source.slice(at, edit.start) + edit.text;
    at = edit.end;
  }
  return out + source.slice(at);
}

/** Maps an offset in the rewritten source back to the author's source (inside an edit: its start). */
export function originalOffset(offset: number, edits: readonly SourceEdit[]): number {
  let delta = 0; // rewritten offset − original offset, for positions after the edits seen so far
  for (const edit of edits) {
    const rewrittenStart = edit.start + delta;
    if (offset < rewrittenStart) break;
    const rewrittenEnd = rewrittenStart + edit.text.length;
    if (offset < rewrittenEnd) return edit.start;
    delta += edit.text.length - (edit.end - edit.start);
  }
  return offset - delta;
}

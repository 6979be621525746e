import { LiquidError } from 'liquidjs';
import { originalOffset, type RewrittenSource } from './nullish-default.js';

/** A problem in a template, positioned in the author's source (1-based line and column). */
export interface TemplateProblem {
  message: string;
  line: number;
  column: number;
}

export const TemplateErrorCode = {
  /** The source is larger than `maxTemplateBytes`. */
  TooLarge: 'TEMPLATE_TOO_LARGE',
  /** The source does not parse (see `problems`). */
  Invalid: 'TEMPLATE_INVALID',
  /** Rendering hit the time, memory or output-length limit. */
  LimitExceeded: 'TEMPLATE_LIMIT_EXCEEDED',
  /** Any other failure while rendering (e.g. a filter given a bad argument). */
  RenderFailed: 'TEMPLATE_RENDER_FAILED',
} as const;
export type TemplateErrorCode = (typeof TemplateErrorCode)[keyof typeof TemplateErrorCode];

export class TemplateError extends Error {
  override readonly name = 'TemplateError';

  constructor(
    readonly code: TemplateErrorCode,
    message: string,
    readonly problems: readonly TemplateProblem[] = [],
  ) {
    super(message);
  }
}

/** "line 3, column 7: tag "endif" not found" */
export const describeProblem = (problem: TemplateProblem): string =>
  `line ${problem.line}, column ${problem.column}: ${problem.message}`;

/** Thrown by the bounded output emitter; liquidjs wraps it, `rootCause` finds it again. */
export class OutputLimitError extends Error {
  constructor(readonly limit: number) {
    super(`output length limit exceeded`);
  }
}

/** The innermost error of a liquidjs error chain (RenderError → … → AssertionError). */
export function rootCause(err: unknown): unknown {
  let current = err;
  for (let depth = 0; depth < 32; depth++) {
    const inner = (current as { originalError?: unknown } | null)?.originalError;
    if (!inner) return current;
    current = inner;
  }
  return current;
}

const POSITION_SUFFIX = /, line:\d+, col:\d+$/;

/** Converts a liquidjs parse or render error into positioned problems in `original`. */
export function toProblems(err: unknown, parsed: RewrittenSource, original: string): TemplateProblem[] {
  const nested = (err as { errors?: unknown } | null)?.errors;
  if (LiquidError.is(err) && err.name === 'LiquidErrors' && Array.isArray(nested)) {
    return nested.flatMap((inner) => toProblems(inner, parsed, original));
  }
  if (!LiquidError.is(err)) {
    return [{ message: err instanceof Error ? err.message : String(err), line: 1, column: 1 }];
  }
  const cause = rootCause(err);
  const message = (cause instanceof Error && cause !== err ? cause.message : err.message).replace(POSITION_SUFFIX, '');
  const token = err.token;
  if (token && token.input === parsed.source) {
    const offset = originalOffset(token.begin, parsed.edits);
    return [{ message, ...lineAndColumn(original, parsed.origin ? parsed.origin(offset) : offset) }];
  }
  const [, line, column] = /, line:(\d+), col:(\d+)$/.exec(err.message) ?? [];
  return [{ message, line: Number(line ?? 1), column: Number(column ?? 1) }];
}

export function lineAndColumn(source: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  const end = Math.min(Math.max(offset, 0), source.length);
  for (let i = source.indexOf('\n'); i !== -1 && i < end; i = source.indexOf('\n', i + 1)) {
    line++;
    lineStart = i + 1;
  }
  return { line, column: end - lineStart + 1 };
}

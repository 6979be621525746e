import {
  Context,
  filters as builtinFilters,
  Liquid,
  toValue,
  toValueSync,
  type Emitter,
  type FS,
  type Template,
} from 'liquidjs';
import { htmlToPlainText } from './html-to-plain-text.js';
import { parseLinear } from './linear-parse.js';
import { LruCache } from './lru-cache.js';
import { markdownTemplate, type BodyFormat } from './markdown-template.js';
import { nestingProblem } from './nesting-depth.js';
import { registerBudgetedLoops, RenderBudget, WorkLimitError } from './render-budget.js';
import { rewriteNullishDefaults, templateOperators, type RewrittenSource } from './nullish-default.js';
import {
  describeProblem,
  OutputLimitError,
  rootCause,
  TemplateError,
  TemplateErrorCode,
  toProblems,
  type TemplateProblem,
} from './template-errors.js';

/** `html`: every inserted value is HTML-escaped (email bodies). `none`: inserted as is (subjects, plain text). */
export type EscapeMode = 'html' | 'none';

export interface RenderOptions {
  escape: EscapeMode;
  /**
   * `markdown`: the source is Markdown, converted to HTML (its Liquid kept as written) before it is
   * parsed; only with `escape: 'html'`. The conversion is cached with the parsed template.
   */
  format?: BodyFormat;
}

/** What a parsed-template cache holds: templates of one escape mode, or Markdown bodies converted and parsed. */
export type TemplateCacheMode = EscapeMode | 'markdown';

/** Template variables: contact data, the per-send values and the generated URLs (see docs/templating.md). */
export type TemplateVariables = Record<string, unknown>;

export interface TemplateLimits {
  /** Largest accepted template source, in UTF-8 bytes. */
  maxTemplateBytes: number;
  /**
   * Largest accepted Markdown source, in UTF-8 bytes: converting Markdown costs several times what
   * parsing Liquid does per byte, and nothing can stop markdown-it midway (docs/templating.md).
   */
  maxMarkdownBytes: number;
  /** Longest a single render may run, in milliseconds (liquidjs `renderLimit`). */
  renderTimeLimitMs: number;
  /** Budget for allocations while rendering: range sizes, array and string filter results (liquidjs `memoryLimit`). */
  memoryLimit: number;
  /** Longest accepted rendered output, in characters. */
  maxOutputLength: number;
  /** Deepest accepted nesting of block tags (`if`, `for`, `case`, …), checked before parsing. */
  maxNestingDepth: number;
  /** Most tags and outputs (`{% … %}`, `{{ … }}`) in one template, checked before parsing. */
  maxTags: number;
  /** Work budget of one render: tags, outputs and texts rendered, loop iterations over ranges charged up front. */
  maxRenderSteps: number;
}

export interface TemplateRendererOptions extends Partial<TemplateLimits> {
  /** Parsed templates kept per cache mode (least recently used evicted). 0 disables the cache. */
  cacheEntries?: number;
  /** Total source length (characters; a Markdown body: its converted HTML) the cache may hold per cache mode. */
  cacheMaxSourceLength?: number;
}

export const DEFAULT_TEMPLATE_LIMITS: Readonly<TemplateLimits> = Object.freeze({
  maxTemplateBytes: 512 * 1024,
  maxMarkdownBytes: 128 * 1024,
  renderTimeLimitMs: 250,
  memoryLimit: 1_000_000,
  maxOutputLength: 4 * 1024 * 1024,
  maxNestingDepth: 50,
  maxTags: 10_000,
  maxRenderSteps: 1_000_000,
});

export const DEFAULT_CACHE_ENTRIES = 500;
export const DEFAULT_CACHE_MAX_SOURCE_LENGTH = 32 * 1024 * 1024;

export interface MessageTemplate {
  subject: string;
  /** HTML body. */
  html: string;
  /** Plain-text body; derived from the rendered HTML when absent. */
  text?: string | null;
}

export interface RenderedMessage {
  subject: string;
  html: string;
  text: string;
}

/** Templates never touch the file system: `include`, `render` and `layout` are removed and this refuses reads. */
const refuseFileAccess = (): never => {
  throw new Error('templates cannot read files');
};
const NO_FILE_SYSTEM: FS = {
  exists: () => Promise.resolve(false),
  existsSync: () => false,
  readFile: () => Promise.reject(new Error('templates cannot read files')),
  readFileSync: refuseFileAccess,
  resolve: (_dir, file) => file,
  contains: () => Promise.resolve(false),
  containsSync: () => false,
};
const FILE_TAGS = ['include', 'render', 'layout'] as const;

type Engine = Liquid;
type Parsed = { templates: Template[]; rewritten: RewrittenSource } | { error: TemplateError };

/**
 * Renders email subjects and bodies: liquid (liquidjs) with `{{ field ?? default }}`, per-mode
 * escaping, no file access, and size, time, memory and output limits. Parsed templates are cached
 * per source, so rendering the same template for thousands of recipients parses it once.
 *
 * Rendering is synchronous: there is no I/O, and the time limit bounds how long it can block.
 */
export class TemplateRenderer {
  readonly limits: Readonly<TemplateLimits>;
  private readonly engines: Record<EscapeMode, Engine>;
  private readonly validator: Engine;
  private readonly caches: Record<TemplateCacheMode, LruCache<string, Parsed>>;

  constructor(options: TemplateRendererOptions = {}) {
    this.limits = Object.freeze({
      maxTemplateBytes: options.maxTemplateBytes ?? DEFAULT_TEMPLATE_LIMITS.maxTemplateBytes,
      maxMarkdownBytes: options.maxMarkdownBytes ?? DEFAULT_TEMPLATE_LIMITS.maxMarkdownBytes,
      renderTimeLimitMs: options.renderTimeLimitMs ?? DEFAULT_TEMPLATE_LIMITS.renderTimeLimitMs,
      memoryLimit: options.memoryLimit ?? DEFAULT_TEMPLATE_LIMITS.memoryLimit,
      maxOutputLength: options.maxOutputLength ?? DEFAULT_TEMPLATE_LIMITS.maxOutputLength,
      maxNestingDepth: options.maxNestingDepth ?? DEFAULT_TEMPLATE_LIMITS.maxNestingDepth,
      maxTags: options.maxTags ?? DEFAULT_TEMPLATE_LIMITS.maxTags,
      maxRenderSteps: options.maxRenderSteps ?? DEFAULT_TEMPLATE_LIMITS.maxRenderSteps,
    });
    this.engines = { html: createEngine({ escapeHtml: true }), none: createEngine({ escapeHtml: false }) };
    this.validator = createEngine({ escapeHtml: false, collectAllErrors: true });
    const entries = options.cacheEntries ?? DEFAULT_CACHE_ENTRIES;
    const weight = options.cacheMaxSourceLength ?? DEFAULT_CACHE_MAX_SOURCE_LENGTH;
    this.caches = {
      html: new LruCache(entries, weight),
      none: new LruCache(entries, weight),
      markdown: new LruCache(entries, weight),
    };
  }

  /**
   * Renders `source` with `variables`. Throws a `TemplateError`: `TEMPLATE_TOO_LARGE`,
   * `TEMPLATE_INVALID` (with `problems`), `TEMPLATE_LIMIT_EXCEEDED` or `TEMPLATE_RENDER_FAILED`.
   */
  render(source: string, variables: TemplateVariables, { escape, format = 'html' }: RenderOptions): string {
    if (escape !== 'html' && escape !== 'none')
      throw new TypeError(`escape must be 'html' or 'none', got ${String(escape)}`);
    if (format !== 'html' && format !== 'markdown')
      throw new TypeError(`format must be 'html' or 'markdown', got ${String(format)}`);
    if (format === 'markdown' && escape !== 'html')
      throw new TypeError(`a Markdown source renders HTML: escape must be 'html'`);
    const engine = this.engines[escape];
    const parsed = this.parse(source, format === 'markdown' ? 'markdown' : escape);
    if ('error' in parsed) throw parsed.error;
    const budget = new RenderBudget(this.limits.maxRenderSteps, performance.now() + this.limits.renderTimeLimitMs);
    const context = new Context(
      variables,
      engine.options,
      { sync: true, memoryLimit: this.limits.memoryLimit },
      { liquid: engine, renderLimit: budget as unknown as Context['renderLimit'] },
    );
    const emitter = new BoundedEmitter(this.limits.maxOutputLength);
    try {
      toValueSync(engine.renderer.renderTemplates(parsed.templates, context, emitter));
    } catch (err) {
      throw this.renderFailure(err, parsed.rewritten, source);
    }
    return emitter.buffer;
  }

  /** Subject (no escaping, one line), HTML body (escaped) and plain-text body (given, or derived from the HTML). */
  renderMessage(template: MessageTemplate, variables: TemplateVariables): RenderedMessage {
    const subject = toSingleLine(this.render(template.subject, variables, { escape: 'none' }));
    const html = this.render(template.html, variables, { escape: 'html' });
    const text = template.text ? this.render(template.text, variables, { escape: 'none' }) : htmlToPlainText(html);
    return { subject, html, text };
  }

  /**
   * Parses (does not render) `source`: `[]` when it is valid, otherwise every problem found,
   * positioned. A Markdown source (`format: 'markdown'`) is held to `maxMarkdownBytes`; its Liquid
   * is checked as written (the conversion keeps it), without converting it.
   */
  validate(source: string, { format = 'html' }: { format?: BodyFormat } = {}): TemplateProblem[] {
    const tooLarge = this.sizeProblem(source, format) ?? this.nestingProblem(source);
    if (tooLarge) return [tooLarge];
    const rewritten = rewriteNullishDefaults(source, this.validator.options);
    try {
      parseLinear(this.validator, rewritten.source);
      return [];
    } catch (err) {
      return toProblems(err, rewritten, source);
    }
  }

  /** Number of parsed templates currently cached for a mode. */
  cachedTemplates(mode: TemplateCacheMode): number {
    return this.caches[mode].size;
  }

  clearCache(): void {
    for (const cache of Object.values(this.caches)) cache.clear();
  }

  /**
   * The parsed template of `source`, from the cache of `mode` when it is there. A Markdown source is
   * converted first (`markdownTemplate`) and parsed as an HTML body; its problems are positioned in
   * the Markdown source.
   */
  private parse(source: string, mode: TemplateCacheMode): Parsed {
    const cache = this.caches[mode];
    const cached = cache.get(source);
    if (cached) return cached;
    const tooLarge = this.sizeProblem(source, mode === 'markdown' ? 'markdown' : 'html');
    if (tooLarge) throw new TemplateError(TemplateErrorCode.TooLarge, tooLarge.message, [tooLarge]);
    const tooDeep = this.nestingProblem(source);
    if (tooDeep) {
      const error = new TemplateError(TemplateErrorCode.Invalid, `Template is not valid: ${describeProblem(tooDeep)}`, [
        tooDeep,
      ]);
      cache.set(source, { error }, source.length);
      return { error };
    }
    const engine = this.engines[mode === 'markdown' ? 'html' : mode];
    let html = source;
    let origin: ((offset: number) => number) | undefined;
    if (mode === 'markdown') {
      try {
        const converted = markdownTemplate(source, engine.options);
        html = converted.html;
        origin = converted.sourceOffset;
      } catch (err) {
        // the source does not tokenize as Liquid: its problems, as validate() finds them
        const problems = this.validate(source);
        if (!problems.length) problems.push(...toProblems(err, { source, edits: [] }, source));
        const error = new TemplateError(
          TemplateErrorCode.Invalid,
          `Template is not valid: ${problems.map(describeProblem).join('; ')}`,
          problems,
        );
        cache.set(source, { error }, source.length);
        return { error };
      }
    }
    const rewritten: RewrittenSource = {
      ...rewriteNullishDefaults(html, engine.options),
      ...(origin ? { origin } : {}),
    };
    let parsed: Parsed;
    try {
      parsed = { templates: parseLinear(engine, rewritten.source), rewritten };
    } catch (err) {
      // the fail-fast parser stops at the first problem; report all of them, as validate() does
      const problems = this.validate(source);
      if (!problems.length) problems.push(...toProblems(err, rewritten, source));
      parsed = {
        error: new TemplateError(
          TemplateErrorCode.Invalid,
          `Template is not valid: ${problems.map(describeProblem).join('; ')}`,
          problems,
        ),
      };
    }
    cache.set(source, parsed, Math.max(source.length, html.length));
    return parsed;
  }

  private sizeProblem(source: string, format: BodyFormat): TemplateProblem | undefined {
    const max = format === 'markdown' ? this.limits.maxMarkdownBytes : this.limits.maxTemplateBytes;
    // UTF-8 needs at most 3 bytes per UTF-16 unit: measure only when the length alone cannot decide
    const bytes = source.length > max ? source.length : source.length * 3 > max ? Buffer.byteLength(source, 'utf8') : 0;
    if (bytes <= max) return undefined;
    const what = format === 'markdown' ? 'Markdown template' : 'template';
    return { message: `${what} is larger than the limit of ${max} bytes`, line: 1, column: 1 };
  }

  /**
   * Nesting past `maxNestingDepth`, or more than `maxTags` tags and outputs, found in linear time
   * before liquidjs' parser sees the source.
   */
  private nestingProblem(source: string): TemplateProblem | undefined {
    return nestingProblem(source, this.validator.options, this.limits.maxNestingDepth, this.limits.maxTags);
  }

  private renderFailure(err: unknown, rewritten: RewrittenSource, source: string): TemplateError {
    const problems = toProblems(err, rewritten, source);
    const cause = rootCause(err);
    const limit = this.limitMessage(cause);
    if (limit) {
      return new TemplateError(
        TemplateErrorCode.LimitExceeded,
        limit,
        problems.map((problem) => ({ ...problem, message: limit })),
      );
    }
    const message = problems[0]?.message ?? (cause instanceof Error ? cause.message : String(cause));
    return new TemplateError(TemplateErrorCode.RenderFailed, `Template could not be rendered: ${message}`, problems);
  }

  private limitMessage(cause: unknown): string | undefined {
    if (cause instanceof OutputLimitError || (cause instanceof RangeError && /string length/i.test(cause.message))) {
      return `Template output exceeds the limit of ${this.limits.maxOutputLength} characters`;
    }
    if (cause instanceof WorkLimitError) {
      return `Template rendering exceeded the work limit of ${this.limits.maxRenderSteps} steps (tags, outputs and loop iterations)`;
    }
    const message = cause instanceof Error ? cause.message : '';
    if (message.startsWith('template render limit exceeded')) {
      return `Template rendering exceeded the time limit of ${this.limits.renderTimeLimitMs} ms`;
    }
    if (message.startsWith('memory alloc limit exceeded')) {
      return `Template rendering exceeded the memory limit of ${this.limits.memoryLimit} (loop ranges, array and string operations)`;
    }
    return undefined;
  }
}

function createEngine({
  escapeHtml,
  collectAllErrors = false,
}: {
  escapeHtml: boolean;
  collectAllErrors?: boolean;
}): Engine {
  const engine = new Liquid({
    fs: NO_FILE_SYSTEM,
    cache: false,
    relativeReference: false,
    strictFilters: true, // an unknown filter is a parse error, so validateTemplate() reports typos
    strictVariables: false, // a missing variable renders empty
    ownPropertyOnly: true, // no `{{ x.constructor }}` and friends
    timezoneOffset: 0, // `date` formats in UTC whatever the host's zone
    operators: templateOperators,
    catchAllErrors: collectAllErrors,
    outputEscape: escapeHtml ? 'escape' : undefined,
    // liquidjs' parseLimit is cumulative over an engine's lifetime (it would eventually reject every
    // template of a long-lived renderer), so the template size is checked per source instead.
  });
  for (const tag of FILE_TAGS) delete engine.tags[tag];
  registerBudgetedLoops(engine);
  // `| raw` must not switch auto-escaping off: contact data is untrusted. It stays a no-op filter.
  engine.registerFilter('raw', (value: unknown) => value);
  if (escapeHtml) {
    // already-escaped output is not escaped twice: `{{ x | escape }}` equals `{{ x }}`
    for (const name of ['escape', 'escape_once', 'xml_escape']) {
      const impl = builtinFilters[name]!;
      engine.registerFilter(name, { handler: typeof impl === 'function' ? impl : impl.handler, raw: true });
    }
  }
  return engine;
}

/** Collects the output and fails as soon as it grows past the limit (instead of after the render). */
class BoundedEmitter implements Emitter {
  buffer = '';

  constructor(private readonly maxLength: number) {}

  write(html: unknown): void {
    const text = stringify(html);
    if (this.buffer.length + text.length > this.maxLength) throw new OutputLimitError(this.maxLength);
    this.buffer += text;
  }
}

/** liquidjs' output stringification (not exported by the package). */
function stringify(value: unknown): string {
  const v = toValue(value);
  if (typeof v === 'string') return v;
  if (v === null || v === undefined) return '';
  if (Array.isArray(v)) return v.map(stringify).join('');
  return String(v);
}

const toSingleLine = (subject: string): string => subject.replace(/\s*[\r\n]+\s*/g, ' ').trim();

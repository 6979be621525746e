import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Piscina } from 'piscina';
import { htmlToPlainText } from './html-to-plain-text.js';
import type { BodyFormat } from './markdown-template.js';
import { TemplateError, type TemplateErrorCode, type TemplateProblem } from './template-errors.js';
import { TemplateRenderer, type EscapeMode, type TemplateVariables } from './template-renderer.js';

/** One render job: sources rendered with the same variables, and optionally a plain-text part derived from one of them. */
export interface RenderTask {
  /** `format: 'markdown'`: a Markdown body (with `escape: 'html'`), converted to HTML on the render thread. */
  parts: { source: string; escape: EscapeMode; format?: BodyFormat }[];
  variables: TemplateVariables;
  /** Index of the part whose output is also turned into plain text (`htmlToPlainText`). */
  plainTextOf?: number;
}

export interface RenderResult {
  outputs: string[];
  plainText?: string;
}

/** What crosses the thread boundary: an answer or a template error as plain data. */
export type RenderReply =
  { ok: RenderResult } | { error: { code: TemplateErrorCode; message: string; problems: readonly TemplateProblem[] } };

/** Renders a task with `renderer` (on whichever thread runs it): a template error becomes data. */
export function runRenderTask(renderer: TemplateRenderer, task: RenderTask): RenderReply {
  try {
    const outputs = task.parts.map((part) =>
      renderer.render(part.source, task.variables, {
        escape: part.escape,
        ...(part.format ? { format: part.format } : {}),
      }),
    );
    const ok: RenderResult = { outputs };
    if (task.plainTextOf !== undefined) ok.plainText = htmlToPlainText(outputs[task.plainTextOf] ?? '');
    return { ok };
  } catch (err) {
    if (err instanceof TemplateError)
      return { error: { code: err.code, message: err.message, problems: err.problems } };
    throw err;
  }
}

/**
 * Where Liquid templates are rendered for email: in a pool of worker threads (RENDER_THREADS, so a
 * hostile template holds a render thread for its time budget, never the event loop that answers
 * requests), or on the event loop (0 threads: tests and tools). Every thread enforces the renderer's
 * limits (time, work, memory, output) on each render; renders beyond the threads wait their turn
 * (their time limit starts when a thread takes them).
 */
export interface TemplateRenderPool {
  /** Renders the task's parts; throws a `TemplateError` as `TemplateRenderer.render` does. */
  render(task: RenderTask): Promise<RenderResult>;
  /** Whether rendering leaves the event loop free. */
  readonly offThread: boolean;
  close(): Promise<void>;
}

/** The compiled render thread, next to this module in dist/. */
const WORKER = fileURLToPath(new URL('./render.worker.js', import.meta.url));

const answer = (reply: RenderReply): RenderResult => {
  if ('ok' in reply) return reply.ok;
  throw new TemplateError(reply.error.code, reply.error.message, reply.error.problems);
};

export function createTemplateRenderPool(threads: number, workerFile = WORKER): TemplateRenderPool {
  if (threads === 0) {
    const renderer = new TemplateRenderer();
    return {
      render: async (task) => answer(runRenderTask(renderer, task)),
      offThread: false,
      close: async () => renderer.clearCache(),
    };
  }
  // started by the first render: a module that never renders (a tool, a test of another part) starts no thread
  let pool: Piscina | undefined;
  const started = (): Piscina => {
    if (pool) return pool;
    if (!existsSync(workerFile))
      throw new Error(
        `the render thread ${workerFile} does not exist: run the built service (npm run build), or set RENDER_THREADS=0`,
      );
    return (pool = new Piscina({
      filename: workerFile,
      minThreads: threads,
      maxThreads: threads,
      idleTimeout: Infinity,
    }));
  };
  return {
    render: async (task) => answer((await started().run(task)) as RenderReply),
    offThread: true,
    close: async () => pool?.close(),
  };
}

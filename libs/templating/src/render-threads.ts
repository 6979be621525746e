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

/** What crosses the thread boundary: an answer, a template error as plain data, or another failure's message. */
export type RenderReply =
  | { ok: RenderResult }
  | { error: { code: TemplateErrorCode; message: string; problems: readonly TemplateProblem[] } }
  | { failed: string };

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

/** Renders one hand-off to a render thread carries at most (`createTemplateRenderPool`). */
export const RENDERS_PER_HANDOFF = 16;

/**
 * Renders several tasks in turn (one hand-off to a render thread), each answered as if alone: a task
 * that fails otherwise than with a template error fails alone (`failed`), not its hand-off.
 */
export function runRenderTasks(renderer: TemplateRenderer, tasks: RenderTask[]): RenderReply[] {
  return tasks.map((task) => {
    try {
      return runRenderTask(renderer, task);
    } catch (err) {
      return { failed: err instanceof Error ? err.message : String(err) };
    }
  });
}

/**
 * Where Liquid templates are rendered for email: in a pool of worker threads (RENDER_THREADS, so a
 * hostile template holds a render thread for its time budget, never the event loop that answers
 * requests), or on the event loop (0 threads: tests and tools). Every thread enforces the renderer's
 * limits (time, work, memory, output) on each render; renders beyond the threads wait their turn
 * (their time limit starts when a thread takes them). Renders asked in the same turn of the event
 * loop (the recipients of concurrent sends, whose lookups end together) are handed to the threads
 * together, up to RENDERS_PER_HANDOFF a hand-off, spread over the threads: one message each way
 * instead of one per render, each render still under its own limits and answered on its own.
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
  if ('failed' in reply) throw new Error(reply.failed);
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
  let waiting: { task: RenderTask; resolve: (r: RenderResult) => void; reject: (e: unknown) => void }[] = [];
  const handOff = async (batch: typeof waiting) => {
    try {
      const replies = (await started().run(batch.map((w) => w.task))) as RenderReply[];
      batch.forEach((w, i) => {
        try {
          w.resolve(answer(replies[i]!));
        } catch (err) {
          w.reject(err);
        }
      });
    } catch (err) {
      for (const w of batch) w.reject(err);
    }
  };
  const flush = () => {
    const all = waiting;
    waiting = [];
    // as many hand-offs as threads (each at most RENDERS_PER_HANDOFF), so that every thread works
    const handOffs = Math.max(Math.min(threads, all.length), Math.ceil(all.length / RENDERS_PER_HANDOFF));
    const size = Math.ceil(all.length / handOffs);
    for (let i = 0; i < all.length; i += size) void handOff(all.slice(i, i + size));
  };
  return {
    render: (task) =>
      new Promise<RenderResult>((resolve, reject) => {
        if (waiting.push({ task, resolve, reject }) === 1) setImmediate(flush);
      }),
    offThread: true,
    close: async () => pool?.close(),
  };
}

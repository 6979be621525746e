import { runRenderTasks, type RenderReply, type RenderTask } from './render-threads.js';
import { TemplateRenderer } from './template-renderer.js';

/**
 * A render thread (Piscina): renders Liquid with the default limits, off the event loop of the
 * process that asked. Each thread keeps its own cache of parsed templates.
 */
const renderer = new TemplateRenderer();

/** Renders a hand-off's tasks in turn, one reply each (`createTemplateRenderPool`). */
export default function render(tasks: RenderTask[]): RenderReply[] {
  return runRenderTasks(renderer, tasks);
}

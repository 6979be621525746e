import { runRenderTask, type RenderReply, type RenderTask } from './render-threads.js';
import { TemplateRenderer } from './template-renderer.js';

/**
 * A render thread (Piscina): renders Liquid with the default limits, off the event loop of the
 * process that asked. Each thread keeps its own cache of parsed templates.
 */
const renderer = new TemplateRenderer();

export default function render(task: RenderTask): RenderReply {
  return runRenderTask(renderer, task);
}

import { renderThreadsProvider } from '@herald/templating';
import { WORKFLOWS_SETTINGS, type WorkflowsSettings } from './workflows.settings.js';

/** The render threads of workflows (RENDER_THREADS; `createTemplateRenderPool`): step effects and the dry run. */
export const WORKFLOWS_RENDER_POOL = Symbol('WORKFLOWS_RENDER_POOL');

/** Workflows' render threads, stopped with the application. */
export const RENDER_THREADS_PROVIDER = renderThreadsProvider<WorkflowsSettings>({
  provide: WORKFLOWS_RENDER_POOL,
  settings: WORKFLOWS_SETTINGS,
  threads: (settings) => settings.RENDER_THREADS,
});

import { renderThreadsProvider } from '@herald/templating';
import { SENDING_SETTINGS, type SendingSettings } from '../sending.settings.js';
import { TEMPLATE_RENDER_POOL } from './email-renderer.js';

/** Sending's render threads (RENDER_THREADS), stopped with the application. */
export const RENDER_THREADS_PROVIDER = renderThreadsProvider<SendingSettings>({
  provide: TEMPLATE_RENDER_POOL,
  settings: SENDING_SETTINGS,
  threads: (settings) => settings.RENDER_THREADS,
});

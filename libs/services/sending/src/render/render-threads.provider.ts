import { createTemplateRenderPool, type TemplateRenderPool } from '@herald/templating';
import type { OnApplicationShutdown, Provider } from '@nestjs/common';
import { SENDING_SETTINGS, type SendingSettings } from '../sending.settings.js';
import { TEMPLATE_RENDER_POOL } from './email-renderer.js';

/** Sending's render threads (RENDER_THREADS), stopped with the application. */
export const RENDER_THREADS_PROVIDER: Provider = {
  provide: TEMPLATE_RENDER_POOL,
  inject: [SENDING_SETTINGS],
  useFactory: (settings: SendingSettings): TemplateRenderPool & OnApplicationShutdown => {
    const pool = createTemplateRenderPool(settings.RENDER_THREADS);
    return Object.assign(pool, { onApplicationShutdown: () => pool.close() });
  },
};

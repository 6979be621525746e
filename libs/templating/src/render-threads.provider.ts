import type { InjectionToken, OnApplicationShutdown, Provider } from '@nestjs/common';
import { createTemplateRenderPool, type TemplateRenderPool } from './render-threads.js';

/** Where a service's render threads come from: its validated settings and how many threads they ask for. */
export interface RenderThreadsProviderOptions<S> {
  /** The token the pool is injected by (`@Inject(token) pool: TemplateRenderPool`). */
  provide: InjectionToken;
  /** The token of the service's settings (loaded and validated at boot). */
  settings: InjectionToken;
  /** RENDER_THREADS of those settings (0: render on the event loop). */
  threads: (settings: S) => number;
}

/**
 * A service's render pool (`createTemplateRenderPool`) as a Nest provider, closed when the
 * application shuts down. Sending and workflows each provide one from their own RENDER_THREADS.
 */
export function renderThreadsProvider<S>(options: RenderThreadsProviderOptions<S>): Provider {
  return {
    provide: options.provide,
    inject: [options.settings],
    useFactory: (settings: S): TemplateRenderPool & OnApplicationShutdown => {
      const pool = createTemplateRenderPool(options.threads(settings));
      return Object.assign(pool, { onApplicationShutdown: () => pool.close() });
    },
  };
}

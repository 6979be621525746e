import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Piscina } from 'piscina';
import { messageComposer, type ComposeTask } from './compose-message.js';

/** Composes and signs outgoing messages: on the event loop, or in a pool of threads. */
export interface MessageComposer {
  compose(task: ComposeTask): Promise<Buffer>;
  /** Whether composing leaves the event loop free (a batch may then be composed all at once). */
  readonly offThread: boolean;
  close(): Promise<void>;
}

/** A compose thread's young generation (both semi-spaces and the new large-object space), MB. */
const COMPOSE_YOUNG_GENERATION_MB = 24;

/** The compiled compose thread, next to this module in dist/. */
const WORKER = fileURLToPath(new URL('./compose.worker.js', import.meta.url));

/**
 * `threads` 0: on the event loop. Otherwise a Piscina pool of that many threads (DELIVERY_COMPOSE_THREADS):
 * composing a 10 KB message and signing it with RSA-2048 takes milliseconds of CPU, the largest
 * share of a campaign email's cost, and on the event loop it would delay every request and every
 * consumer of the process by as much.
 */
export function createMessageComposer(threads: number, workerFile = WORKER): MessageComposer {
  if (threads === 0) {
    const inline = messageComposer();
    return {
      compose: (task) => inline.compose(task),
      offThread: false,
      close: async () => inline.close(),
    };
  }
  if (!existsSync(workerFile))
    throw new Error(
      `the compose thread ${workerFile} does not exist: run the built service (npm run build), or set DELIVERY_COMPOSE_THREADS=0`,
    );
  const pool = new Piscina({
    filename: workerFile,
    minThreads: threads,
    maxThreads: threads,
    idleTimeout: Infinity,
    // a thread holds one message at a time: a small young generation keeps its resident memory
    // small (V8 would otherwise grow it to the process's --max-semi-space-size under load)
    resourceLimits: { maxYoungGenerationSizeMb: COMPOSE_YOUNG_GENERATION_MB },
  });
  return {
    async compose(task) {
      const bytes = (await pool.run(task)) as Uint8Array;
      return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    },
    offThread: true,
    close: () => pool.close(),
  };
}

import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { setFlagsFromString } from 'node:v8';
import { Piscina, type PiscinaTask, type TaskQueue } from 'piscina';
import { Gauge } from 'prom-client';
import { messageComposer, type ComposeReply, type ComposeTask } from './compose-message.js';

/** Composes and signs outgoing messages: on the event loop, or in a pool of threads. */
export interface MessageComposer {
  /** `urgent` (the normal lane's mail): composed before every non-urgent message still waiting for a thread. */
  compose(task: ComposeTask, urgent?: boolean): Promise<Buffer>;
  /** Whether composing leaves the event loop free (a batch may then be composed all at once). */
  readonly offThread: boolean;
  /** The V8 heaps of the compose threads (none on the event loop): allocated and resident bytes. */
  threadHeaps(): Promise<{ total: number; physical: number }[]>;
  close(): Promise<void>;
}

/** A compose thread's semi-space, MB: its young generation is three of them (two semi-spaces and the new large-object space). */
const COMPOSE_SEMI_SPACE_MB = 8;

/**
 * Compositions one hand-off to a compose thread carries at most: the messages of a batch whose keys
 * are known in the same turn of the event loop go to the threads together, a few per message each
 * way instead of one message (and one wake-up of a thread, and of the event loop) per email; few
 * enough that the first of them reach the SMTP pool after a few milliseconds of composing.
 */
export const COMPOSES_PER_HANDOFF = 8;

/** What marks a hand-off of urgent messages for the pool's queue (`UrgentFirst`). */
const URGENT = { urgent: true };

/**
 * The compose threads' queue: hand-offs of urgent messages (the normal lane's) before the others,
 * each kind in order of arrival. Two bulk batches may be waiting for the threads (one composed while
 * the other is on the wire): a `/v1/send` email waits behind neither.
 */
class UrgentFirst implements TaskQueue {
  private readonly urgent: PiscinaTask[] = [];
  private readonly others: PiscinaTask[] = [];

  get size(): number {
    return this.urgent.length + this.others.length;
  }

  push(task: PiscinaTask): void {
    (task[Piscina.queueOptionsSymbol as never] === URGENT ? this.urgent : this.others).push(task);
  }

  shift(): PiscinaTask | null {
    return this.urgent.shift() ?? this.others.shift() ?? null;
  }

  remove(task: PiscinaTask): void {
    for (const queue of [this.urgent, this.others]) {
      const at = queue.indexOf(task);
      if (at >= 0) queue.splice(at, 1);
    }
  }
}

/** The thread pools of this process, read when /metrics is scraped. */
const pools = new Set<MessageComposer>();

/** Prometheus: each compose thread's V8 heap (sending), allocated (`total`) and resident. */
new Gauge({
  name: 'herald_compose_thread_heap_bytes',
  help: "V8 heap of each compose thread (sending): 'total' allocated, 'resident' in memory",
  labelNames: ['thread', 'kind'],
  async collect() {
    this.reset();
    let thread = 0;
    for (const pool of pools)
      for (const heap of await pool.threadHeaps().catch(() => [])) {
        this.set({ thread: String(thread), kind: 'total' }, heap.total);
        this.set({ thread: String(thread++), kind: 'resident' }, heap.physical);
      }
  },
});

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
      threadHeaps: async () => [],
      close: async () => inline.close(),
    };
  }
  if (!existsSync(workerFile))
    throw new Error(
      `the compose thread ${workerFile} does not exist: run the built service (npm run build), or set DELIVERY_COMPOSE_THREADS=0`,
    );
  // A thread holds one message at a time: a small young generation keeps its resident memory small.
  // V8's --max-semi-space-size (64 under `npm start`, for the request paths: docs/operations.md,
  // Memory) wins over a worker's resourceLimits.maxYoungGenerationSizeMb, so each compose thread
  // had the main thread's 128 MB young generation (118 MB resident with 11–38 MB used, under a
  // campaign). The flag is read when an isolate is created: set here, it sizes the compose threads
  // (these, and a replacement of one that died) and leaves the main thread's heap, configured at
  // start, as it is. The process starts no other threads with a V8 heap.
  setFlagsFromString(`--max-semi-space-size=${COMPOSE_SEMI_SPACE_MB}`);
  const pool = new Piscina({
    filename: workerFile,
    minThreads: threads,
    maxThreads: threads,
    idleTimeout: Infinity,
    taskQueue: new UrgentFirst(),
    resourceLimits: { maxYoungGenerationSizeMb: 3 * COMPOSE_SEMI_SPACE_MB },
  });
  type Waiting = { task: ComposeTask; urgent: boolean; resolve: (raw: Buffer) => void; reject: (err: unknown) => void };
  let waiting: Waiting[] = [];
  const handOff = async (batch: Waiting[]) => {
    try {
      const tasks = batch.map((w) => w.task);
      if (batch[0]!.urgent) Object.assign(tasks, { [Piscina.queueOptionsSymbol]: URGENT });
      const replies = (await pool.run(tasks)) as ComposeReply[];
      batch.forEach((w, i) => {
        const reply = replies[i]!;
        if ('failed' in reply) w.reject(new Error(reply.failed));
        else w.resolve(Buffer.from(reply.raw.buffer, reply.raw.byteOffset, reply.raw.byteLength));
      });
    } catch (err) {
      for (const w of batch) w.reject(err);
    }
  };
  /** As many hand-offs as threads (each at most COMPOSES_PER_HANDOFF), so that every thread works. */
  const handOffAll = (all: Waiting[]) => {
    const handOffs = Math.max(Math.min(threads, all.length), Math.ceil(all.length / COMPOSES_PER_HANDOFF));
    const size = Math.ceil(all.length / handOffs);
    for (let i = 0; i < all.length; i += size) void handOff(all.slice(i, i + size));
  };
  const flush = () => {
    const all = waiting;
    waiting = [];
    handOffAll(all.filter((w) => w.urgent));
    handOffAll(all.filter((w) => !w.urgent));
  };
  const composer: MessageComposer = {
    compose: (task, urgent = false) =>
      new Promise<Buffer>((resolve, reject) => {
        if (waiting.push({ task, urgent, resolve, reject }) === 1) setImmediate(flush);
      }),
    offThread: true,
    threadHeaps: () =>
      Promise.all(
        pool.threads.map(async (thread) => {
          const h = await thread.getHeapStatistics();
          return { total: h.total_heap_size, physical: h.total_physical_size };
        }),
      ),
    close: () => {
      pools.delete(composer);
      return pool.close();
    },
  };
  pools.add(composer);
  return composer;
}

/**
 * A loopback SMTP sink for benches that only counts (smtp-server in a worker thread of the bench
 * process: parsing each message, as the test sink does, would take CPU from what is measured).
 * It notes the arrival time of messages to `probe` recipients (addresses starting with
 * `probePrefix`), so a bench can measure time-to-relay of chosen messages among a flood.
 */
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import { SMTPServer } from 'smtp-server';
import { sleep } from './support.js';

const SLOTS = 4; // count, bytes, first arrival, last arrival (epoch ms)

async function runSink(): Promise<void> {
  const stats = new Float64Array(workerData.shared as SharedArrayBuffer);
  const prefix = workerData.probePrefix as string;
  const probes: Record<string, number> = {};
  const server = new SMTPServer({
    name: 'sink.bench.test',
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    disableReverseLookup: true,
    logger: false,
    maxAllowedUnauthenticatedCommands: false,
    socketTimeout: 60_000,
    closeTimeout: 1_000,
    onData(stream, session, callback) {
      let bytes = 0;
      stream.on('data', (chunk: Buffer) => (bytes += chunk.length));
      stream.once('end', () => {
        const now = performance.timeOrigin + performance.now();
        if (stats[0] === 0) stats[2] = now;
        stats[3] = now;
        stats[1] = stats[1]! + bytes;
        stats[0] = stats[0]! + 1;
        for (const r of session.envelope.rcptTo) if (r.address.startsWith(prefix)) probes[r.address] = now;
        callback(null, 'OK: counted');
      });
    },
  });
  server.on('error', () => undefined); // clients resetting their connections
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  parentPort!.postMessage({ port: (server.server.address() as { port: number }).port });
  parentPort!.on('message', (m: string) => {
    if (m === 'probes') parentPort!.postMessage({ probes });
    else server.close(() => parentPort!.postMessage('closed'));
  });
}

if (!isMainThread && workerData?.countingSink) void runSink();

export interface SinkReading {
  count: number;
  bytes: number;
  firstAt: number;
  lastAt: number;
}

export type CountingSink = Awaited<ReturnType<typeof startCountingSink>>;

export async function startCountingSink(probePrefix = 'probe-') {
  const shared = new SharedArrayBuffer(SLOTS * 8);
  const stats = new Float64Array(shared);
  const worker = new Worker(new URL(import.meta.url), { workerData: { shared, probePrefix, countingSink: true } });
  const port = await new Promise<number>((resolve, reject) => {
    worker.once('message', (m: { port: number }) => resolve(m.port));
    worker.once('error', reject);
  });
  return {
    url: `smtp://127.0.0.1:${port}`,
    read: (): SinkReading => ({ count: stats[0]!, bytes: stats[1]!, firstAt: stats[2]!, lastAt: stats[3]! }),
    /** Forgets the counts (first arrival included): call while nothing is being delivered. */
    reset: () => stats.fill(0),
    /** Waits until `count` messages have arrived since the last reset (false when the time is up). */
    async waitFor(count: number, timeoutMs: number): Promise<boolean> {
      const deadline = performance.now() + timeoutMs;
      while (stats[0]! < count) {
        if (performance.now() > deadline) return false;
        await sleep(5);
      }
      return true;
    },
    /** Arrival time (epoch ms) of each probe recipient so far. */
    probes: () =>
      new Promise<Record<string, number>>((resolve) => {
        worker.once('message', (m: { probes: Record<string, number> }) => resolve(m.probes));
        worker.postMessage('probes');
      }),
    async stop() {
      worker.postMessage('stop');
      await new Promise((r) => worker.once('message', r));
      await worker.terminate();
    },
  };
}

/**
 * A TCP link of the tests' own between a client and what it connects to
 * (PostgreSQL, a Kafka listener): bytes pass through unchanged until a fault is set.
 *  - `latency(ms)`: every chunk, both ways, waits `ms` before it is passed on (order kept).
 *  - `reset()`: every open connection is reset (RST to both ends), as a middlebox restart does.
 *  - `partition()`: a half-open network. Every connection open now, and every one opened until
 *    `heal()`, is dead for good: its bytes are dropped both ways and it is never closed, so each
 *    end believes it is open (a peer gone without a FIN, a NAT entry dropped). `heal()` lets new
 *    connections through again; the dead ones stay dead, as they would, and only a timeout of the
 *    client's own ends its wait.
 */
import { createServer, connect, type Server, type Socket } from 'node:net';

export interface NetLink {
  /** Where clients connect: 127.0.0.1:<port>. */
  host: string;
  port: number;
  latency(ms: number): void;
  reset(): void;
  partition(): void;
  heal(): void;
  /** Connections opened through the link so far, and those it holds dead. */
  counts(): { opened: number; dead: number };
  stop(): Promise<void>;
}

interface Pair {
  client: Socket;
  upstream: Socket;
  dead: boolean;
}

/** `upstream`: where connections go, read at each connection (a Kafka listener started after the link). */
export async function startNetLink(upstream: () => { host: string; port: number }): Promise<NetLink> {
  const pairs = new Set<Pair>();
  let delayMs = 0;
  let partitioned = false;
  let opened = 0;

  const pass = (pair: Pair, to: () => Socket) => (chunk: Buffer) => {
    if (pair.dead) return; // dropped: nothing reaches the other end, nothing tells this one
    if (delayMs === 0) return void to().write(chunk);
    setTimeout(() => !pair.dead && to().write(chunk), delayMs); // equal delays fire in order
  };

  const server: Server = createServer((client) => {
    opened++;
    const target = upstream();
    const pair: Pair = { client, upstream: connect(target.port, target.host), dead: partitioned };
    pairs.add(pair);
    client.on(
      'data',
      pass(pair, () => pair.upstream),
    );
    pair.upstream.on(
      'data',
      pass(pair, () => client),
    );
    const close = () => {
      if (pair.dead) return; // a dead connection's end never reaches the other side
      pairs.delete(pair);
      client.destroy();
      pair.upstream.destroy();
    };
    for (const s of [client, pair.upstream]) {
      s.on('error', close);
      s.on('close', close);
    }
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const port = (server.address() as { port: number }).port;
  return {
    host: '127.0.0.1',
    port,
    latency: (ms) => void (delayMs = ms),
    reset() {
      for (const pair of [...pairs]) {
        if (pair.dead) continue;
        pairs.delete(pair);
        pair.client.resetAndDestroy();
        pair.upstream.resetAndDestroy();
      }
    },
    partition() {
      partitioned = true;
      for (const pair of pairs) pair.dead = true;
    },
    heal: () => void (partitioned = false),
    counts: () => ({ opened, dead: [...pairs].filter((p) => p.dead).length }),
    async stop() {
      for (const pair of pairs) {
        pair.client.destroy();
        pair.upstream.destroy();
      }
      pairs.clear();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

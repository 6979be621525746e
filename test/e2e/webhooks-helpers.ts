import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request a receiver got. */
export interface ReceivedWebhook {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  at: number;
}

/**
 * A loopback receiver of webhook deliveries, reached as `http://localhost:<port>` (the e2e
 * topologies allow `localhost`: WEBHOOKS_ALLOW). Paths choose the answer: `/fail…` answers 500,
 * anything else 200 after `delayMs`. Keeps every request.
 */
export class WebhookReceiver {
  readonly received: ReceivedWebhook[] = [];
  private server!: Server;
  private port = 0;

  constructor(private readonly delayMs = 0) {}

  async start(): Promise<this> {
    this.server = createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString('utf8')));
      req.on('end', () => {
        const path = req.url ?? '/';
        this.received.push({ path, headers: req.headers, body, at: Date.now() });
        const fail = path.startsWith('/fail');
        setTimeout(() => {
          res.writeHead(fail ? 500 : 200, { 'content-type': 'text/plain' });
          res.end(fail ? 'receiver down' : 'ok');
        }, this.delayMs);
      });
    });
    // both loopback families where the machine has them: `localhost` may resolve to either
    await new Promise<void>((resolve) => {
      this.server.once('error', () => this.server.listen(0, '127.0.0.1', resolve));
      this.server.listen(0, '::', resolve);
    });
    this.port = (this.server.address() as AddressInfo).port;
    return this;
  }

  url(path: string): string {
    return `http://localhost:${this.port}${path}`;
  }

  at(path: string): ReceivedWebhook[] {
    return this.received.filter((r) => r.path === path);
  }

  /** The distinct `webhook-id`s received at `path`. */
  ids(path: string): Set<string> {
    return new Set(this.at(path).map((r) => r.headers['webhook-id'] as string));
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise((r) => this.server.close(r));
  }
}

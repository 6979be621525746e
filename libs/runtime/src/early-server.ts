import http from 'node:http';
import { ErrorCode, genRequestId, HeraldException, toErrorBody } from '@herald/http';

/** Fastify's keep-alive timeout (Node's own is 5 s), kept for the server Fastify adopts. */
const KEEP_ALIVE_TIMEOUT_MS = 72_000;

/**
 * The HTTP server of a process, listening from its first moment: while the application starts
 * (connecting to the database, building the modules) `/health/live` answers 200, `/health/ready`
 * 503 naming what the start is waiting for, and every other path 503 SERVICE_UNAVAILABLE with
 * `Retry-After`. A restarted process thus never refuses connections, and says why it is not ready.
 *
 * Fastify adopts the same socket (`fastifyServerFactory`): when it "listens", the server, already
 * listening, hands its requests to Fastify from then on.
 */
export class EarlyServer {
  readonly server: http.Server;
  private appHandler?: http.RequestListener;
  private adopted?: http.RequestListener;
  private phase = 'starting';

  private constructor() {
    this.server = http.createServer((req, res) => (this.adopted ?? this.booting)(req, res));
    this.server.keepAliveTimeout = KEEP_ALIVE_TIMEOUT_MS;
    const listen = this.server.listen.bind(this.server) as (...args: unknown[]) => http.Server;
    // Fastify's listen(): the socket is open already, so hand the requests over instead of binding again.
    this.server.listen = ((...args: unknown[]) => {
      if (!this.server.listening || !this.appHandler) return listen(...args);
      this.adopted = this.appHandler;
      process.nextTick(() => this.server.emit('listening'));
      return this.server;
    }) as typeof this.server.listen;
  }

  /** Listens on `port` and `host` at once; rejects when the port is taken. */
  static async listen(port: number, host: string): Promise<EarlyServer> {
    const early = new EarlyServer();
    await new Promise<void>((resolve, reject) => {
      early.server.once('error', reject);
      early.server.listen({ port, host }, () => {
        early.server.off('error', reject);
        resolve();
      });
    });
    return early;
  }

  /** What the start waits for, as `/health/ready` says it. */
  waitingFor(phase: string): void {
    this.phase = phase;
  }

  /** Fastify's `serverFactory`: this server, whose requests go to Fastify once Fastify listens. */
  readonly fastifyServerFactory = (handler: http.RequestListener): http.Server => {
    this.appHandler = handler;
    return this.server;
  };

  private readonly booting: http.RequestListener = (req, res) => {
    const path = (req.url ?? '/').split('?', 1)[0];
    req.resume();
    if (path === '/health/live') return json(res, 200, { status: 'ok' });
    if (path === '/health/ready')
      return json(res, 503, {
        status: 'error',
        checks: { startup: { status: 'down', error: this.phase, latencyMs: 0 } },
      });
    const unavailable = new HeraldException(503, ErrorCode.ServiceUnavailable, 'The service is starting', {
      suggestion: 'Retry shortly.',
    });
    const { status, body } = toErrorBody(unavailable, genRequestId(req), req.url);
    res.setHeader('retry-after', '1');
    json(res, status, body);
  };
}

function json(res: http.ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(text),
  });
  res.end(text);
}

import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { metricsRegistry } from './metrics.js';

/**
 * The Prometheus scrape endpoint on a port of its own (METRICS_PORT): `GET /metrics` answers the
 * registry's text, anything else 404. Not the application's port, so what reaches the public port
 * (the gateway's Ingress) never reaches it; the network decides who scrapes (a NetworkPolicy letting
 * only the monitoring namespace in).
 */
export class MetricsServer {
  private constructor(private readonly server: Server) {}

  /** Listens on `port` (0: any free one) of `host`; rejects when the port is taken. */
  static async listen(port: number, host: string): Promise<MetricsServer> {
    const server = createServer((req, res) => {
      const path = (req.url ?? '').split('?')[0];
      if (path !== '/metrics' || (req.method !== 'GET' && req.method !== 'HEAD')) {
        res.writeHead(404, { 'content-type': 'text/plain' }).end('Not found: the metrics port serves GET /metrics\n');
        return;
      }
      metricsRegistry.metrics().then(
        (text) => res.writeHead(200, { 'content-type': metricsRegistry.contentType }).end(text),
        (err: unknown) => res.writeHead(500, { 'content-type': 'text/plain' }).end(`${String(err)}\n`),
      );
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', (err) => reject(new Error(`METRICS_PORT ${port} on ${host}: ${err.message}`)));
      server.listen(port, host, () => {
        server.removeAllListeners('error');
        resolve();
      });
    });
    // a scrape in flight never holds a shutdown open
    server.unref();
    return new MetricsServer(server);
  }

  get port(): number {
    return (this.server.address() as AddressInfo).port;
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

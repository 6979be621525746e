/**
 * A loopback TCP balancer of the fault suite's own (scenario 7 of issue 44), as kube-proxy and a
 * readiness probe are for a Kubernetes Service: each new connection goes to the next ready backend
 * in turn (round-robin, layer 4: a keep-alive connection stays on the backend it was opened to); a
 * backend is probed on `/health/ready` every `probe.periodMs` (each probe a connection of its own,
 * failed past `probe.timeoutMs`), ready from its first 200 and no longer after `probe.failures`
 * failed probes in a row (deploy/k8s's readinessProbe: 5 s, 3 s and 2; the suite scales the period); a connection
 * that arrives when no backend is ready, or whose backend refuses it, is cut (kube-proxy does not
 * retry either). What a client sees of a rolling restart through it is what it would see in a cluster.
 */
import http from 'node:http';
import net from 'node:net';
import { eventually, freePort } from '@herald/testing';

/** The readiness probe's settings, as a Kubernetes readinessProbe's. */
export interface Probe {
  periodMs: number;
  timeoutMs: number;
  failures: number;
}

interface Backend {
  port: number;
  ready: boolean;
  failed: number;
  timer: NodeJS.Timeout;
  probing?: Promise<void>;
}

export class Balancer {
  private readonly backends: Backend[] = [];
  private readonly sockets = new Set<net.Socket>();
  private next = 0;
  /** Connections cut because no backend was ready or the chosen one refused. */
  refused = 0;

  private constructor(
    readonly name: string,
    private readonly server: net.Server,
    readonly port: number,
    private readonly probe: Probe,
  ) {
    server.on('connection', (client) => this.route(client));
  }

  static async start(name: string, probe: Probe): Promise<Balancer> {
    const port = await freePort();
    const server = net.createServer({ allowHalfOpen: true });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => resolve());
    });
    return new Balancer(name, server, port, probe);
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  /** Adds a backend, not ready until its first probe answers 200. */
  add(port: number): void {
    const backend: Backend = {
      port,
      ready: false,
      failed: 0,
      timer: setInterval(() => void this.check(backend), this.probe.periodMs),
    };
    this.backends.push(backend);
    void this.check(backend);
  }

  /** Resolves once the balancer has seen `port` ready (it then gets new connections). */
  async untilReady(port: number, timeoutMs = 60_000): Promise<void> {
    await eventually(() => this.backends.some((b) => b.port === port && b.ready), {
      timeoutMs,
      intervalMs: 50,
      message: `${this.name} backend ${port} ready`,
    });
  }

  /** Drops a backend (its process has exited): no new connection goes to it. */
  remove(port: number): void {
    const i = this.backends.findIndex((b) => b.port === port);
    if (i === -1) return;
    clearInterval(this.backends[i]!.timer);
    this.backends.splice(i, 1);
  }

  async stop(): Promise<void> {
    for (const b of this.backends) clearInterval(b.timer);
    for (const s of this.sockets) s.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private async check(backend: Backend): Promise<void> {
    if (backend.probing) return;
    // a connection of its own each time, as the kubelet's probe: never one the backend is closing
    backend.probing = new Promise<void>((resolve) => {
      const req = http.get(
        { host: '127.0.0.1', port: backend.port, path: '/health/ready', agent: false, timeout: this.probe.timeoutMs },
        (res) => {
          res.resume();
          this.outcome(backend, res.statusCode === 200);
          res.on('end', resolve).on('error', resolve);
        },
      );
      req.on('timeout', () => req.destroy());
      req.on('error', () => {
        this.outcome(backend, false);
        resolve();
      });
    }).finally(() => (backend.probing = undefined));
    await backend.probing;
  }

  private outcome(backend: Backend, ok: boolean): void {
    backend.failed = ok ? 0 : backend.failed + 1;
    if (ok) backend.ready = true;
    else if (backend.failed >= this.probe.failures) backend.ready = false;
  }

  private route(client: net.Socket): void {
    const ready = this.backends.filter((b) => b.ready);
    if (ready.length === 0) {
      this.refused++;
      client.destroy();
      return;
    }
    const backend = ready[this.next++ % ready.length]!;
    const upstream = net.connect({ port: backend.port, host: '127.0.0.1', allowHalfOpen: true });
    this.sockets.add(client).add(upstream);
    let connected = false;
    upstream.once('connect', () => (connected = true));
    // bytes and half-closes travel on as they come (the backend's FIN after its last answer too);
    // a reset or a refusal on one side cuts the other
    client.pipe(upstream);
    upstream.pipe(client);
    client.on('error', () => upstream.destroy());
    upstream.on('error', () => {
      if (!connected) this.refused++;
      client.destroy();
    });
    client.on('close', () => this.sockets.delete(client));
    upstream.on('close', () => this.sockets.delete(upstream));
  }
}

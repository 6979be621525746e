// A loopback Kafka-protocol proxy in front of a broker that has no TLS or SASL listener (librdkafka's
// mock cluster): it terminates TLS (optionally requiring a client certificate), answers SaslHandshake
// and SaslAuthenticate itself for PLAIN and SCRAM-SHA-256/512 (checking the credentials, refusing
// wrong ones with SASL_AUTHENTICATION_FAILED as a broker does), and forwards every other request
// unchanged. Brokers' addresses in Metadata and FindCoordinator responses are rewritten to the
// proxy's listeners (one per upstream broker), so clients keep going through it. With `createTopic`,
// it also answers CreateTopics v0 (the mock does not implement it) by creating the topic upstream.
import { randomBytes } from 'node:crypto';
import { createServer as createTcpServer, connect, type Server, type Socket } from 'node:net';
import { createServer as createTlsServer } from 'node:tls';
import { ApiKey, frameSplitter, WireReader, WireWriter } from './kafka-wire.js';
import { ScramServerExchange } from './scram-server.js';

export type ProxySaslMechanism = 'PLAIN' | 'SCRAM-SHA-256' | 'SCRAM-SHA-512';

export interface KafkaProxyOptions {
  /** The upstream brokers (host:port), e.g. a mock cluster's bootstrap list. */
  upstream: string[];
  /** PEM server key and certificate; `ca` with it requires a client certificate signed by that CA. */
  tls?: { key: string; cert: string; ca?: string };
  /** SASL required before any other request; `users` maps user → password. */
  sasl?: { mechanisms: ProxySaslMechanism[]; users: Record<string, string> };
  createTopic?: (topic: string, partitions: number) => Promise<void>;
  /**
   * The loopback ports to listen on, one per upstream broker (default: free ones). A proxy stopped
   * and started again on the same ports is a cluster that went away and came back, its data kept.
   */
  ports?: number[];
  /**
   * The addresses clients are told in Metadata and FindCoordinator, one per upstream broker
   * (default: the proxy's own listeners), as Kafka's advertised.listeners: e.g. the fault suite's
   * network link in front of each listener, so that every connection goes through it.
   */
  advertise?: string[];
}

export interface KafkaProxy {
  brokers: string[];
  /** SASL exchanges refused (wrong password or unknown user) so far. */
  refusals(): number;
  stop(): Promise<void>;
}

const SASL_AUTHENTICATION_FAILED = 58;
const UNSUPPORTED_SASL_MECHANISM = 33;

export async function startKafkaProxy(options: KafkaProxyOptions): Promise<KafkaProxy> {
  const sockets = new Set<Socket>();
  const servers: Server[] = [];
  let refused = 0;
  const portOf = new Map<string, number>();
  const advertised = new Map<string, [string, number]>();
  for (const [i, upstream] of options.upstream.entries()) {
    const [host, port] = splitHostPort(upstream);
    const server = options.tls
      ? createTlsServer({
          key: options.tls.key,
          cert: options.tls.cert,
          ...(options.tls.ca ? { ca: options.tls.ca, requestCert: true, rejectUnauthorized: true } : {}),
        })
      : createTcpServer();
    server.on(options.tls ? 'secureConnection' : 'connection', (client: Socket) => {
      sockets.add(client);
      client.on('close', () => sockets.delete(client));
      new ProxiedConnection(client, host, port, options, advertised, sockets, () => refused++);
    });
    server.on('tlsClientError', () => {}); // a client refused during the handshake (no certificate)
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(options.ports?.[i] ?? 0, '127.0.0.1', resolve);
    });
    servers.push(server);
    const listening = (server.address() as { port: number }).port;
    portOf.set(`${host}:${port}`, listening);
    advertised.set(
      `${host}:${port}`,
      options.advertise?.[i] ? splitHostPort(options.advertise[i]!) : ['127.0.0.1', listening],
    );
  }
  return {
    brokers: [...portOf.values()].map((p) => `127.0.0.1:${p}`),
    refusals: () => refused,
    stop: async () => {
      for (const s of sockets) s.destroy();
      await Promise.all(servers.map((s) => new Promise((resolve) => s.close(resolve))));
    },
  };
}

function splitHostPort(address: string): [string, number] {
  const at = address.lastIndexOf(':');
  return [address.slice(0, at), Number(address.slice(at + 1))];
}

class ProxiedConnection {
  private authenticated: boolean;
  private mechanism?: ProxySaslMechanism;
  private scram?: ScramServerExchange;
  private upstream?: Socket;
  private readonly inFlight = new Map<number, { apiKey: number; apiVersion: number }>();

  constructor(
    private readonly client: Socket,
    private readonly host: string,
    private readonly port: number,
    private readonly options: KafkaProxyOptions,
    /** Upstream broker address → the address clients are told. */
    private readonly advertised: ReadonlyMap<string, [string, number]>,
    private readonly sockets: Set<Socket>,
    private readonly onRefused: () => void,
  ) {
    this.authenticated = !options.sasl;
    client.on(
      'data',
      frameSplitter((body) => this.onRequest(body)),
    );
    client.on('error', () => this.upstream?.destroy());
    client.on('close', () => this.upstream?.destroy());
  }

  private onRequest(body: Buffer): void {
    const r = new WireReader(body);
    const apiKey = r.int16();
    const apiVersion = r.int16();
    const correlationId = r.int32();
    r.string(); // client id
    if (apiKey === ApiKey.SaslHandshake && this.options.sasl) return this.handshake(correlationId, r);
    if (apiKey === ApiKey.SaslAuthenticate && this.options.sasl) return this.authenticate(correlationId, apiVersion, r);
    if (!this.authenticated && apiKey !== ApiKey.ApiVersions) return void this.client.destroy();
    if (apiKey === ApiKey.CreateTopics && this.options.createTopic) return void this.createTopics(correlationId, r);
    this.inFlight.set(correlationId, { apiKey, apiVersion });
    this.upstreamSocket().write(new WireWriter().raw(body).frame());
  }

  private handshake(correlationId: number, r: WireReader): void {
    const wanted = r.string() as ProxySaslMechanism;
    const mechanisms = this.options.sasl!.mechanisms;
    const ok = mechanisms.includes(wanted);
    if (ok) this.mechanism = wanted;
    const w = new WireWriter()
      .int32(correlationId)
      .int16(ok ? 0 : UNSUPPORTED_SASL_MECHANISM)
      .int32(mechanisms.length);
    for (const m of mechanisms) w.string(m);
    this.client.write(w.frame());
  }

  private authenticate(correlationId: number, apiVersion: number, r: WireReader): void {
    const message = (r.bytes() ?? Buffer.alloc(0)).toString('utf8');
    const users = this.options.sasl!.users;
    let reply: string | undefined;
    if (this.mechanism === 'PLAIN') {
      const [, user, password] = message.split('\u0000');
      if (user !== undefined && users[user] !== undefined && users[user] === password) {
        reply = '';
        this.authenticated = true;
      }
    } else if (this.mechanism && !this.scram) {
      this.scram = new ScramServerExchange(this.mechanism === 'SCRAM-SHA-256' ? 'sha256' : 'sha512', (u) => users[u]);
      reply = this.scram.first(message);
    } else if (this.scram) {
      reply = this.scram.final(message);
      if (reply !== undefined) this.authenticated = true;
    }
    const w = new WireWriter().int32(correlationId);
    if (reply === undefined) {
      this.onRefused();
      w.int16(SASL_AUTHENTICATION_FAILED)
        .string(`Authentication failed: invalid credentials with SASL mechanism ${this.mechanism ?? 'none'}`)
        .bytes(Buffer.alloc(0));
    } else w.int16(0).string(null).bytes(Buffer.from(reply, 'utf8'));
    if (apiVersion >= 1) w.int64(0n);
    this.client.write(w.frame());
  }

  private async createTopics(correlationId: number, r: WireReader): Promise<void> {
    const results: [string, number][] = [];
    const count = r.int32();
    for (let i = 0; i < count; i++) {
      const topic = r.string()!;
      const partitions = r.int32();
      r.int16(); // replication factor: the mock places one replica per partition
      for (let a = r.int32(); a > 0; a--) {
        r.int32();
        for (let b = r.int32(); b > 0; b--) r.int32();
      }
      for (let c = r.int32(); c > 0; c--) {
        r.string();
        r.string();
      }
      const error = await this.options.createTopic!(topic, partitions).then(
        () => 0,
        () => 37, // INVALID_PARTITIONS
      );
      results.push([topic, error]);
    }
    const w = new WireWriter().int32(correlationId).int32(results.length);
    for (const [topic, error] of results) w.string(topic).int16(error);
    this.client.write(w.frame());
  }

  private upstreamSocket(): Socket {
    if (this.upstream) return this.upstream;
    const upstream = connect(this.port, this.host);
    this.sockets.add(upstream);
    upstream.on('close', () => {
      this.sockets.delete(upstream);
      this.client.destroy();
    });
    upstream.on('error', () => this.client.destroy());
    upstream.on(
      'data',
      frameSplitter((body) => this.client.write(new WireWriter().raw(this.rewrite(body)).frame())),
    );
    this.upstream = upstream;
    return upstream;
  }

  /** Points broker addresses at the proxy, and advertises what the proxy adds (SASL, CreateTopics). */
  private rewrite(body: Buffer): Buffer {
    const request = this.inFlight.get(body.readInt32BE(0));
    if (!request) return body;
    this.inFlight.delete(body.readInt32BE(0));
    const r = new WireReader(body);
    const w = new WireWriter().int32(r.int32());
    if (request.apiKey === ApiKey.ApiVersions) {
      w.int16(r.int16());
      const apis = new Map<number, [number, number]>();
      for (let n = r.int32(); n > 0; n--) apis.set(r.int16(), [r.int16(), r.int16()]);
      if (this.options.sasl) {
        apis.set(ApiKey.SaslHandshake, [0, 1]);
        apis.set(ApiKey.SaslAuthenticate, [0, 1]);
      }
      if (this.options.createTopic) apis.set(ApiKey.CreateTopics, [0, 0]);
      // the versions whose broker addresses this proxy rewrites (no flexible encodings)
      const clamp = (key: number, max: number) => {
        const v = apis.get(key);
        if (v) apis.set(key, [v[0], Math.min(v[1], max)]);
      };
      clamp(ApiKey.Metadata, 6);
      clamp(ApiKey.FindCoordinator, 2);
      w.int32(apis.size);
      for (const [key, [min, max]] of apis) w.int16(key).int16(min).int16(max);
      return w.raw(r.rest()).frame().subarray(4);
    }
    if (request.apiKey === ApiKey.Metadata) {
      if (request.apiVersion >= 3) w.int32(r.int32());
      const ids: number[] = [];
      const count = r.int32();
      w.int32(count);
      for (let n = count; n > 0; n--) {
        const id = r.int32();
        ids.push(id);
        w.int32(id);
        this.address(r, w);
        if (request.apiVersion >= 1) w.string(r.string());
      }
      if (request.apiVersion >= 2) w.string(r.string());
      if (request.apiVersion >= 1) {
        const controller = r.int32();
        w.int32(ids.includes(controller) ? controller : (ids[0] ?? -1));
      }
      return w.raw(r.rest()).frame().subarray(4);
    }
    if (request.apiKey === ApiKey.FindCoordinator) {
      if (request.apiVersion >= 1) w.int32(r.int32());
      w.int16(r.int16());
      if (request.apiVersion >= 1) w.string(r.string());
      w.int32(r.int32());
      this.address(r, w);
      return w.raw(r.rest()).frame().subarray(4);
    }
    return body;
  }

  private address(r: WireReader, w: WireWriter): void {
    const host = r.string();
    const port = r.int32();
    const [toldHost, toldPort] = this.advertised.get(`${host}:${port}`) ?? [host, port];
    w.string(toldHost).int32(toldPort);
  }
}

/** A random password for test users. */
export const testPassword = (): string => randomBytes(12).toString('base64url');

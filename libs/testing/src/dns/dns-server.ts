// A loopback authoritative DNS server for tests: records are set in memory and answered over UDP and TCP
// on the same 127.0.0.1 port, so a `dns.Resolver` pointed at it sees them immediately (TTL 0, no caching).
import dgram from 'node:dgram';
import net from 'node:net';
import dnsPacket, { type Answer, type DecodedPacket, type Packet } from 'dns-packet';

export type DnsRecordType = 'A' | 'AAAA' | 'MX' | 'TXT' | 'CNAME' | 'NS';

export interface DnsMxValue {
  priority: number;
  exchange: string;
}

/** One TXT record: a string (split into <=255-byte character-strings as needed) or explicit chunks. */
export type DnsTxtValue = string | string[];

export interface DnsValueByType {
  A: string;
  AAAA: string;
  MX: DnsMxValue;
  TXT: DnsTxtValue;
  CNAME: string;
  NS: string;
}

export interface DnsSetOptions {
  /** TTL in seconds put on the answers; default 0 so resolvers never cache. */
  ttl?: number;
}

export interface DnsQueryLogEntry {
  name: string;
  type: string;
  transport: 'udp' | 'tcp';
  /** Response code sent, e.g. NOERROR or NXDOMAIN ('TRUNCATED' when a UDP answer was too large and only TC was sent). */
  rcode: string;
}

export interface DnsServerOptions {
  /** Port for both UDP and TCP on 127.0.0.1; 0 (default) picks a free one. */
  port?: number;
}

export interface TestDnsServer {
  /** '127.0.0.1:port', ready for `resolver.setServers([server.address])`. */
  readonly address: string;
  readonly port: number;
  /** Every query received, in order (cleared by clear()). */
  readonly queries: DnsQueryLogEntry[];
  /**
   * Replace the records of one type at a name (case-insensitive, trailing dot optional).
   * `values` is one record or an array of records; for TXT a record is a string or a string[] of chunks,
   * so `['a', 'b']` is two TXT records and `[['a', 'b']]` is one record of two character-strings.
   * An empty array removes that type.
   */
  set<T extends DnsRecordType>(
    name: string,
    type: T,
    values: DnsValueByType[T] | DnsValueByType[T][],
    options?: DnsSetOptions,
  ): void;
  /** Remove one type at a name, or every record of the name (it becomes NXDOMAIN). */
  remove(name: string, type?: DnsRecordType): void;
  /** Remove every record and forget the query log. */
  clear(): void;
  /** Close both sockets and every TCP connection. */
  stop(): Promise<void>;
}

interface StoredRecords {
  ttl: number;
  /** Ready-to-encode record data for dns-packet. */
  data: unknown[];
}

const SUPPORTED_TYPES = new Set<string>(['A', 'AAAA', 'MX', 'TXT', 'CNAME', 'NS']);
const MAX_CNAME_CHAIN = 8;
const UDP_DEFAULT_LIMIT = 512;
const UDP_MAX_LIMIT = 4096;
const TCP_IDLE_MS = 30_000;
const RCODES = { NOERROR: 0, FORMERR: 1, NXDOMAIN: 3, NOTIMP: 4 } as const;

function normalizeName(name: string): string {
  return name.trim().replace(/\.+$/, '').toLowerCase();
}

/** Splits a string into character-strings of at most 255 bytes without cutting a UTF-8 sequence. */
export function splitTxtCharacterStrings(value: string): Buffer[] {
  const bytes = Buffer.from(value, 'utf8');
  if (bytes.length <= 255) return [bytes];
  const chunks: Buffer[] = [];
  let start = 0;
  while (start < bytes.length) {
    let end = Math.min(start + 255, bytes.length);
    // back off continuation bytes (10xxxxxx) so a multi-byte character stays whole
    while (end < bytes.length && end > start && (bytes[end]! & 0xc0) === 0x80) end--;
    chunks.push(bytes.subarray(start, end));
    start = end;
  }
  return chunks;
}

function toRecordData(type: DnsRecordType, value: unknown, name: string): unknown {
  const fail = (why: string): never => {
    throw new Error(`dns server: invalid ${type} record for ${name}: ${why}`);
  };
  switch (type) {
    case 'A':
      if (typeof value !== 'string' || !net.isIPv4(value)) fail(`expected an IPv4 address, got ${String(value)}`);
      return value;
    case 'AAAA':
      if (typeof value !== 'string' || !net.isIPv6(value)) fail(`expected an IPv6 address, got ${String(value)}`);
      return value;
    case 'CNAME':
    case 'NS':
      if (typeof value !== 'string' || !value) fail('expected a host name');
      return (value as string).replace(/\.+$/, '');
    case 'MX': {
      const mx = value as Partial<DnsMxValue> | null;
      if (!mx || typeof mx.exchange !== 'string' || !Number.isInteger(mx.priority)) {
        fail('expected { priority: integer, exchange: string }');
      }
      return { preference: mx!.priority, exchange: mx!.exchange!.replace(/\.+$/, '') };
    }
    case 'TXT': {
      const chunks = typeof value === 'string' ? [value] : value;
      if (!Array.isArray(chunks) || chunks.length === 0 || chunks.some((c) => typeof c !== 'string')) {
        fail('expected a string or a non-empty string[] of chunks');
      }
      return (chunks as string[]).flatMap(splitTxtCharacterStrings);
    }
  }
}

export async function startDnsServer(options: DnsServerOptions = {}): Promise<TestDnsServer> {
  const zone = new Map<string, Map<DnsRecordType, StoredRecords>>();
  const queries: DnsQueryLogEntry[] = [];
  const connections = new Set<net.Socket>();

  const answersFor = (qname: string, qtype: string): { rcode: 'NOERROR' | 'NXDOMAIN'; answers: Answer[] } => {
    const answers: Answer[] = [];
    let owner = qname; // answer names keep the case of the question
    let records = zone.get(normalizeName(qname));
    if (!records) return { rcode: 'NXDOMAIN', answers };
    const push = (type: DnsRecordType, stored: StoredRecords) => {
      for (const data of stored.data) answers.push({ name: owner, type, ttl: stored.ttl, data } as Answer);
    };
    if (qtype === 'ANY') {
      for (const [type, stored] of records) push(type, stored);
      return { rcode: 'NOERROR', answers };
    }
    const seen = new Set<string>();
    for (let hop = 0; hop <= MAX_CNAME_CHAIN; hop++) {
      const direct = SUPPORTED_TYPES.has(qtype) ? records.get(qtype as DnsRecordType) : undefined;
      if (direct) {
        push(qtype as DnsRecordType, direct);
        break;
      }
      const cname = qtype === 'CNAME' ? undefined : records.get('CNAME');
      if (!cname) break;
      push('CNAME', cname);
      const target = cname.data[0] as string;
      const key = normalizeName(target);
      if (seen.has(key)) break;
      seen.add(key);
      const next = zone.get(key);
      if (!next) break; // target outside this server: the CNAME alone is the answer
      owner = target;
      records = next;
    }
    return { rcode: 'NOERROR', answers };
  };

  /** Builds the encoded response for a raw query; undefined if the packet is not worth answering. */
  const respond = (message: Buffer, transport: 'udp' | 'tcp'): Buffer | undefined => {
    let query: DecodedPacket;
    try {
      query = dnsPacket.decode(message) as DecodedPacket;
    } catch {
      if (message.length < 12) return undefined;
      // FORMERR with the id echoed and no sections
      const header = Buffer.alloc(12);
      message.copy(header, 0, 0, 2);
      header.writeUInt16BE(0x8000 | (message.readUInt16BE(2) & 0x7800) | RCODES.FORMERR, 2);
      return header;
    }
    if (query.type !== 'query') return undefined;
    const question = query.questions?.[0];
    const opt = query.additionals?.find((a) => a.type === 'OPT') as { udpPayloadSize?: number } | undefined;
    const baseFlags =
      ((query.flags ?? 0) & (0x7800 | dnsPacket.RECURSION_DESIRED)) | // opcode, RD
      dnsPacket.AUTHORITATIVE_ANSWER |
      dnsPacket.RECURSION_AVAILABLE;
    const response: Packet = {
      type: 'response',
      id: query.id,
      questions: query.questions ?? [],
      answers: [],
      additionals: opt ? [{ type: 'OPT', name: '.', udpPayloadSize: UDP_MAX_LIMIT } as Answer] : [],
    };
    let rcode: keyof typeof RCODES;
    if (((query.flags ?? 0) & 0x7800) !== 0)
      rcode = 'NOTIMP'; // only standard QUERY
    else if (!question) rcode = 'FORMERR';
    else {
      const result = answersFor(question.name, question.type);
      rcode = result.rcode;
      response.answers = result.answers;
    }
    response.flags = baseFlags | RCODES[rcode];
    let encoded = dnsPacket.encode(response);
    let logged: string = rcode;
    if (transport === 'udp') {
      const limit = opt
        ? Math.min(Math.max(opt.udpPayloadSize ?? 0, UDP_DEFAULT_LIMIT), UDP_MAX_LIMIT)
        : UDP_DEFAULT_LIMIT;
      if (encoded.length > limit) {
        response.flags |= dnsPacket.TRUNCATED_RESPONSE;
        response.answers = [];
        encoded = dnsPacket.encode(response);
        logged = 'TRUNCATED';
      }
    }
    queries.push({ name: question?.name ?? '', type: question?.type ?? '', transport, rcode: logged });
    return encoded;
  };

  const handleTcp = (socket: net.Socket) => {
    connections.add(socket);
    socket.setTimeout(TCP_IDLE_MS, () => socket.destroy());
    socket.on('error', () => socket.destroy());
    socket.once('close', () => connections.delete(socket));
    let pending: Buffer = Buffer.alloc(0);
    socket.on('data', (chunk: Buffer) => {
      pending = pending.length ? Buffer.concat([pending, chunk]) : chunk;
      while (pending.length >= 2) {
        const length = pending.readUInt16BE(0);
        if (pending.length < 2 + length) break;
        const message = pending.subarray(2, 2 + length);
        pending = pending.subarray(2 + length);
        const reply = respond(message, 'tcp');
        if (!reply) continue;
        const prefix = Buffer.alloc(2);
        prefix.writeUInt16BE(reply.length);
        socket.write(Buffer.concat([prefix, reply]));
      }
    });
  };

  // UDP and TCP must share one port number; with an ephemeral TCP port the UDP one may be taken, so retry.
  let tcp: net.Server | undefined;
  let udp: dgram.Socket | undefined;
  for (let attempt = 0; ; attempt++) {
    const tcpServer = net.createServer(handleTcp);
    await new Promise<void>((resolve, reject) => {
      tcpServer.once('error', reject);
      tcpServer.listen(options.port ?? 0, '127.0.0.1', () => {
        tcpServer.off('error', reject);
        resolve();
      });
    });
    const port = (tcpServer.address() as net.AddressInfo).port;
    const udpSocket = dgram.createSocket('udp4');
    const bindError = await new Promise<NodeJS.ErrnoException | undefined>((resolve) => {
      udpSocket.once('error', resolve);
      udpSocket.bind(port, '127.0.0.1', () => {
        udpSocket.off('error', resolve);
        resolve(undefined);
      });
    });
    if (!bindError) {
      tcp = tcpServer;
      udp = udpSocket;
      break;
    }
    udpSocket.close();
    await new Promise<void>((resolve) => tcpServer.close(() => resolve()));
    if (bindError.code !== 'EADDRINUSE' || options.port || attempt >= 20) throw bindError;
  }

  udp.on('error', () => {}); // e.g. ICMP port unreachable from a client that went away
  udp.on('message', (message, remote) => {
    const reply = respond(message, 'udp');
    if (reply) udp!.send(reply, remote.port, remote.address);
  });

  const port = (tcp.address() as net.AddressInfo).port;
  let stopped: Promise<void> | undefined;

  const server: TestDnsServer = {
    address: `127.0.0.1:${port}`,
    port,
    queries,

    set(name, type, values, setOptions = {}) {
      if (!SUPPORTED_TYPES.has(type)) throw new Error(`dns server: unsupported record type ${String(type)}`);
      const key = normalizeName(name);
      if (!key) throw new Error('dns server: empty record name');
      // an array is always a list of records (for TXT, chunks of one record are a nested array)
      const list: unknown[] = Array.isArray(values) ? values : [values];
      if (list.length === 0) return server.remove(name, type);
      if (type === 'CNAME' && list.length > 1) throw new Error(`dns server: ${name} can have only one CNAME`);
      const data = list.map((value) => toRecordData(type, value, name));
      let records = zone.get(key);
      if (!records) zone.set(key, (records = new Map()));
      records.set(type, { ttl: setOptions.ttl ?? 0, data });
    },

    remove(name, type) {
      const key = normalizeName(name);
      if (type === undefined) {
        zone.delete(key);
        return;
      }
      const records = zone.get(key);
      records?.delete(type);
      if (records?.size === 0) zone.delete(key);
    },

    clear() {
      zone.clear();
      queries.length = 0;
    },

    stop() {
      stopped ??= Promise.all([
        new Promise<void>((resolve) => tcp!.close(() => resolve())),
        new Promise<void>((resolve) => udp!.close(() => resolve())),
        Promise.resolve().then(() => {
          for (const socket of connections) socket.destroy();
        }),
      ]).then(() => undefined);
      return stopped;
    },
  };
  return server;
}

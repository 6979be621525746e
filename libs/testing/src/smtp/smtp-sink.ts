// A loopback SMTP server for tests: it accepts every message (unless told to reject some recipients),
// keeps the exact bytes it received and a parsed view of them, and lets a test wait for deliveries.
import type { Socket } from 'node:net';
import { simpleParser } from 'mailparser';
import { SMTPServer, type SMTPServerDataStream, type SMTPServerSession } from 'smtp-server';
import { SMTPConnection } from 'smtp-server/lib/smtp-connection.js';

export * from './smtp-sink.types.js';
import type {
  CapturedMessage,
  SmtpFaultRule,
  SmtpMessagePredicate,
  SmtpRecipientMatcher,
  SmtpRejectRule,
  SmtpSink,
  SmtpSinkOptions,
} from './smtp-sink.types.js';

interface ActiveRule extends SmtpRejectRule {
  remaining: number;
}

interface ActiveFault extends SmtpFaultRule {
  remaining: number;
}

interface Waiter {
  where: SmtpMessagePredicate | undefined;
  count: number;
  scanned: number;
  matched: CapturedMessage[];
  resolve: (messages: CapturedMessage[]) => void;
  reject: (error: Error) => void;
  timer: NodeJS.Timeout;
}

/** How long `waitFor` waits by default: a deadline a loaded 2-core machine meets, not a speed target. */
const DEFAULT_WAIT_MS = 30_000;

function smtpError(code: number, message: string): Error & { responseCode: number } {
  return Object.assign(new Error(message), { responseCode: code });
}

function matchesRecipient(matcher: SmtpRecipientMatcher | undefined, address: string): boolean {
  if (matcher === undefined) return true;
  if (typeof matcher === 'string') return matcher.toLowerCase() === address.toLowerCase();
  if (matcher instanceof RegExp) {
    matcher.lastIndex = 0;
    return matcher.test(address);
  }
  return matcher(address);
}

function defaultText(code: number, address: string): string {
  return code >= 500
    ? `Recipient address rejected: <${address}>`
    : `Temporary failure for <${address}>, try again later`;
}

/**
 * smtp-server waits a fixed 100 ms before its 220 greeting on every new connection (to catch clients that
 * talk too early), which makes each non-pooled send take over 100 ms. On this server instance only, start the
 * session at once instead. This uses smtp-server internals, so it is feature-checked and falls back to
 * the stock behaviour if they change.
 */
function skipGreetingDelay(server: SMTPServer): void {
  interface ConnectionInternals {
    _setListeners?: (callback: () => void) => void;
    connectionReady?: (next?: () => void) => void;
  }
  interface ServerInternals {
    _onError?: (error: Error) => void;
    _onClientConnect?: (data: unknown) => void;
  }
  const proto = SMTPConnection.prototype as unknown as ConnectionInternals;
  const internals = server as unknown as ServerInternals;
  if (
    typeof proto._setListeners !== 'function' ||
    typeof proto.connectionReady !== 'function' ||
    typeof internals._onError !== 'function' ||
    typeof internals._onClientConnect !== 'function'
  ) {
    return;
  }
  // Mirrors SMTPServer.prototype.connect, minus the delay in SMTPConnection.init (and its maxClients check, unused here).
  server.connect = function connect(this: SMTPServer, socket, socketOptions) {
    const connection = new SMTPConnection(this, socket, socketOptions);
    const hidden = connection as unknown as Required<ConnectionInternals>;
    this.connections.add(connection);
    connection.on('error', (error: Error) => internals._onError!.call(this, error));
    connection.on('connect', (data: unknown) => internals._onClientConnect!.call(this, data));
    hidden._setListeners.call(connection, () => hidden.connectionReady.call(connection));
  };
}

export async function startSmtpSink(options: SmtpSinkOptions = {}): Promise<SmtpSink> {
  const messages: CapturedMessage[] = [];
  let rules: ActiveRule[] = [];
  let faults: ActiveFault[] = [];
  /** Open sockets by remote port: how a fault finds the connection of a session. */
  const byPort = new Map<number, Socket>();
  const waiters = new Set<Waiter>();
  const sockets = new Set<Socket>();
  let seq = 0;
  let stopped: Promise<void> | undefined;

  /** Finds the newest live rule for this stage that matches one of the addresses, and uses it up once. */
  const applyRule = (stage: 'rcpt' | 'data', addresses: string[]): Error | undefined => {
    for (let i = rules.length - 1; i >= 0; i--) {
      const rule = rules[i]!;
      if ((rule.stage ?? 'rcpt') !== stage || rule.remaining <= 0) continue;
      const address = addresses.find((a) => matchesRecipient(rule.recipient, a));
      if (address === undefined) continue;
      rule.remaining--;
      return smtpError(rule.code, rule.message ?? defaultText(rule.code, address));
    }
    return undefined;
  };

  /** The newest live fault rule matching one of the addresses, used up once. */
  const applyFault = (addresses: string[]): ActiveFault | undefined => {
    for (let i = faults.length - 1; i >= 0; i--) {
      const rule = faults[i]!;
      if (rule.remaining <= 0 || !addresses.some((a) => matchesRecipient(rule.recipient, a))) continue;
      rule.remaining--;
      return rule;
    }
    return undefined;
  };

  const settle = (waiter: Waiter): void => {
    while (waiter.scanned < messages.length) {
      const message = messages[waiter.scanned++]!;
      if (!waiter.where || waiter.where(message)) waiter.matched.push(message);
    }
    if (waiter.matched.length >= waiter.count) {
      clearTimeout(waiter.timer);
      waiters.delete(waiter);
      waiter.resolve(waiter.matched.slice());
    }
  };

  const capture = async (stream: SMTPServerDataStream, session: SMTPServerSession): Promise<void> => {
    const chunks: Buffer[] = [];
    await new Promise<void>((resolve, reject) => {
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.once('end', resolve);
      stream.once('error', reject);
    });
    if (stream.sizeExceeded) throw smtpError(552, 'Message exceeds fixed maximum message size');
    const to = session.envelope.rcptTo.map((r) => r.address);
    const refusal = applyRule('data', to);
    if (refusal) throw refusal;
    const raw = Buffer.concat(chunks);
    // Cheap parse: no html-to-text conversion, no link detection, cid: links kept as they are.
    const parsed = await simpleParser(raw, {
      skipHtmlToText: true,
      skipTextToHtml: true,
      skipTextLinks: true,
      skipImageLinks: true,
      keepCidLinks: true,
    });
    const message: CapturedMessage = {
      seq: ++seq,
      from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
      to,
      raw,
      receivedAt: new Date(),
      subject: parsed.subject,
      messageId: parsed.messageId,
      html: parsed.html === false ? undefined : parsed.html,
      text: parsed.text,
      headers: parsed.headers,
      headerLines: parsed.headerLines,
      attachments: parsed.attachments.map((a) => ({
        filename: a.filename,
        contentType: a.contentType,
        contentDisposition: a.contentDisposition,
        cid: a.cid,
        content: a.content,
        size: a.size,
      })),
    };
    messages.push(message);
    for (const waiter of [...waiters]) settle(waiter);
  };

  const server = new SMTPServer({
    name: options.name ?? 'smtp-sink.test',
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    disableReverseLookup: true,
    logger: false,
    maxAllowedUnauthenticatedCommands: false,
    size: options.maxMessageSize,
    socketTimeout: 60_000,
    closeTimeout: 1_000,
    onRcptTo(address, _session, callback) {
      callback(applyRule('rcpt', [address.address]) ?? null);
    },
    onData(stream, session, callback) {
      const fault = faults.length ? applyFault(session.envelope.rcptTo.map((r) => r.address)) : undefined;
      const socket = byPort.get(session.remotePort);
      if (fault?.fault === 'reset-mid-data' && socket) {
        stream.once('data', () => socket.destroy());
        stream.resume();
        return;
      }
      const delayMs = fault?.fault === 'slow' ? (fault.delayMs ?? 1000) : options.replyDelayMs;
      capture(stream, session).then(
        () => {
          if (fault?.fault === 'reset-after-data' && socket) socket.destroy();
          else if (delayMs) setTimeout(() => callback(null, 'OK: message captured'), delayMs);
          else callback(null, 'OK: message captured');
        },
        (error: unknown) => {
          stream.resume(); // never leave the client waiting on an unread stream
          callback(error instanceof Error ? error : new Error(String(error)));
        },
      );
    },
  });
  skipGreetingDelay(server);
  // Socket-level errors (a client resetting its connection, stop() destroying sockets) are not test failures.
  server.on('error', () => {});
  server.server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    const port = socket.remotePort;
    if (port !== undefined) byPort.set(port, socket);
    socket.once('close', () => {
      sockets.delete(socket);
      if (port !== undefined && byPort.get(port) === socket) byPort.delete(port);
    });
  });

  await new Promise<void>((resolve, reject) => {
    const onError = (error: Error) => reject(error);
    server.server.once('error', onError);
    server.listen(options.port ?? 0, '127.0.0.1', () => {
      server.server.off('error', onError);
      resolve();
    });
  });
  const address = server.server.address();
  if (address === null || typeof address === 'string') throw new Error('smtp sink: unexpected listen address');
  const port = address.port;

  return {
    host: '127.0.0.1',
    port,
    url: `smtp://127.0.0.1:${port}`,
    messages,

    waitFor(query, timeoutMs = DEFAULT_WAIT_MS) {
      const { where, count } =
        typeof query === 'number'
          ? { where: undefined, count: query }
          : typeof query === 'function'
            ? { where: query, count: 1 }
            : { where: query.where, count: query.count ?? 1 };
      return new Promise<CapturedMessage[]>((resolve, reject) => {
        if (stopped) return reject(new Error('smtp sink is stopped'));
        const waiter: Waiter = {
          where,
          count,
          scanned: 0,
          matched: [],
          resolve,
          reject,
          timer: setTimeout(() => {
            waiters.delete(waiter);
            const recent = messages.slice(-5).map((m) => `${m.to.join(',')}: ${m.subject ?? '(no subject)'}`);
            reject(
              new Error(
                `smtp sink: timed out after ${timeoutMs} ms waiting for ${count} ` +
                  `${where ? 'matching ' : ''}message(s); ${waiter.matched.length} matched of ` +
                  `${messages.length} captured${recent.length ? `; latest: ${recent.join(' | ')}` : ''}`,
              ),
            );
          }, timeoutMs),
        };
        waiters.add(waiter);
        settle(waiter);
      });
    },

    reject(rule) {
      rules.push({ ...rule, remaining: rule.times ?? Number.POSITIVE_INFINITY });
    },

    fault(rule) {
      faults.push({ ...rule, remaining: rule.times ?? Number.POSITIVE_INFINITY });
    },

    clearRejections() {
      rules = [];
      faults = [];
    },

    clear() {
      messages.length = 0;
      for (const waiter of waiters) {
        waiter.scanned = 0;
        waiter.matched = [];
      }
    },

    stop() {
      stopped ??= new Promise<void>((resolve) => {
        for (const waiter of waiters) {
          clearTimeout(waiter.timer);
          waiter.reject(new Error('smtp sink stopped'));
        }
        waiters.clear();
        server.close(() => resolve());
        for (const socket of sockets) socket.destroy();
      });
      return stopped;
    },
  };
}

import { readFileSync } from 'node:fs';
import { createLogger } from '@herald/core';
import { Inject, Injectable, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import {
  SMTPServer,
  type SMTPServerAddress,
  type SMTPServerDataStream,
  type SMTPServerOptions,
  type SMTPServerSession,
} from 'smtp-server';
import { UnreadableMessageError } from './inbound-parser.js';
import { INBOUND_SETTINGS, type InboundSettings } from './inbound.settings.js';
import { ReceiveInboundUseCase } from './receive-inbound.use-case.js';

const log = createLogger('sending.inbound');

/** Recipients one message may have (more answer 452 at RCPT TO: the sending server sends the rest in another transaction). */
export const MAX_RECIPIENTS = 100;
/** Connections served at once. */
export const MAX_CLIENTS = 200;

/** An SMTP refusal: the reply code smtp-server answers with. */
export function smtpError(responseCode: number, message: string): Error & { responseCode: number } {
  return Object.assign(new Error(message), { responseCode });
}

/** smtp-server's options for the listener: no AUTH (mail arrives from other servers), STARTTLS only with a key and certificate. */
export function smtpServerOptions(settings: InboundSettings): SMTPServerOptions {
  const tls = settings.INBOUND_TLS_KEY_FILE && settings.INBOUND_TLS_CERT_FILE;
  return {
    ...(settings.INBOUND_SMTP_HOSTNAME ? { name: settings.INBOUND_SMTP_HOSTNAME } : {}),
    banner: 'Herald inbound',
    size: settings.INBOUND_MAX_MESSAGE_BYTES,
    authOptional: true,
    disabledCommands: tls ? ['AUTH'] : ['AUTH', 'STARTTLS'],
    ...(tls
      ? { key: readFileSync(settings.INBOUND_TLS_KEY_FILE!), cert: readFileSync(settings.INBOUND_TLS_CERT_FILE!) }
      : {}),
    maxClients: MAX_CLIENTS,
    maxRecipients: MAX_RECIPIENTS,
    logger: false,
  };
}

/**
 * Herald's SMTP listener for inbound mail (docs/inbound.md, ADR 0024), on INBOUND_SMTP_PORT when it
 * is set, in whichever process hosts the sending service (standalone included). RCPT TO refuses an
 * address no project receives (550); DATA answers 250 only once the message is stored and its
 * `email.received` committed, and a temporary failure (451) when it could not be, so the sending
 * server tries again.
 */
@Injectable()
export class InboundSmtpHandler implements OnApplicationBootstrap, OnApplicationShutdown {
  private server?: SMTPServer;
  /** The projects each accepted recipient reaches (the address objects smtp-server keeps in the envelope). */
  private readonly projects = new WeakMap<SMTPServerAddress, string[]>();

  constructor(
    @Inject(INBOUND_SETTINGS) private readonly settings: InboundSettings,
    private readonly inbound: ReceiveInboundUseCase,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    const port = this.settings.INBOUND_SMTP_PORT;
    if (port === undefined) return;
    const server = new SMTPServer({
      ...smtpServerOptions(this.settings),
      onRcptTo: (address, _session, callback) => {
        this.rcptTo(address).then(
          () => callback(),
          (err: Error) => callback(err),
        );
      },
      onData: (stream, session, callback) => {
        this.data(stream, session).then(
          (ids) => callback(null, `Message accepted${ids.length ? ` as ${ids.join(', ')}` : ''}`),
          (err: Error) => callback(err),
        );
      },
    });
    server.on('error', (err) => log.warn('inbound SMTP connection error', { reason: err.message }));
    await new Promise<void>((resolve, reject) => {
      server.server.once('error', reject);
      server.listen(port, this.settings.INBOUND_SMTP_HOST, () => {
        server.server.off('error', reject);
        resolve();
      });
    });
    this.server = server;
    log.info('inbound SMTP listener started', { host: this.settings.INBOUND_SMTP_HOST, port });
  }

  async onApplicationShutdown(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  /** RCPT TO: an address of a project (its domain verified there), else 550; 451 when that cannot be told now. */
  private async rcptTo(address: SMTPServerAddress): Promise<void> {
    let projectIds: string[];
    try {
      projectIds = await this.inbound.projectsOf(address.address);
    } catch (err) {
      log.warn('inbound recipient check failed', { reason: (err as Error).message });
      throw smtpError(451, '4.3.0 Temporary failure, try again later');
    }
    if (projectIds.length === 0) throw smtpError(550, '5.1.1 No such recipient here');
    this.projects.set(address, projectIds);
  }

  /** DATA: the whole message read (never past the size limit), then stored; 552 over the limit, 451 on a failure. */
  private async data(stream: SMTPServerDataStream, session: SMTPServerSession): Promise<string[]> {
    const chunks: Buffer[] = [];
    let bytes = 0;
    const max = this.settings.INBOUND_MAX_MESSAGE_BYTES;
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      bytes += chunk.length;
      if (bytes <= max) chunks.push(chunk);
    }
    if (stream.sizeExceeded || bytes > max) throw smtpError(552, '5.3.4 Message too big');
    const mailFrom = session.envelope.mailFrom;
    const envelope = {
      from: mailFrom ? mailFrom.address : '',
      recipients: session.envelope.rcptTo.map((r) => ({ address: r.address, projectIds: this.projects.get(r) ?? [] })),
    };
    try {
      return await this.inbound.receive(envelope, Buffer.concat(chunks, Math.min(bytes, max)));
    } catch (err) {
      if (err instanceof UnreadableMessageError) throw smtpError(554, '5.6.0 Message could not be read');
      log.warn('inbound message not stored', { reason: (err as Error).message });
      throw smtpError(451, '4.3.0 Temporary failure, try again later');
    }
  }
}

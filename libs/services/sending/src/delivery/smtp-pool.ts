import type { Readable } from 'node:stream';
import SMTPConnection from 'nodemailer/lib/smtp-connection';

interface PooledConnection {
  smtp: SMTPConnection;
  messages: number;
  broken: boolean;
}

export interface SmtpPoolOptions {
  url: string;
  size: number;
  /** Messages per connection before it is replaced. */
  maxMessages: number;
}

/** smtp(s)://user:pass@host:port → nodemailer SMTPConnection options and credentials. */
export function smtpOptionsOf(url: string): { options: SMTPConnection.Options; auth?: { user: string; pass: string } } {
  const u = new URL(url);
  const secure = u.protocol === 'smtps:';
  const options: SMTPConnection.Options = {
    host: u.hostname,
    port: u.port ? Number(u.port) : secure ? 465 : 587,
    secure,
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    socketTimeout: 60_000,
    ...(u.searchParams.get('tls.rejectUnauthorized') === 'false' ? { tls: { rejectUnauthorized: false } } : {}),
  };
  const user = decodeURIComponent(u.username);
  return user ? { options, auth: { user, pass: decodeURIComponent(u.password) } } : { options };
}

/**
 * A small pool of SMTP connections (nodemailer's SMTPConnection), used instead of nodemailer's
 * pooled transport because the transport starts reading a message stream before MAIL FROM; here
 * the stream is piped only after the relay's 354, so a message stream that holds back its end
 * holds back the final dot (see SmtpRelay.deliver).
 */
export class SmtpPool {
  private readonly idle: PooledConnection[] = [];
  /** Callers waiting for a connection: urgent ones (the normal lane) first, then in order of arrival. */
  private readonly waiting: { urgent: boolean; resolve: (c: PooledConnection) => void; reject: (e: Error) => void }[] =
    [];
  private open = 0;
  private closed = false;
  private readonly target: ReturnType<typeof smtpOptionsOf>;

  constructor(private readonly options: SmtpPoolOptions) {
    this.target = smtpOptionsOf(options.url);
  }

  /**
   * Sends one message on a pooled connection; the relay's answer, or its SMTP error. An `urgent`
   * message takes the next free connection before every non-urgent one waiting (bulk mail).
   */
  async send(
    envelope: { from: string; to: string },
    message: Readable,
    urgent = false,
  ): Promise<SMTPConnection.SentMessageInfo> {
    const conn = await this.acquire(urgent);
    try {
      const info = await new Promise<SMTPConnection.SentMessageInfo>((resolve, reject) =>
        conn.smtp.send(envelope, message, (err, i) => (err ? reject(err) : resolve(i))),
      );
      conn.messages++;
      this.release(conn);
      return info;
    } catch (err) {
      const code = (err as { code?: string; responseCode?: number }).code;
      const refusal =
        (code === 'EENVELOPE' || code === 'EMESSAGE') && (err as { responseCode?: number }).responseCode !== 421;
      if (refusal && !conn.broken) {
        // the relay refused this message; the session itself is fine once reset
        conn.smtp.reset((resetErr) => {
          if (resetErr) conn.broken = true;
          this.release(conn);
        });
      } else {
        conn.broken = true;
        this.release(conn);
      }
      throw err;
    }
  }

  async verify(): Promise<void> {
    const conn = await this.acquire();
    this.release(conn);
  }

  close(): void {
    this.closed = true;
    for (const c of this.idle.splice(0)) c.smtp.quit();
    for (const w of this.waiting.splice(0)) w.reject(new Error('SMTP pool closed'));
  }

  private async acquire(urgent = false): Promise<PooledConnection> {
    if (this.closed) throw new Error('SMTP pool closed');
    const idle = this.idle.pop();
    if (idle) return idle;
    if (this.open < this.options.size) {
      this.open++;
      try {
        return await this.connect();
      } catch (err) {
        this.open--;
        throw err;
      }
    }
    return new Promise((resolve, reject) => {
      const waiter = { urgent, resolve, reject };
      const firstNonUrgent = urgent ? this.waiting.findIndex((w) => !w.urgent) : -1;
      if (firstNonUrgent < 0) this.waiting.push(waiter);
      else this.waiting.splice(firstNonUrgent, 0, waiter);
    });
  }

  private release(conn: PooledConnection): void {
    if (conn.broken || conn.messages >= this.options.maxMessages || this.closed) {
      if (conn.broken) conn.smtp.close();
      else conn.smtp.quit();
      this.open--;
      const next = this.waiting.shift();
      if (next) this.acquire(next.urgent).then(next.resolve, next.reject);
      return;
    }
    const next = this.waiting.shift();
    if (next) next.resolve(conn);
    else this.idle.push(conn);
  }

  private connect(): Promise<PooledConnection> {
    return new Promise((resolve, reject) => {
      const smtp = new SMTPConnection(this.target.options);
      const conn: PooledConnection = { smtp, messages: 0, broken: false };
      let settled = false;
      smtp.on('error', (err) => {
        conn.broken = true;
        if (!settled) {
          settled = true;
          reject(err);
        }
      });
      smtp.on('end', () => {
        conn.broken = true;
        const i = this.idle.indexOf(conn);
        if (i >= 0) {
          this.idle.splice(i, 1);
          this.open--;
        }
      });
      smtp.connect((err) => {
        if (err) {
          settled = true;
          return reject(err);
        }
        if (!this.target.auth) {
          settled = true;
          return resolve(conn);
        }
        smtp.login(this.target.auth, (loginErr) => {
          settled = true;
          if (loginErr) {
            smtp.close();
            return reject(loginErr);
          }
          resolve(conn);
        });
      });
    });
  }
}

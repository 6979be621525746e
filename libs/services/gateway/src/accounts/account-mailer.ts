import { createLogger } from '@herald/core';
import { Inject, Injectable, type OnModuleDestroy } from '@nestjs/common';
import nodemailer, { type Transporter } from 'nodemailer';
import { GATEWAY_SETTINGS, type GatewaySettings } from '../gateway.settings.js';

const log = createLogger('gateway.mail');

/**
 * Herald's own mail (email verification, password reset) through SMTP_URL. Without SMTP_URL the
 * link is written to the log so a self-hoster can still finish the flow.
 */
@Injectable()
export class AccountMailer implements OnModuleDestroy {
  private readonly transport?: Transporter;

  constructor(@Inject(GATEWAY_SETTINGS) private readonly settings: GatewaySettings) {
    if (settings.SMTP_URL) this.transport = nodemailer.createTransport(settings.SMTP_URL);
  }

  link(path: string, token: string): string {
    const url = new URL(path, this.settings.APP_URL);
    url.searchParams.set('token', token);
    return url.toString();
  }

  async send(to: string, subject: string, text: string): Promise<void> {
    if (!this.transport) {
      log.warn('SMTP_URL is not set: account email not sent', { to, subject, text });
      return;
    }
    await this.transport.sendMail({ from: this.settings.MAIL_FROM, to, subject, text });
  }

  onModuleDestroy(): void {
    this.transport?.close();
  }
}

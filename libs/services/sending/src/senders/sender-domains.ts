import { createPrivateKey, type KeyObject } from 'node:crypto';
import { emailDomain } from '@herald/contact-data';
import { dkimEncryptionKey, HERALD_RUNTIME, openSecret, type HeraldRuntime } from '@herald/core';
import { validationFailed } from '@herald/http';
import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { SENDING } from '../consumer.js';
import { SENDING_SETTINGS, type SendingSettings } from '../sending.settings.js';
import { SenderDomain } from './sender-domain.entity.js';

export interface DkimKey {
  domainName: string;
  keySelector: string;
  /** Parsed once: signing from PEM text re-parses the key every time (about 4× the cost of the signature). */
  privateKey: KeyObject;
}

/** The project's verified sender domains (the local read model) and their DKIM keys. */
@Injectable()
export class SenderDomains {
  private readonly keys = new Map<string, { sealed: string; key: DkimKey }>();
  private readonly passphrase: string;

  constructor(
    @InjectDataSource(SENDING) private readonly db: DataSource,
    @Inject(SENDING_SETTINGS) settings: SendingSettings,
    @Inject(HERALD_RUNTIME) runtime: HeraldRuntime,
  ) {
    this.passphrase = dkimEncryptionKey(settings.DKIM_ENCRYPTION_KEY, runtime.internalJwtSecret);
  }

  async verified(projectId: string, domain: string): Promise<SenderDomain | null> {
    return this.db.getRepository(SenderDomain).findOneBy({ projectId, domain: domain.toLowerCase(), verified: true });
  }

  /** 422 naming the domain when `address` is not on one of the project's verified domains. */
  async assertVerified(projectId: string, address: string, field: string): Promise<void> {
    const domain = emailDomain(address);
    if (domain && (await this.verified(projectId, domain))) return;
    throw validationFailed(
      [{ field, message: `${domain ?? address} is not a verified domain of this project: add it with POST /domains and publish its DNS records`, code: 'domain_not_verified' }],
      `The sender domain ${domain ?? address} is not verified`,
    );
  }

  /** The DKIM key to sign mail from `address`, or null when its domain is not (or no longer) verified. */
  async signingKey(projectId: string, address: string): Promise<DkimKey | null> {
    const domain = emailDomain(address);
    const row = domain ? await this.verified(projectId, domain) : null;
    if (!row?.dkimSelector || !row.dkimPrivateKeySealed) return null;
    const cached = this.keys.get(row.domainId);
    if (cached?.sealed === row.dkimPrivateKeySealed) return cached.key;
    const key = { domainName: row.domain, keySelector: row.dkimSelector, privateKey: createPrivateKey(openSecret(row.dkimPrivateKeySealed, this.passphrase)) };
    this.keys.set(row.domainId, { sealed: row.dkimPrivateKeySealed, key });
    return key;
  }
}

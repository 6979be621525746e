import { createPrivateKey, type KeyObject } from 'node:crypto';
import { emailDomain } from '@herald/contact-data';
import {
  dkimEncryptionKey,
  HERALD_RUNTIME,
  invalidInput,
  LATEST,
  openSecret,
  positionsContext,
  type HeraldRuntime,
} from '@herald/core';
import { ReadYourWrites } from '@herald/messaging';
import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { SENDING } from '../consumer.js';
import { SENDING_SETTINGS, type SendingSettings } from '../sending.settings.js';
import { DomainsClient } from './domains-client.js';
import { SenderDomain } from './sender-domain.entity.js';

export interface DkimKey {
  domainName: string;
  keySelector: string;
  /** Parsed once: signing from PEM text re-parses the key every time (about 4× the cost of the signature). */
  privateKey: KeyObject;
}

/** A verified sender domain as sending needs it: from the local copy, or from the owner's answer. */
export interface VerifiedSenderDomain {
  domainId: string;
  domain: string;
  dkimSelector: string | null;
  dkimPrivateKeySealed: string | null;
}

/** Field code of a sender address whose domain is not a verified domain of the project (422). */
export const SENDER_DOMAIN_NOT_VERIFIED = 'domain_not_verified';

/** How long an owner's "verified" answer stands in for the local copy (which catches up on domain.verified). */
export const OWNER_ANSWER_TTL_MS = 10_000;
const MAX_OWNER_ANSWERS = 10_000;
/** How long a verified row of the local copy answers `assertVerified` without a query (see `verified`). */
export const COPY_ANSWER_TTL_MS = 5_000;

/**
 * The project's verified sender domains and their DKIM keys. The local copy (fed by
 * domain.verified / domain.unverified) answers first; when it says "not verified", the owner (the
 * domains service, over internal HTTP) is asked, so that a domain verified a moment ago is
 * accepted before its event arrives. Only the owner's "verified" answers are kept, briefly; a "no"
 * is never cached, so a domain is usable the moment it is verified. When the request's project
 * changed its domains and the copy may not have applied it yet (read-your-writes), the owner alone
 * decides, afresh: a domain deleted or unverified a moment ago is refused (docs/consistency.md).
 *
 * `assertVerified` (every /v1/send) also keeps the copy's "verified" rows briefly (COPY_ANSWER_TTL_MS),
 * each with the domains position its request observed when it was read: a kept row answers only a
 * request that must observe no later write of the project's domains (one that deleted or unverified
 * the domain since is read afresh), and a domain.unverified applied here drops it at once.
 */
@Injectable()
export class SenderDomains {
  private readonly keys = new Map<string, { sealed: string; key: DkimKey }>();
  private readonly ownerAnswers = new Map<string, { domain: VerifiedSenderDomain; until: number }>();
  private readonly copyAnswers = new Map<string, { domain: VerifiedSenderDomain; until: number; covers: number }>();
  private readonly passphrase: string;

  constructor(
    @InjectDataSource(SENDING) private readonly db: DataSource,
    @Inject(SENDING_SETTINGS) settings: SendingSettings,
    @Inject(HERALD_RUNTIME) runtime: HeraldRuntime,
    private readonly owner: DomainsClient,
    private readonly readYourWrites: ReadYourWrites,
  ) {
    this.passphrase = dkimEncryptionKey(settings.DKIM_ENCRYPTION_KEY, runtime.internalJwtSecret);
  }

  /**
   * The verified domain, or null when neither the local copy nor the owner says it is verified.
   * Throws `unavailable` when the copy says no and the owner cannot be asked.
   */
  async verified(projectId: string, domain: string): Promise<VerifiedSenderDomain | null> {
    return this.find(projectId, domain.toLowerCase(), false);
  }

  /** A field error naming the domain when `address` is not on one of the project's verified domains. */
  async assertVerified(projectId: string, address: string, field: string): Promise<void> {
    const domain = emailDomain(address);
    if (domain && (await this.find(projectId, domain.toLowerCase(), true))) return;
    throw invalidInput(
      [
        {
          field,
          message: `${domain ?? address} is not a verified domain of this project: add it with POST /domains and publish its DNS records`,
          code: SENDER_DOMAIN_NOT_VERIFIED,
        },
      ],
      `The sender domain ${domain ?? address} is not verified`,
    );
  }

  /** The DKIM key to sign mail from `address`, or null when its domain is not (or no longer) verified. */
  async signingKey(projectId: string, address: string): Promise<DkimKey | null> {
    const domain = emailDomain(address);
    const found = domain ? await this.verified(projectId, domain) : null;
    if (!found?.dkimSelector || !found.dkimPrivateKeySealed) return null;
    const cached = this.keys.get(found.domainId);
    if (cached?.sealed === found.dkimPrivateKeySealed) return cached.key;
    const key = {
      domainName: found.domain,
      keySelector: found.dkimSelector,
      privateKey: createPrivateKey(openSecret(found.dkimPrivateKeySealed, this.passphrase)),
    };
    this.keys.set(found.domainId, { sealed: found.dkimPrivateKeySealed, key });
    return key;
  }

  /** The copy learned that the domain may no longer be used: a kept owner answer must not outlive that. */
  forget(projectId: string, domain: string): void {
    this.ownerAnswers.delete(`${projectId}\u0000${domain.toLowerCase()}`);
    this.copyAnswers.delete(`${projectId}\u0000${domain.toLowerCase()}`);
  }

  /** The copy's verified row (a kept one when `kept` and it covers the request), else the owner's answer. */
  private async find(projectId: string, name: string, kept: boolean): Promise<VerifiedSenderDomain | null> {
    if (!this.readYourWrites.copyIsCurrent(SENDING, 'domains')) return this.askOwner(projectId, name, true);
    const id = `${projectId}\u0000${name}`;
    const wanted = observedDomains();
    const known = kept ? this.copyAnswers.get(id) : undefined;
    if (known && known.until > Date.now() && wanted <= known.covers) return known.domain;
    const row = await this.db.getRepository(SenderDomain).findOneBy({ projectId, domain: name, verified: true });
    if (!row) {
      this.copyAnswers.delete(id);
      return this.askOwner(projectId, name);
    }
    if (kept && wanted !== Infinity) {
      if (this.copyAnswers.size >= MAX_OWNER_ANSWERS) this.copyAnswers.clear();
      this.copyAnswers.set(id, { domain: row, until: Date.now() + COPY_ANSWER_TTL_MS, covers: wanted });
    }
    return row;
  }

  /** The owner's answer; a kept "verified" stands in for it unless `fresh`. */
  private async askOwner(projectId: string, domain: string, fresh = false): Promise<VerifiedSenderDomain | null> {
    const id = `${projectId}\u0000${domain}`;
    const kept = this.ownerAnswers.get(id);
    if (!fresh && kept && kept.until > Date.now()) return kept.domain;
    this.ownerAnswers.delete(id);
    const answer = await this.owner.senderDomain(projectId, domain);
    if (!answer.verified) return null;
    const found: VerifiedSenderDomain = {
      domainId: answer.domainId,
      domain: answer.domain,
      dkimSelector: answer.dkimSelector,
      dkimPrivateKeySealed: answer.dkimPrivateKeySealed,
    };
    if (this.ownerAnswers.size >= MAX_OWNER_ANSWERS) this.ownerAnswers.clear();
    this.ownerAnswers.set(id, { domain: found, until: Date.now() + OWNER_ANSWER_TTL_MS });
    return found;
  }
}

/**
 * The position of the domains service's writes the current request must observe: 0 when none (or
 * outside a request), Infinity when it must observe whatever domains has committed (`latest`).
 */
function observedDomains(): number {
  const observed = positionsContext.getStore()?.observed;
  if (observed === LATEST) return Infinity;
  return observed?.domains ?? 0;
}

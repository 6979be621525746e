import { newId, sealSecret } from '@herald/core';
import { InjectOutbox, type Outbox } from '@herald/messaging';
import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { QueryFailedError, type DataSource } from 'typeorm';
import { DOMAINS } from '../consumer.js';
import { DKIM_ENCRYPTION_KEY, DOMAINS_SETTINGS, type DomainsSettings } from '../domains.settings.js';
import { DkimKeyGenerator } from '../keys/dkim-key-generator.js';
import { SenderDomainErrors } from './domain.errors.js';
import { domainUnverified } from './domain-events.js';
import { DomainChecks } from './domain-checks.js';
import { DomainVerifier } from './domain-verifier.js';
import { domainView, type DomainView } from './domain-view.js';
import { Domain } from './domain.entity.js';

/**
 * Whether the project may send from a domain, as `domain.verified` would tell it: with the DKIM
 * selector and the sealed key when verified.
 */
import type { SenderDomainAnswer } from '@herald/internal-contracts';

export type { SenderDomainAnswer };

const isUniqueViolation = (err: unknown): boolean =>
  err instanceof QueryFailedError && (err.driverError as { code?: string } | undefined)?.code === '23505';

/** Sender domains of a project: add (with a new DKIM key), list, read, verify now, remove. */
@Injectable()
export class DomainsService {
  constructor(
    @InjectDataSource(DOMAINS) private readonly db: DataSource,
    @InjectOutbox(DOMAINS) private readonly outbox: Outbox,
    @Inject(DOMAINS_SETTINGS) private readonly settings: DomainsSettings,
    @Inject(DKIM_ENCRYPTION_KEY) private readonly encryptionKey: string,
    private readonly keys: DkimKeyGenerator,
    private readonly verifier: DomainVerifier,
    private readonly checks: DomainChecks,
  ) {}

  /** A pending domain with a fresh DKIM key; its background checks start. DOMAIN_ALREADY_EXISTS when the project has it. */
  async create(projectId: string, name: string): Promise<DomainView> {
    if (await this.db.getRepository(Domain).existsBy({ projectId, domain: name }))
      throw SenderDomainErrors.alreadyExists(name);
    const key = await this.keys.generate();
    const domain = this.db.getRepository(Domain).create({
      id: newId('dom'),
      projectId,
      domain: name,
      status: 'pending',
      verificationToken: this.keys.verificationToken(),
      dkimSelector: key.selector,
      dkimPublicKey: key.publicKey,
      dkimPrivateKeySealed: sealSecret(key.privateKeyPem, this.encryptionKey),
      checks: null,
      lastCheckedAt: null,
      verifiedAt: null,
      checkSeq: 0,
    });
    try {
      await this.db.transaction(async (m) => {
        await m.insert(Domain, domain);
        await this.checks.start(m, domain.id);
      });
    } catch (err) {
      if (isUniqueViolation(err)) throw SenderDomainErrors.alreadyExists(name);
      throw err;
    }
    return this.get(projectId, domain.id);
  }

  /** The domains of `projectId`, verified and pending, oldest first. Only the caller's own project. */
  async list(callerProjectId: string, projectId: string): Promise<{ domains: DomainView[] }> {
    if (projectId !== callerProjectId) throw SenderDomainErrors.otherProject();
    const domains = await this.db
      .getRepository(Domain)
      .find({ where: { projectId }, order: { createdAt: 'ASC', id: 'ASC' } });
    return { domains: domains.map((d) => domainView(d, this.settings.SPF_RECORD)) };
  }

  async get(projectId: string, id: string): Promise<DomainView> {
    return domainView(await this.find(projectId, id), this.settings.SPF_RECORD);
  }

  /** Checks the records now and moves the state as the background check would. */
  async verify(projectId: string, id: string, correlationId?: string): Promise<DomainView> {
    const outcome = await this.verifier.lookup(await this.find(projectId, id));
    const updated = await this.db.transaction(async (m) => {
      const locked = await m.findOne(Domain, { where: { projectId, id }, lock: { mode: 'pessimistic_write' } });
      if (!locked) throw SenderDomainErrors.notFound(id);
      return this.verifier.apply(m, locked, outcome, {}, { correlationId });
    });
    return domainView(updated, this.settings.SPF_RECORD);
  }

  /** Removes the domain and its checks; a verified one publishes `domain.unverified` (reason `removed`). */
  async remove(projectId: string, id: string, correlationId?: string): Promise<void> {
    await this.db.transaction(async (m) => {
      const domain = await m.findOne(Domain, { where: { projectId, id }, lock: { mode: 'pessimistic_write' } });
      if (!domain) throw SenderDomainErrors.notFound(id);
      if (domain.status === 'verified')
        await this.outbox.add(m, domainUnverified(domain, 'removed', { correlationId }));
      await this.checks.cancel(m, [id]);
      await m.delete(Domain, { id });
    });
  }

  /** The owner's answer for a sender domain of the project (internal: the sending service asks on a miss of its copy). */
  async senderDomain(projectId: string, name: string): Promise<SenderDomainAnswer> {
    const domain = name.toLowerCase();
    const row = await this.db.getRepository(Domain).findOneBy({ projectId, domain, status: 'verified' });
    if (!row) return { verified: false, domain };
    return {
      verified: true,
      domainId: row.id,
      domain: row.domain,
      dkimSelector: row.dkimSelector,
      dkimPrivateKeySealed: row.dkimPrivateKeySealed,
    };
  }

  private async find(projectId: string, id: string): Promise<Domain> {
    const domain = await this.db.getRepository(Domain).findOneBy({ projectId, id });
    if (!domain) throw SenderDomainErrors.notFound(id);
    return domain;
  }
}

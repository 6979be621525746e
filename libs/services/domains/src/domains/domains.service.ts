import { newId, sealSecret } from '@herald/core';
import { conflict, forbidden, notFound } from '@herald/http';
import { InjectOutbox, type Outbox } from '@herald/messaging';
import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { QueryFailedError, type DataSource } from 'typeorm';
import { DomainChecks } from '../checks/domain-checks.js';
import { DOMAINS } from '../consumer.js';
import { DKIM_ENCRYPTION_KEY, DOMAINS_SETTINGS, type DomainsSettings } from '../domains.settings.js';
import { DkimKeyGenerator } from '../keys/dkim-key-generator.js';
import { domainUnverified } from './domain-events.js';
import { DomainVerifier } from './domain-verifier.js';
import { domainView, type DomainView } from './domain-view.js';
import { Domain } from './domain.entity.js';

const isUniqueViolation = (err: unknown): boolean => err instanceof QueryFailedError && (err.driverError as { code?: string } | undefined)?.code === '23505';

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

  /** A pending domain with a fresh DKIM key; its background checks start. 409 when the project has it. */
  async create(projectId: string, name: string): Promise<DomainView> {
    const alreadyThere = () => conflict(`The project already has the domain ${name}`, 'Verify the existing domain (GET /domains/:id/verify) or delete it first.');
    if (await this.db.getRepository(Domain).existsBy({ projectId, domain: name })) throw alreadyThere();
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
      if (isUniqueViolation(err)) throw alreadyThere();
      throw err;
    }
    return this.get(projectId, domain.id);
  }

  /** The domains of `projectId`, verified and pending, oldest first. Only the caller's own project. */
  async list(callerProjectId: string, projectId: string): Promise<{ domains: DomainView[] }> {
    if (projectId !== callerProjectId) throw forbidden('You can only list the domains of your own project');
    const domains = await this.db.getRepository(Domain).find({ where: { projectId }, order: { createdAt: 'ASC', id: 'ASC' } });
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
      if (!locked) throw notFound('Domain', id);
      return this.verifier.apply(m, locked, outcome, {}, { correlationId });
    });
    return domainView(updated, this.settings.SPF_RECORD);
  }

  /** Removes the domain and its checks; a verified one publishes `domain.unverified` (reason `removed`). */
  async remove(projectId: string, id: string, correlationId?: string): Promise<void> {
    await this.db.transaction(async (m) => {
      const domain = await m.findOne(Domain, { where: { projectId, id }, lock: { mode: 'pessimistic_write' } });
      if (!domain) throw notFound('Domain', id);
      if (domain.status === 'verified') await this.outbox.add(m, domainUnverified(domain, 'removed', { correlationId }));
      await this.checks.cancel(m, [id]);
      await m.delete(Domain, { id });
    });
  }

  private async find(projectId: string, id: string): Promise<Domain> {
    const domain = await this.db.getRepository(Domain).findOneBy({ projectId, id });
    if (!domain) throw notFound('Domain', id);
    return domain;
  }
}

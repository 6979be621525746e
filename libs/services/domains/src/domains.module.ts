import { createResolver, HERALD_RUNTIME, loadConfig, type HeraldRuntime, type ServiceDefinition } from '@herald/core';
import { Job, JobsModule } from '@herald/jobs';
import { messagingEntities, MessagingModule } from '@herald/messaging';
import { PersistenceModule } from '@herald/persistence';
import { Module } from '@nestjs/common';
import { DOMAINS } from './consumer.js';
import { DomainChecks } from './domains/domain-checks.js';
import { DomainVerifier } from './domains/domain-verifier.js';
import { Domain } from './domains/domain.entity.js';
import { DomainsController } from './domains/domains.controller.js';
import { DomainsService } from './domains/domains.service.js';
import { DomainsStore } from './domains/domains.store.js';
import {
  DKIM_ENCRYPTION_KEY,
  DOMAINS_SETTINGS,
  DomainsServiceConfig,
  DomainsSettings,
  resolveDkimEncryptionKey,
} from './domains.settings.js';
import { DomainsCallHandlers } from './internal/domains.calls.js';
import { DkimKeyGenerator } from './keys/dkim-key-generator.js';
import { domainsMigrations } from './migrations/index.js';
import { DomainsProjectCleanup } from './projects/domains-project-cleanup.js';
import { DnsRecordChecker, DOMAINS_RESOLVER } from './records/dns-record-checker.js';

export const domainsSchema = {
  service: DOMAINS,
  entities: [Domain, Job, ...messagingEntities],
  migrations: domainsMigrations,
};

/** Sender domains, DKIM keys and verification state. */
@Module({
  imports: [
    PersistenceModule.forService(domainsSchema),
    MessagingModule.forService({ service: DOMAINS }),
    JobsModule.forService(DOMAINS, { concurrency: 4 }),
  ],
  controllers: [DomainsController],
  providers: [
    DomainsCallHandlers,
    { provide: DOMAINS_SETTINGS, useFactory: () => loadConfig(DomainsSettings) },
    {
      provide: DKIM_ENCRYPTION_KEY,
      inject: [DOMAINS_SETTINGS, HERALD_RUNTIME],
      useFactory: (s: DomainsSettings, rt: HeraldRuntime) => resolveDkimEncryptionKey(s, rt),
    },
    {
      provide: DOMAINS_RESOLVER,
      inject: [DOMAINS_SETTINGS],
      useFactory: (s: DomainsSettings) => createResolver({ servers: s.DNS_SERVERS }),
    },
    DnsRecordChecker,
    DkimKeyGenerator,
    DomainVerifier,
    DomainsStore,
    DomainChecks,
    DomainsService,
    DomainsProjectCleanup,
  ],
})
export class DomainsModule {}

export const domainsService: ServiceDefinition = {
  name: DOMAINS,
  module: DomainsModule,
  config: DomainsServiceConfig,
  schema: domainsSchema,
  projectData: { tables: [Domain], hook: DomainsProjectCleanup },
};

import { loadConfig } from '@herald/core';
import { Module } from '@nestjs/common';
import { EmailVerifier } from './email-verifier.js';
import { VerifyController } from './verify.controller.js';
import { DNS_RESOLVER_FACTORY, dnsResolverFactory, VERIFY_SETTINGS, VerifySettings } from './verify.settings.js';

/** `POST /v1/verify`: syntax, disposable/personal/alias/typo checks and DNS lookups of an address. */
@Module({
  controllers: [VerifyController],
  providers: [
    { provide: VERIFY_SETTINGS, useFactory: () => loadConfig(VerifySettings) },
    { provide: DNS_RESOLVER_FACTORY, useFactory: dnsResolverFactory, inject: [VERIFY_SETTINGS] },
    EmailVerifier,
  ],
  exports: [EmailVerifier],
})
export class VerifyModule {}

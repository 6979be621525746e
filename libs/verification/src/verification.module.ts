import { loadConfig } from '@herald/core';
import { Module } from '@nestjs/common';
import { EmailVerifier } from './email-verifier.js';
import { ListVerifier } from './list-verifier.js';
import { DNS_RESOLVER_FACTORY, dnsResolverFactory, VERIFY_SETTINGS, VerifySettings } from './verify.settings.js';

/**
 * Email verification for the services that need it: `EmailVerifier` (one address: POST /v1/verify,
 * sending) and `ListVerifier` (a list: verifying CSV imports, contacts), on one set of settings.
 */
@Module({
  providers: [
    { provide: VERIFY_SETTINGS, useFactory: () => loadConfig(VerifySettings) },
    { provide: DNS_RESOLVER_FACTORY, useFactory: dnsResolverFactory, inject: [VERIFY_SETTINGS] },
    EmailVerifier,
    ListVerifier,
  ],
  exports: [EmailVerifier, ListVerifier],
})
export class VerificationModule {}

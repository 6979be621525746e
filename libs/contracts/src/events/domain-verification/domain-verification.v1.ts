import { IsIn, IsOptional, IsString, Matches } from 'class-validator';
import { defineEvent } from '../../event-contract.js';
import { Topics } from '../../topics.js';

/**
 * Payload of `domain.verified` and `domain.unverified`. A verified domain carries what a sender
 * needs to sign with it: the DKIM selector and the private key sealed with DKIM_ENCRYPTION_KEY
 * (never plain text on the bus; only services holding that key can open it).
 */
export class DomainVerificationV1 {
  @IsString() domainId!: string;
  /** Lower-case domain name, e.g. `mail.example.com`. */
  @Matches(/^[a-z0-9.-]+$/) domain!: string;
  @IsIn(['verified', 'pending']) status!: 'verified' | 'pending';
  @IsOptional() @IsString() dkimSelector?: string;
  /** `sealSecret(privateKeyPem)`: AES-256-GCM, see libs/core secret-box. Present on domain.verified. */
  @IsOptional() @IsString() dkimPrivateKeySealed?: string;
  /** Why it went back to pending (records missing, domain removed). */
  @IsOptional() @IsString() reason?: string;
}

export const DomainVerified = defineEvent({
  topic: Topics.DomainVerified,
  version: 1,
  payload: DomainVerificationV1,
  key: (p) => p.domainId,
});

export const DomainUnverified = defineEvent({
  topic: Topics.DomainUnverified,
  version: 1,
  payload: DomainVerificationV1,
  key: (p) => p.domainId,
});

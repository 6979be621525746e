import { IsString, MaxLength } from 'class-validator';
import { call, defineCalls } from '../call-contract.js';

export class SenderDomainRequest {
  /** The host name of a sender address (`example.com` of `hello@example.com`), any case. */
  @IsString()
  @MaxLength(253)
  domain!: string;
}

/** Whether a domain is verified for the project and, when it is, what it takes to DKIM-sign. */
export type SenderDomainAnswer =
  | { verified: true; domainId: string; domain: string; dkimSelector: string; dkimPrivateKeySealed: string }
  | { verified: false; domain: string };

/**
 * What other services ask of domains at once: sending (and campaigns) whether a sender domain is
 * verified when their copy (fed by `domain.verified`) has not heard it yet. From domains' own tables.
 */
export const DomainsCalls = defineCalls('domains', {
  senderDomain: call<SenderDomainRequest, SenderDomainAnswer>({ request: SenderDomainRequest, timeoutMs: 5_000 }),
});

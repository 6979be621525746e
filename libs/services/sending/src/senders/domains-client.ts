import { DomainsCalls, type SenderDomainAnswer } from '@herald/internal-contracts';
import { InternalCalls, type CallClient } from '@herald/messaging';
import { Injectable } from '@nestjs/common';
import { SENDING } from '../consumer.js';

export type { SenderDomainAnswer as OwnerSenderDomain } from '@herald/internal-contracts';

/**
 * The domains service as the sending service needs it, answered at once (DomainsCalls): whether a
 * domain is verified for a project, and its DKIM key (sealed), when the local copy does not know.
 */
@Injectable()
export class DomainsClient {
  private readonly domains: CallClient<typeof DomainsCalls>;

  constructor(calls: InternalCalls) {
    this.domains = calls.client(DomainsCalls, SENDING);
  }

  senderDomain(projectId: string, domain: string): Promise<SenderDomainAnswer> {
    return this.domains.senderDomain(projectId, { domain });
  }
}

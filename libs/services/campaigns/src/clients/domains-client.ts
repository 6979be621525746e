import { DomainsCalls } from '@herald/internal-contracts';
import { InternalCalls, type CallClient } from '@herald/messaging';
import { Injectable } from '@nestjs/common';
import { CAMPAIGNS } from '../consumer.js';

/** The domains service as campaigns needs it (DomainsCalls): is a sender domain verified for the project. */
@Injectable()
export class DomainsClient {
  private readonly domains: CallClient<typeof DomainsCalls>;

  constructor(calls: InternalCalls) {
    this.domains = calls.client(DomainsCalls, CAMPAIGNS);
  }

  async verified(projectId: string, domain: string, requestId?: string): Promise<boolean> {
    return (await this.domains.senderDomain(projectId, { domain }, { requestId })).verified;
  }
}

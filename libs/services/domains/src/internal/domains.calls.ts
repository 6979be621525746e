import { DomainsCalls } from '@herald/internal-contracts';
import { CallHandlers } from '@herald/messaging';
import { Injectable, type OnModuleInit } from '@nestjs/common';
import { DomainsService } from '../domains/domains.service.js';

/**
 * What domains answers other services at once (DomainsCalls): whether a sender domain is verified,
 * with what it takes to DKIM-sign, when the caller's copy (fed by `domain.verified`) has not heard it yet.
 */
@Injectable()
export class DomainsCallHandlers implements OnModuleInit {
  constructor(
    private readonly calls: CallHandlers,
    private readonly domains: DomainsService,
  ) {}

  onModuleInit(): void {
    this.calls.serve(DomainsCalls, {
      senderDomain: (projectId, request) => this.domains.senderDomain(projectId, request.domain),
    });
  }
}

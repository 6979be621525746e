import { ObservesWritesOf } from '@herald/core';
import { ProjectId } from '@herald/auth';
import { Internal } from '@herald/http';
import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { IsString, MaxLength } from 'class-validator';
import { DomainsService, type SenderDomainAnswer } from '../domains/domains.service.js';

export class SenderDomainQueryDto {
  /** The host name of a sender address (`example.com` of `hello@example.com`), any case. */
  @IsString()
  @MaxLength(253)
  domain!: string;
}

/**
 * What other services ask of domains when the answer must be immediate: the sending service asks
 * whether a sender domain is verified when its own copy (fed by `domain.verified`) has not heard it
 * yet (read-your-writes), with what it needs to DKIM-sign. Reached only with a service principal,
 * never through the gateway.
 */
@Internal()
// reads and writes only this service's own tables
@ObservesWritesOf()
@Controller('internal/domains')
export class InternalDomainsController {
  constructor(private readonly domains: DomainsService) {}

  @Post('sender')
  @HttpCode(200)
  sender(@ProjectId() projectId: string, @Body() body: SenderDomainQueryDto): Promise<SenderDomainAnswer> {
    return this.domains.senderDomain(projectId, body.domain);
  }
}

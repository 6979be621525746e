import { ObservesWritesOf } from '@herald/core';
import { ProjectId } from '@herald/auth';
import { BILLING_CATEGORIES, type BillingCategory } from '@herald/contracts';
import { Internal } from '@herald/http';
import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { IsIn, IsInt, Max, Min } from 'class-validator';
import { BillingService } from './billing.service.js';

export class AdmissionQueryDto {
  @IsIn(BILLING_CATEGORIES)
  category!: BillingCategory;

  /** How many emails the send would add (its recipients). */
  @IsInt()
  @Min(1)
  @Max(1_000_000)
  count!: number;
}

/**
 * What the sending service (and the campaigns' and workflows' intake) asks before accepting a send:
 * the owner's answer on caps and suspension, so a cap just raised or a suspension just lifted is
 * honoured at once. 200 `{allowed: true}`, or the refusal as its domain error (429
 * BILLING_LIMIT_EXCEEDED, 403 PROJECT_SENDING_SUSPENDED), which the internal client re-throws.
 * Reached only with a service principal, never through the gateway's public routes.
 */
@Internal()
// consumption counters lag the sends they count (docs/consistency.md): /v1/send never waits for them
@ObservesWritesOf()
@Controller('internal/billing')
export class InternalBillingController {
  constructor(private readonly billing: BillingService) {}

  @Post('admission')
  @HttpCode(200)
  admission(@ProjectId() projectId: string, @Body() body: AdmissionQueryDto): Promise<{ allowed: true }> {
    return this.billing.admission(projectId, body.category, body.count);
  }
}

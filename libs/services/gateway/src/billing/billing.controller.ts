import { Body, Controller, Get, Param, Put } from '@nestjs/common';
import type { User } from '../accounts/user.entity.js';
import { CurrentUser, SessionAuth } from '../accounts/auth-decorators.js';
import { BillingService, type BillingLimitsView, type ConsumptionView } from './billing.service.js';

/** Caps and consumption of a project (docs/billing.md); the payment provider's routes: StripeBillingController. */
@SessionAuth()
@Controller('users/@me/projects/:id')
export class BillingController {
  constructor(private readonly billing: BillingService) {}

  @Get('billing-limits')
  limits(@CurrentUser() user: User, @Param('id') id: string): Promise<BillingLimitsView> {
    return this.billing.limits(user.id, id);
  }

  /** Body `{transactional?, campaign?, workflow?}`: a whole number ≥ 0, or null for no cap; validated by parseCaps. */
  @Put('billing-limits')
  setLimits(@CurrentUser() user: User, @Param('id') id: string, @Body() body: unknown): Promise<BillingLimitsView> {
    return this.billing.setLimits(user.id, id, body);
  }

  @Get('billing-consumption')
  consumption(@CurrentUser() user: User, @Param('id') id: string): Promise<ConsumptionView> {
    return this.billing.consumption(user.id, id);
  }
}

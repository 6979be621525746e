import { Controller, Get, HttpCode, Param, Post } from '@nestjs/common';
import type { User } from '../accounts/user.entity.js';
import { CurrentUser, SessionAuth } from '../accounts/auth-decorators.js';
import { ReputationService, type SecurityView, type SuspensionView } from './reputation.service.js';

/** The security state of a project: rates, thresholds, status and recent suspensions (any member); an OWNER lifts a suspension. */
@SessionAuth()
@Controller()
export class SecurityController {
  constructor(private readonly reputation: ReputationService) {}

  @Get('users/@me/projects/:id/security')
  mine(@CurrentUser() user: User, @Param('id') id: string): Promise<SecurityView> {
    return this.reputation.security(user.id, id);
  }

  @Get('projects/:id/security')
  project(@CurrentUser() user: User, @Param('id') id: string): Promise<SecurityView> {
    return this.reputation.security(user.id, id);
  }

  @Post('projects/:id/security/lift')
  @HttpCode(200)
  lift(@CurrentUser() user: User, @Param('id') id: string): Promise<SuspensionView> {
    return this.reputation.lift(user.id, id);
  }
}

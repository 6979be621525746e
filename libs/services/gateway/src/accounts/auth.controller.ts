import { Public } from '@herald/http';
import { Body, Controller, Get, HttpCode, Inject, Post, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { GATEWAY_SETTINGS, type GatewaySettings } from '../gateway.settings.js';
import {
  LogInDto,
  RequestPasswordResetDto,
  ResetPasswordDto,
  SignUpDto,
  TokenDto,
  type UserView,
} from './account.dto.js';
import { CurrentUser, SessionAuth } from './auth-decorators.js';
import { AccountsService, userView } from './accounts.service.js';
import { oauthProviders } from './oauth-providers.js';
import { SessionService } from './session.service.js';
import { SignUpUseCase } from './sign-up.use-case.js';
import type { User } from './user.entity.js';

@Controller('auth')
export class AuthController {
  constructor(
    private readonly accounts: AccountsService,
    private readonly signUpUseCase: SignUpUseCase,
    private readonly sessions: SessionService,
    @Inject(GATEWAY_SETTINGS) private readonly settings: GatewaySettings,
  ) {}

  /**
   * Creates the account and starts a session; sends the verification email, or, with an
   * `invitationToken`, creates it verified and a member of the inviting project.
   */
  @Public()
  @Post('signup')
  @HttpCode(201)
  async signUp(
    @Body() body: SignUpDto,
    @Req() req: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<UserView> {
    const user = await this.signUpUseCase.execute(body);
    this.sessions.issue(reply, req, { sub: user.id, sv: user.sessionVersion });
    return userView(user);
  }

  @Public()
  @Post('login')
  @HttpCode(200)
  async logIn(
    @Body() body: LogInDto,
    @Req() req: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<UserView> {
    const user = await this.accounts.logIn(body, req.ip);
    this.sessions.issue(reply, req, { sub: user.id, sv: user.sessionVersion });
    return userView(user);
  }

  /** Clears the cookie and ends the session server-side: the old cookie no longer works anywhere. */
  @Public()
  @Get('logout')
  async logOut(
    @Req() req: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<{ success: true }> {
    const claims = this.sessions.claimsOf(req);
    if (claims) await this.accounts.logOut(claims);
    this.sessions.clear(reply, req);
    return { success: true };
  }

  @Public()
  @Post('verify-email')
  @HttpCode(200)
  async verifyEmail(@Body() body: TokenDto): Promise<UserView> {
    return userView(await this.accounts.verifyEmail(body.token));
  }

  @SessionAuth()
  @Post('request-verification')
  @HttpCode(202)
  async requestVerification(@CurrentUser() user: User, @Req() req: FastifyRequest): Promise<{ success: true }> {
    await this.accounts.requestVerification(user, req.ip);
    return { success: true };
  }

  /** Same answer whether or not the email has an account. */
  @Public()
  @Post('request-password-reset')
  @HttpCode(202)
  async requestPasswordReset(
    @Body() body: RequestPasswordResetDto,
    @Req() req: FastifyRequest,
  ): Promise<{ success: true }> {
    await this.accounts.requestPasswordReset(body.email, req.ip);
    return { success: true };
  }

  /** Sets the new password; every existing session of the account ends. */
  @Public()
  @Post('reset-password')
  @HttpCode(200)
  async resetPassword(@Body() body: ResetPasswordDto): Promise<{ success: true }> {
    await this.accounts.resetPassword(body);
    return { success: true };
  }

  /** The OAuth providers configured (client id and secret set; none by default): log in at /auth/oauth/:id. */
  @Public()
  @Get('oauth-config')
  oauthConfig(): { providers: { id: string; clientId: string }[] } {
    return { providers: oauthProviders(this.settings) };
  }
}

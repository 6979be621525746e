import { ObservesWritesOf } from '@herald/core';
import { EmailVerifier, type EmailVerification } from '@herald/verification';
import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { VerifyEmailDto } from './verify-email.dto.js';

/** `POST /v1/verify` (secret key; closed by the global principal guard like every route). */
// DNS only
@ObservesWritesOf()
@Controller()
export class VerifyController {
  constructor(private readonly verifier: EmailVerifier) {}

  @Post('v1/verify')
  @HttpCode(200)
  async verify(@Body() body: VerifyEmailDto): Promise<{ success: true; data: EmailVerification }> {
    return { success: true, data: await this.verifier.verify(body.email) };
  }
}

import { VerificationModule } from '@herald/verification';
import { Module } from '@nestjs/common';
import { VerifyController } from './verify.controller.js';

/** `POST /v1/verify`: syntax, disposable/personal/alias/typo checks and DNS lookups of an address (`@herald/verification`). */
@Module({
  imports: [VerificationModule],
  controllers: [VerifyController],
})
export class VerifyModule {}

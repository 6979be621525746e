import { Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { PassportModule } from '@nestjs/passport';
import { PrincipalGuard } from './principal.guard.js';
import { PrincipalStrategy } from './principal.strategy.js';

/** Once per process: the deny-by-default principal guard and its passport-jwt strategy. */
@Module({
  imports: [PassportModule],
  providers: [PrincipalStrategy, { provide: APP_GUARD, useClass: PrincipalGuard }],
})
export class AuthModule {}

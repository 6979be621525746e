import { APP_GUARD } from '@nestjs/core';
import { Module } from '@nestjs/common';
import { PassportModule } from '@nestjs/passport';
import { PrincipalGuard } from './principal.guard.js';
import { PrincipalStrategy } from './principal.strategy.js';

/** Once per process: the passport-jwt strategy for the gateway-signed principal. */
@Module({
  imports: [PassportModule],
  providers: [PrincipalStrategy],
})
export class AuthModule {}

/** The global guard of a service process that sits behind the gateway. */
export const principalGuardProvider = { provide: APP_GUARD, useClass: PrincipalGuard };

import { PRINCIPAL_HEADER, type Principal } from '@herald/contracts';
import { HERALD_RUNTIME, type HeraldRuntime } from '@herald/core';
import { Inject, Injectable } from '@nestjs/common';
import { PassportStrategy } from '@nestjs/passport';
import { ExtractJwt, Strategy } from 'passport-jwt';
import { hmacKey, isPrincipal, PRINCIPAL_AUDIENCE, PRINCIPAL_ISSUER } from './principal-token.js';

export const PRINCIPAL_STRATEGY = 'herald-principal';

/** passport-jwt strategy verifying the gateway-signed principal header. */
@Injectable()
export class PrincipalStrategy extends PassportStrategy(Strategy, PRINCIPAL_STRATEGY) {
  constructor(@Inject(HERALD_RUNTIME) runtime: HeraldRuntime) {
    super({
      jwtFromRequest: ExtractJwt.fromHeader(PRINCIPAL_HEADER),
      // a KeyObject (jsonwebtoken takes it; passport-jwt passes it through untouched)
      secretOrKey: hmacKey(runtime.internalJwtSecret) as unknown as string,
      algorithms: ['HS256'],
      issuer: PRINCIPAL_ISSUER,
      audience: PRINCIPAL_AUDIENCE,
      ignoreExpiration: false,
    });
  }

  validate(payload: { principal?: unknown }): Principal | false {
    return isPrincipal(payload.principal) ? payload.principal : false;
  }
}

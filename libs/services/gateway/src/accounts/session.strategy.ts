import { hmacKey } from '@herald/auth';
import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { PassportStrategy } from '@nestjs/passport';
import { Strategy } from 'passport-jwt';
import type { Repository } from 'typeorm';
import { GATEWAY } from '../consumer.js';
import { SESSION_AUDIENCE, SESSION_ISSUER, SessionService, type SessionClaims } from './session.service.js';
import { User } from './user.entity.js';

export const SESSION_STRATEGY = 'herald-session';

/** passport-jwt over the session cookie; the user must still exist and the session version match. */
@Injectable()
export class SessionStrategy extends PassportStrategy(Strategy, SESSION_STRATEGY) {
  constructor(
    sessions: SessionService,
    @InjectRepository(User, GATEWAY) private readonly users: Repository<User>,
  ) {
    super({
      jwtFromRequest: SessionService.tokenFrom,
      secretOrKey: hmacKey(sessions.secret) as unknown as string,
      algorithms: ['HS256'],
      issuer: SESSION_ISSUER,
      audience: SESSION_AUDIENCE,
    });
  }

  async validate(claims: SessionClaims): Promise<User | false> {
    const user = await this.users.findOneBy({ id: claims.sub });
    return user && user.sessionVersion === claims.sv ? user : false;
  }
}

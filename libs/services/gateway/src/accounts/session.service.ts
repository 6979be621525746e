import { hmacKey } from '@herald/auth';
import { hkdfSync } from 'node:crypto';
import { HERALD_RUNTIME, type HeraldRuntime } from '@herald/core';
import { Inject, Injectable } from '@nestjs/common';
import { parse, serialize } from 'cookie';
import type { FastifyReply, FastifyRequest } from 'fastify';
import jwt from 'jsonwebtoken';
import { GATEWAY_SETTINGS, type GatewaySettings } from '../gateway.settings.js';

export const SESSION_COOKIE = 'herald_session';
export const SESSION_ISSUER = 'herald';
export const SESSION_AUDIENCE = 'herald-dashboard';

export interface SessionClaims {
  sub: string;
  /** The user's session version when issued; logout and a password reset bump it, ending older sessions. */
  sv: number;
}

/** Dashboard sessions: an HS256 JWT in an HttpOnly cookie (SameSite=Lax, Secure over https). */
@Injectable()
export class SessionService {
  readonly secret: string;
  private readonly ttlSeconds: number;

  constructor(@Inject(GATEWAY_SETTINGS) settings: GatewaySettings, @Inject(HERALD_RUNTIME) runtime: HeraldRuntime) {
    this.secret =
      settings.SESSION_SECRET ??
      Buffer.from(hkdfSync('sha256', runtime.internalJwtSecret, 'herald', 'session-cookie', 32)).toString('hex');
    this.ttlSeconds = settings.SESSION_TTL_HOURS * 3600;
  }

  issue(reply: FastifyReply, request: FastifyRequest, claims: SessionClaims): void {
    const token = jwt.sign(claims, hmacKey(this.secret), {
      algorithm: 'HS256',
      expiresIn: this.ttlSeconds,
      issuer: SESSION_ISSUER,
      audience: SESSION_AUDIENCE,
    });
    void reply.header('set-cookie', this.cookie(request, token, this.ttlSeconds));
  }

  clear(reply: FastifyReply, request: FastifyRequest): void {
    void reply.header('set-cookie', this.cookie(request, '', 0));
  }

  /** The claims of the request's session cookie when it is genuine and unexpired (its version is not checked here). */
  claimsOf(request: FastifyRequest): SessionClaims | null {
    const token = SessionService.tokenFrom(request);
    if (!token) return null;
    try {
      const claims = jwt.verify(token, hmacKey(this.secret), {
        algorithms: ['HS256'],
        issuer: SESSION_ISSUER,
        audience: SESSION_AUDIENCE,
      }) as Partial<SessionClaims>;
      return typeof claims.sub === 'string' && typeof claims.sv === 'number'
        ? { sub: claims.sub, sv: claims.sv }
        : null;
    } catch {
      return null;
    }
  }

  /** The raw session token from the request's cookies (passport-jwt verifies it). */
  static tokenFrom(request: { headers: Record<string, string | string[] | undefined> }): string | null {
    const header = request.headers.cookie;
    if (typeof header !== 'string') return null;
    return parse(header)[SESSION_COOKIE] ?? null;
  }

  private cookie(request: FastifyRequest, value: string, maxAge: number): string {
    return serialize(SESSION_COOKIE, value, {
      httpOnly: true,
      sameSite: 'lax',
      secure: request.protocol === 'https',
      path: '/',
      maxAge,
    });
  }
}

import { verifyPrincipal } from '@herald/auth';
import { PRINCIPAL_HEADER, type Principal } from '@herald/contracts';
import {
  annotateLogContext,
  HERALD_RUNTIME,
  READ_YOUR_WRITES_GATE,
  type HeraldRuntime,
  type ReadYourWritesGate,
} from '@herald/core';
import { ErrorCode, HeraldException, IS_INTERNAL, IS_PUBLIC, unauthorized } from '@herald/http';
import { Inject, Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { AuthGuard } from '@nestjs/passport';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { SESSION_STRATEGY } from '../accounts/session.strategy.js';
import type { User } from '../accounts/user.entity.js';
import { SESSION_AUTH, type RequestWithSession } from '../accounts/auth-decorators.js';
import { CredentialsService } from './credentials.service.js';
import type { RateLimiter } from '../shared/rate-limiter.js';
import { routeFor, type RouteRule } from './route-table.js';

export const API_RATE_LIMITER = Symbol('API_RATE_LIMITER');
export const PROJECT_HEADER = 'x-project-id';

type EdgeRequest = FastifyRequest & RequestWithSession & { principal?: Principal; user?: User | false | null };

/** passport-jwt over the session cookie, without failing: no valid session just means "no user". */
@Injectable()
export class OptionalSessionGuard extends AuthGuard(SESSION_STRATEGY) {
  override handleRequest<T>(_err: unknown, user: T): T {
    return user;
  }
}

/**
 * The gateway's guard, global wherever the gateway runs (its own process, or standalone, where it
 * guards every service's routes in-process):
 * - `@Public()` routes pass; `@Internal()` routes need a principal another service signed;
 * - `@SessionAuth()` routes (accounts, projects, members) need a dashboard session;
 * - every project-scoped route (the routing table) needs `Authorization: Bearer sk_…` (or `pk_…` on
 *   /v1/track; a test key `sk_test_…` / `pk_test_…` alike, its principal marked `testMode`), or a
 *   session plus `X-Project-Id` naming a project the user is a member of;
 * - then the project's rate limit is counted and reported in RateLimit-* headers.
 * The resulting principal is put on the request (and, in distributed mode, signed for the service).
 * Then the read-your-writes gate holds a route this process serves until the copies it reads have
 * applied the project's earlier writes (standalone: every service's routes; the gateway process: its
 * own, the proxy passing the project's positions on instead).
 */
@Injectable()
export class EdgeAuthGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly credentials: CredentialsService,
    private readonly sessionGuard: OptionalSessionGuard,
    @Inject(API_RATE_LIMITER) private readonly limiter: RateLimiter,
    @Inject(HERALD_RUNTIME) private readonly runtime: HeraldRuntime,
    @Inject(READ_YOUR_WRITES_GATE) private readonly readYourWrites: ReadYourWritesGate,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    if (!(await this.authenticate(context))) return false;
    const req = context.switchToHttp().getRequest<EdgeRequest>();
    await this.readYourWrites.pass(context, req.principal?.projectId ?? this.projectOfRoute(context, req));
    return true;
  }

  /**
   * The project of a session route that names it in its path (`/users/@me/projects/:id/…`,
   * `/projects/:id/…`): the gateway's own reads of copies (billing consumption, setup state).
   */
  private projectOfRoute(context: ExecutionContext, req: EdgeRequest): string | undefined {
    if (context.getType() !== 'http' || !req.sessionUser) return undefined;
    const params = req.params as Record<string, string> | undefined;
    return typeof params?.id === 'string' && /^\/(users\/@me\/)?projects\//.test(req.url) ? params.id : undefined;
  }

  private async authenticate(context: ExecutionContext): Promise<boolean> {
    if (context.getType() !== 'http') return true;
    const targets = [context.getHandler(), context.getClass()];
    if (this.reflector.getAllAndOverride<boolean>(IS_PUBLIC, targets)) return true;
    const req = context.switchToHttp().getRequest<EdgeRequest>();
    const reply = context.switchToHttp().getResponse<FastifyReply>();

    if (this.reflector.getAllAndOverride<boolean>(IS_INTERNAL, targets)) {
      // a service-to-service call (standalone: this process hosts both ends): the caller's signed principal
      const token = req.headers[PRINCIPAL_HEADER];
      const principal = typeof token === 'string' ? verifyPrincipal(token, this.runtime.internalJwtSecret) : null;
      if (principal?.kind !== 'service')
        throw new HeraldException(
          404,
          ErrorCode.RouteNotFound,
          `Route ${req.method} ${req.url.split('?')[0]} does not exist`,
        );
      req.principal = principal;
      return true;
    }

    if (this.reflector.getAllAndOverride<boolean>(SESSION_AUTH, targets)) {
      const user = await this.sessionUser(context, req);
      if (!user)
        throw new HeraldException(401, ErrorCode.Unauthorized, 'Log in first: this route needs a dashboard session', {
          suggestion: 'POST /auth/login; the browser then sends the session cookie.',
        });
      req.sessionUser = user;
      req.principal = { kind: 'user', userId: user.id };
      return true;
    }

    const rule = routeFor(req.url);
    if (!rule) {
      throw new HeraldException(
        404,
        ErrorCode.RouteNotFound,
        `Route ${req.method} ${req.url.split('?')[0]} does not exist`,
      );
    }
    if (rule.public) return true; // signed links and relay callbacks: the owning service checks the signature
    const principal = await this.projectPrincipal(context, req, rule);
    const decision = await this.limiter.consume(principal.projectId!);
    void reply.header('ratelimit-limit', String(decision.limit));
    void reply.header('ratelimit-remaining', String(decision.remaining));
    void reply.header('ratelimit-reset', String(decision.resetSeconds));
    if (!decision.allowed) {
      throw new HeraldException(
        429,
        ErrorCode.RateLimitExceeded,
        `Rate limit of ${decision.limit} requests per minute exceeded for this project`,
        {
          headers: { 'retry-after': String(decision.resetSeconds) },
          suggestion: `Retry after ${decision.resetSeconds} seconds.`,
        },
      );
    }
    req.principal = principal;
    annotateLogContext({ projectId: principal.projectId });
    return true;
  }

  private async projectPrincipal(
    context: ExecutionContext,
    req: EdgeRequest,
    rule: RouteRule,
  ): Promise<Principal & { projectId: string }> {
    const authorization = req.headers.authorization;
    if (authorization !== undefined) {
      const match = /^Bearer\s+(\S+)$/i.exec(authorization);
      const owner = match ? await this.credentials.keyOwnerFor(req.raw, match[1]!) : null;
      if (!owner) throw unauthorized('The API key is missing, malformed or not valid', ErrorCode.InvalidApiKey);
      if (owner.kind === 'public' && !rule.publicKey) {
        throw new HeraldException(403, ErrorCode.Forbidden, 'A public key (pk_) can only call /v1/track', {
          suggestion: 'Use the secret key (sk_) from your server; never ship it to browsers.',
        });
      }
      if (owner.disabled) throw new HeraldException(403, ErrorCode.ProjectDisabled, 'This project is disabled');
      // a test key's principal carries the mark every service reads (docs/test-mode.md)
      return {
        kind: 'api-key',
        projectId: owner.projectId,
        keyType: owner.kind,
        ...(owner.testMode ? { testMode: true as const } : {}),
      };
    }
    const user = await this.sessionUser(context, req);
    if (!user) throw unauthorized('Send Authorization: Bearer <secret key>');
    const projectId = req.headers[PROJECT_HEADER];
    if (typeof projectId !== 'string' || projectId.length === 0) {
      throw new HeraldException(400, ErrorCode.ProjectRequired, 'Name the project with the X-Project-Id header', {
        suggestion: 'Dashboard sessions reach project routes with X-Project-Id: <project id>.',
      });
    }
    const member = await this.credentials.member(user.id, projectId);
    if (!member) throw new HeraldException(403, ErrorCode.Forbidden, 'You are not a member of this project');
    if (member.disabled) throw new HeraldException(403, ErrorCode.ProjectDisabled, 'This project is disabled');
    req.sessionUser = user;
    return { kind: 'user', userId: user.id, projectId, role: member.role };
  }

  private async sessionUser(context: ExecutionContext, req: EdgeRequest): Promise<User | null> {
    if (req.sessionUser) return req.sessionUser;
    await this.sessionGuard.canActivate(context);
    return req.user || null;
  }
}

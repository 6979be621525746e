import { annotateLogContext, READ_YOUR_WRITES_GATE, type ReadYourWritesGate } from '@herald/core';
import { ErrorCode, HeraldException, IS_INTERNAL, IS_PUBLIC } from '@herald/http';
import type { Principal } from '@herald/contracts';
import { Inject, Injectable, type ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { AuthGuard } from '@nestjs/passport';
import { PRINCIPAL_STRATEGY } from './principal.strategy.js';

export type RequestWithPrincipal = { principal?: Principal; user?: Principal };

/**
 * Deny by default: every route needs a principal unless marked `@Public()`. The principal is either
 * already on the request (standalone mode: the gateway's guards ran in this process) or arrives as
 * the gateway-signed JWT header, verified by passport-jwt. Anything else is 401. Then, the project
 * known, the read-your-writes gate holds the route until the copies it reads are current.
 */
@Injectable()
export class PrincipalGuard extends AuthGuard(PRINCIPAL_STRATEGY) {
  constructor(
    private readonly reflector: Reflector,
    @Inject(READ_YOUR_WRITES_GATE) private readonly readYourWrites: ReadYourWritesGate,
  ) {
    super();
  }

  override async canActivate(context: ExecutionContext): Promise<boolean> {
    if (context.getType() !== 'http') return true;
    if (this.reflector.getAllAndOverride<boolean>(IS_PUBLIC, [context.getHandler(), context.getClass()])) return true;
    const req = context.switchToHttp().getRequest<RequestWithPrincipal>();
    if (!req.principal) {
      await (super.canActivate(context) as Promise<boolean>);
      req.principal = req.user;
    }
    if (req.principal?.projectId) annotateLogContext({ projectId: req.principal.projectId });
    const internal = this.reflector.getAllAndOverride<boolean>(IS_INTERNAL, [context.getHandler(), context.getClass()]);
    if (Boolean(internal) !== (req.principal?.kind === 'service')) {
      throw new HeraldException(
        403,
        ErrorCode.Forbidden,
        internal ? 'Only Herald services call this route' : 'A service principal cannot call public routes',
      );
    }
    await this.readYourWrites.pass(context, req.principal?.projectId);
    return true;
  }

  override handleRequest<T>(err: unknown, user: T): T {
    if (err || !user) {
      throw new HeraldException(401, ErrorCode.Unauthorized, 'Missing or invalid credentials', {
        suggestion: 'Call Herald through its gateway with Authorization: Bearer <key>.',
      });
    }
    return user;
  }
}

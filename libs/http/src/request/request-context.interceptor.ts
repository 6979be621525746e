import { logContext } from '@herald/core';
import { Injectable, type CallHandler, type ExecutionContext, type NestInterceptor } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { Observable } from 'rxjs';

/** Runs each HTTP handler inside the request's log context, so log lines and events carry its id. */
@Injectable()
export class RequestContextInterceptor implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (context.getType() !== 'http') return next.handle();
    const req = context.switchToHttp().getRequest<FastifyRequest & { principal?: { projectId?: string } }>();
    const store = { requestId: String(req.id), correlationId: String(req.id), ...(req.principal?.projectId ? { projectId: req.principal.projectId } : {}) };
    return new Observable((subscriber) => logContext.run(store, () => next.handle().subscribe(subscriber)));
  }
}

import { ProjectId } from '@herald/auth';
import { callNamed } from '@herald/internal-contracts';
import { decodePositions, DomainError, ObservesWritesOf, POSITIONS_HEADER } from '@herald/core';
import { BodyLimit, Internal, SEND_BODY_LIMIT } from '@herald/http';
import { Body, Controller, HttpCode, Param, Post, Req } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { CallHandlers } from './call-handlers.js';

/**
 * The HTTP side of synchronous calls (distributed mode): `POST /internal/calls/<owner>.<call>` runs
 * the call in this process's owner exactly as a caller in the same process would (CallHandlers:
 * the request checked, the copies observed as the `x-herald-positions` header asks, writes answered
 * in `x-herald-written`). Reached only with a service principal, never through the gateway.
 */
@Internal()
// the call observes what its contract declares (CallHandlers), not what this controller's service consumes
@ObservesWritesOf()
@Controller('internal/calls')
export class InternalCallsController {
  constructor(private readonly handlers: CallHandlers) {}

  @Post(':name')
  @BodyLimit(SEND_BODY_LIMIT)
  @HttpCode(200)
  call(
    @ProjectId() projectId: string,
    @Param('name') name: string,
    @Body() body: unknown,
    @Req() req: FastifyRequest,
  ): Promise<unknown> {
    const contract = callNamed(name);
    if (!contract || !this.handlers.answers(name))
      throw new DomainError('not_found', 'CALL_NOT_FOUND', `No internal call ${name} is answered here`);
    return this.handlers.dispatch(contract, projectId, body, decodePositions(req.headers[POSITIONS_HEADER]), {
      requestId: String(req.id),
    });
  }
}

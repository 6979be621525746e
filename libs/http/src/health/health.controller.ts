import { HealthRegistry } from '@herald/core';
import { Controller, Get, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { Public } from '../request/public.decorator.js';

/** Liveness checks the process only; readiness checks every registered dependency. */
@Public()
@Controller('health')
export class HealthController {
  constructor(private readonly health: HealthRegistry) {}

  @Get('live')
  live(): { status: 'ok' } {
    return { status: 'ok' };
  }

  @Get('ready')
  async ready(@Res() reply: FastifyReply): Promise<void> {
    const report = await this.health.report();
    await reply.status(report.status === 'ok' ? 200 : 503).send(report);
  }
}

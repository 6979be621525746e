import { ObservesWritesOf } from '@herald/core';
import { ProjectId } from '@herald/auth';
import { BodyLimit, Internal, SEND_BODY_LIMIT } from '@herald/http';
import { Body, Controller, HttpCode, Post, Req } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { InternalEmailIntake, type IntakeAnswer } from './internal-email-intake.js';

/**
 * What campaigns and workflows hand the sending service: up to 500 emails per call, each under a
 * key that never makes a second email. Reached only with a service principal, never through the
 * gateway (docs/sending.md, "Internal intake").
 */
@Internal()
// the sender's domain is decided by SenderDomains (its copy, or the owner while the copy may lag)
@ObservesWritesOf('gateway')
@Controller('internal/emails')
export class InternalEmailsController {
  constructor(private readonly intake: InternalEmailIntake) {}

  /** The body is validated by parseIntakeRequest (field errors named `items[i].<field>`). */
  @Post()
  @BodyLimit(SEND_BODY_LIMIT)
  @HttpCode(200)
  execute(@ProjectId() projectId: string, @Body() body: unknown, @Req() req: FastifyRequest): Promise<IntakeAnswer> {
    return this.intake.execute(projectId, body, String(req.id));
  }
}

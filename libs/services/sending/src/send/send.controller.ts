import { ObservesWritesOf } from '@herald/core';
import { ProjectId, TestMode } from '@herald/auth';
import { BodyLimit } from '@herald/http';
import { idempotencyKeyOf } from '@herald/persistence';
import { Body, Controller, Headers, HttpCode, Post, Req } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { sendRouteLimit } from './send-body-limit.js';
import { batchValidationOf, SendBatchUseCase, type BatchSendResult } from './send-batch.use-case.js';
import { SendEmailUseCase, type SendResult } from './send-email.use-case.js';

// the sender's domain is decided by SenderDomains (its copy, or the owner while the copy may lag); the
// recipients are upserted in contacts, their owner: only a project reset (the gateway's) must be applied
@ObservesWritesOf('gateway')
@Controller('v1/send')
export class SendController {
  constructor(
    private readonly send: SendEmailUseCase,
    private readonly batch: SendBatchUseCase,
  ) {}

  /**
   * The body is validated by parseSendRequest (its union-typed fields do not fit a DTO class). With a
   * test key (`sk_test_…`) the emails are of test mode: never relayed (docs/test-mode.md).
   */
  @Post()
  @BodyLimit(() => sendRouteLimit.bytes) // sized from MAX_ATTACHMENT_BYTES (send-body-limit.ts)
  @HttpCode(200)
  execute(
    @ProjectId() projectId: string,
    @TestMode() testMode: boolean,
    @Body() body: unknown,
    @Headers('idempotency-key') key: string | string[] | undefined,
    @Req() req: FastifyRequest,
  ): Promise<SendResult> {
    return this.send.execute(projectId, body, idempotencyKeyOf(key), String(req.id), testMode);
  }

  /**
   * Up to 100 /v1/send bodies (a JSON array), answered per item; `X-Batch-Validation: permissive`
   * sends the valid items when others are invalid (default `strict`: the whole batch is refused).
   * The whole batch is at most one /v1/send body's size.
   */
  @Post('batch')
  @BodyLimit(() => sendRouteLimit.bytes)
  @HttpCode(200)
  executeBatch(
    @ProjectId() projectId: string,
    @TestMode() testMode: boolean,
    @Body() body: unknown,
    @Headers('idempotency-key') key: string | string[] | undefined,
    @Headers('x-batch-validation') validation: string | string[] | undefined,
    @Req() req: FastifyRequest,
  ): Promise<BatchSendResult> {
    return this.batch.execute(
      projectId,
      body,
      batchValidationOf(validation),
      idempotencyKeyOf(key),
      String(req.id),
      testMode,
    );
  }
}

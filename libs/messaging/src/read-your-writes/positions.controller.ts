import { HERALD_RUNTIME, LATEST, notFoundError, ObservesWritesOf, type HeraldRuntime } from '@herald/core';
import { Internal } from '@herald/http';
import { Body, Controller, HttpCode, Inject, Post } from '@nestjs/common';
import { Type } from 'class-transformer';
import { IsInt, IsString, Matches, Max, MaxLength, Min } from 'class-validator';
import { LocalRelays } from './local-relays.js';
import type { PublishedAnswer } from './producer-positions-client.js';
import { copyBehind } from './read-your-writes.gate.js';

export class ConfirmPositionDto {
  @IsString()
  @MaxLength(40)
  producer!: string;

  /** An outbox id, or `latest`: whatever the producer has committed when asked. */
  @IsString()
  @Matches(/^(latest|[1-9][0-9]{0,15})$/, { message: 'upTo must be an outbox position or "latest"' })
  upTo!: string;

  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(60_000)
  timeoutMs!: number;
}

/**
 * A producer's side of read-your-writes in distributed mode (ProducerPositionsClient calls it): answers
 * once this process's service has published its outbox up to the position asked (or up to its latest
 * event), with that position; a 503 `CONSISTENCY_TIMEOUT` if it has not by the caller's deadline.
 */
@Internal()
@ObservesWritesOf()
@Controller('internal/positions')
export class PositionsController {
  private readonly timeoutMs: number;

  constructor(
    private readonly relays: LocalRelays,
    @Inject(HERALD_RUNTIME) runtime: HeraldRuntime,
  ) {
    this.timeoutMs = runtime.readYourWrites?.timeoutMs ?? 5000;
  }

  @Post('confirm')
  @HttpCode(200)
  async confirm(@Body() body: ConfirmPositionDto): Promise<PublishedAnswer> {
    const relay = this.relays.get(body.producer);
    if (!relay) throw notFoundError('Producer', body.producer, 'PRODUCER_NOT_FOUND');
    const position = body.upTo === LATEST ? await relay.latestId() : Number(body.upTo);
    const deadline = Date.now() + Math.min(body.timeoutMs, this.timeoutMs);
    if (!(await relay.awaitPublished(position, deadline))) throw copyBehind(null, body.producer);
    return { position };
  }
}

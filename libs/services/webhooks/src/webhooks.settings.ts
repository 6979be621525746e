import { derivedSecret, type HeraldRuntime, ServiceConfig, toBool, toInt } from '@herald/core';
import { Transform } from 'class-transformer';
import { IsBoolean, IsInt, IsOptional, IsString, Matches, Max, Min, MinLength } from 'class-validator';
import { RETRY_SCHEDULE_PATTERN } from './deliveries/retry-schedule.js';

/** The webhooks service's settings, in both modes; all optional (docs/webhooks-out.md). */
export class WebhooksServiceSettings {
  /**
   * Targets an endpoint may reach although they are not public: CIDRs, addresses or host names,
   * comma-separated (as `WORKFLOW_WEBHOOK_ALLOW`). Unset: public addresses only.
   */
  @IsOptional()
  @IsString()
  WEBHOOKS_ALLOW?: string;

  /** Accept `http://` endpoint URLs (tests, a receiver inside the cluster); otherwise `https://` only. */
  @IsOptional()
  @Transform(toBool)
  @IsBoolean()
  WEBHOOKS_ALLOW_HTTP: boolean = false;

  /** Longest one delivery attempt may take, the answer included; past it the attempt failed. */
  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(100)
  @Max(60_000)
  WEBHOOKS_TIMEOUT_MS: number = 10_000;

  /** The answer's body is read up to this many bytes (its first 1,024 are kept in the delivery log). */
  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(1024)
  @Max(1_048_576)
  WEBHOOKS_RESPONSE_MAX_BYTES: number = 16_384;

  /**
   * The waits before each retry of a failed delivery, comma-separated durations (`500ms`, `5s`, `5m`,
   * `2h`): each wait is jittered between half of it and all of it; after the last retry fails the
   * delivery is dead. The default spans at least 27.8 hours.
   */
  @IsOptional()
  @Matches(RETRY_SCHEDULE_PATTERN, {
    message: 'WEBHOOKS_RETRY_SCHEDULE must be comma-separated durations such as 5s,5m,30m,2h (ms, s, m, h)',
  })
  WEBHOOKS_RETRY_SCHEDULE: string = '5s,5m,30m,2h,5h,10h,10h,14h,14h';

  /** Delivery lanes run at once by this process, across endpoints. */
  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(256)
  WEBHOOKS_CONCURRENCY: number = 16;

  /** Lanes of one endpoint: at most this many deliveries to it at once (per process and across replicas). */
  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(64)
  WEBHOOKS_ENDPOINT_CONCURRENCY: number = 4;

  /** Delivered and dead deliveries older than this many days leave the delivery log (pending ones stay). */
  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(3650)
  WEBHOOKS_DELIVERY_RETENTION_DAYS: number = 30;

  /**
   * Seals the endpoints' signing secrets at rest. Unset: derived from INTERNAL_JWT_SECRET (set it
   * before ever changing that secret, or the endpoints' secrets can no longer be opened).
   */
  @IsOptional()
  @IsString()
  @MinLength(32, { message: 'WEBHOOKS_ENCRYPTION_KEY must be at least 32 characters' })
  WEBHOOKS_ENCRYPTION_KEY?: string;
}

/** What the webhooks process needs in distributed mode, validated at boot (nothing beyond every service's). */
export class WebhooksServiceConfig extends ServiceConfig {}

export const WEBHOOKS_SETTINGS = Symbol('WEBHOOKS_SETTINGS');
export const WEBHOOKS_ENCRYPTION_KEY = Symbol('WEBHOOKS_ENCRYPTION_KEY');

/** The passphrase of the secret boxes: WEBHOOKS_ENCRYPTION_KEY, else derived from the internal secret. */
export function resolveWebhooksEncryptionKey(settings: WebhooksServiceSettings, runtime: HeraldRuntime): string {
  return settings.WEBHOOKS_ENCRYPTION_KEY ?? derivedSecret('webhook-secret-box', runtime.internalJwtSecret);
}

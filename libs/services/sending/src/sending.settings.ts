import { ServiceConfig, toBool, toInt } from '@herald/core';
import { Transform } from 'class-transformer';
import { IsBoolean, IsInt, IsOptional, IsString, Matches, Max, Min, MinLength } from 'class-validator';

const HTTP_URL = /^https?:\/\/[^\s]+$/;

/** The sending service's settings, in both modes (all optional; the distributed config adds what it must have). */
export class SendingSettings {
  /** Public base URL: tracking pixels, click redirects, unsubscribe/subscribe/manage pages. */
  @IsOptional()
  @Matches(HTTP_URL, { message: 'APP_URL must be an http(s) URL' })
  APP_URL: string = 'http://localhost:3000';

  /** The relay every email goes through: smtp(s)://user:pass@host:port. Unset: emails are accepted and wait, queued. */
  @IsOptional()
  @Matches(/^smtps?:\/\//, { message: 'SMTP_URL must be an smtp:// or smtps:// URL' })
  SMTP_URL?: string;

  /** Pooled SMTP connections to the relay. */
  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(100)
  SMTP_POOL_SIZE: number = 5;

  /** Messages a pooled connection sends before it is replaced. */
  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(1)
  SMTP_MAX_MESSAGES: number = 1000;

  /** Emails a delivery worker claims at once. */
  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(1000)
  DELIVERY_BATCH_SIZE: number = 100;

  /**
   * Threads that compose and DKIM-sign outgoing messages, off the event loop (0: on it). The
   * largest share of an email's CPU; one thread keeps the event loop free for requests and consumers.
   */
  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(16)
  DELIVERY_COMPOSE_THREADS: number = 1;

  /**
   * Threads that render Liquid templates (subject, body and its plain text) off the event loop (0: on
   * it). A hostile template holds a render thread for its time budget, never the loop that answers
   * requests (docs/templating.md, "Where templates render").
   */
  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(16)
  RENDER_THREADS: number = 1;

  /** Lease of a claimed email; a crashed worker's emails are recovered after it (live workers renew theirs). */
  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(1000)
  DELIVERY_LEASE_MS: number = 60_000;

  /** Attempts before a temporarily failing email is given up (email.failed). */
  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(50)
  DELIVERY_MAX_ATTEMPTS: number = 8;

  /** First retry delay after a temporary failure; doubles per attempt (capped at one hour). */
  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(10)
  DELIVERY_RETRY_BASE_MS: number = 30_000;

  /** Box of the DKIM private keys the domains service publishes; derived from INTERNAL_JWT_SECRET when unset (standalone). */
  @IsOptional()
  @IsString()
  @MinLength(32, { message: 'DKIM_ENCRYPTION_KEY must be at least 32 characters' })
  DKIM_ENCRYPTION_KEY?: string;

  /** Signs tracking and subscription links; derived from INTERNAL_JWT_SECRET when unset. */
  @IsOptional()
  @IsString()
  @MinLength(32, { message: 'LINK_SECRET must be at least 32 characters' })
  LINK_SECRET?: string;

  @IsOptional()
  @Transform(toBool)
  @IsBoolean()
  TRACK_OPENS: boolean = true;

  @IsOptional()
  @Transform(toBool)
  @IsBoolean()
  TRACK_CLICKS: boolean = true;

  /** Total attachment bytes per email (decoded). */
  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(0)
  MAX_ATTACHMENT_BYTES: number = 10 * 1024 * 1024;

  /** The contacts service (distributed mode): /v1/send upserts each recipient there. Standalone calls itself. */
  @IsOptional()
  @Matches(HTTP_URL, { message: 'CONTACTS_URL must be an http(s) URL' })
  CONTACTS_URL?: string;

  /**
   * The domains service (distributed mode): asked whether a sender domain is verified when the
   * local copy (fed by domain.verified) does not know it yet. Standalone calls itself.
   */
  @IsOptional()
  @Matches(HTTP_URL, { message: 'DOMAINS_URL must be an http(s) URL' })
  DOMAINS_URL?: string;

  /**
   * The gateway (distributed mode): asked before every send whether the project's billing cap and
   * sender reputation allow it (docs/billing.md). Defaults to APP_URL, the public URL, which is the
   * gateway; set it to reach the gateway on the internal network instead. Standalone calls itself.
   */
  @IsOptional()
  @Matches(HTTP_URL, { message: 'GATEWAY_URL must be an http(s) URL' })
  GATEWAY_URL?: string;
}

/** What the sending process needs in distributed mode, validated at boot. */
export class SendingServiceConfig extends ServiceConfig {
  @Matches(HTTP_URL, { message: 'CONTACTS_URL must be an http(s) URL' }) CONTACTS_URL!: string;
  @Matches(HTTP_URL, { message: 'DOMAINS_URL must be an http(s) URL' }) DOMAINS_URL!: string;
  @Matches(HTTP_URL, { message: 'APP_URL must be an http(s) URL' }) APP_URL!: string;
  @IsString()
  @MinLength(32, { message: 'DKIM_ENCRYPTION_KEY must be at least 32 characters' })
  DKIM_ENCRYPTION_KEY!: string;
  @IsString() @MinLength(32, { message: 'LINK_SECRET must be at least 32 characters' }) LINK_SECRET!: string;
}

export const SENDING_SETTINGS = Symbol('SENDING_SETTINGS');

import { ServiceConfig, toBool, toInt } from '@herald/core';
import { Transform } from 'class-transformer';
import { IsBoolean, IsInt, IsOptional, IsString, Matches, Max, Min, MinLength } from 'class-validator';

const HTTP_URL = /^https?:\/\/[^\s]+$/;

/** The gateway's settings, in both modes. All optional; the distributed config below adds what it must have. */
export class GatewaySettings {
  /** Refuse POST /auth/signup (the first account of a fresh install is still allowed). */
  @IsOptional() @Transform(toBool) @IsBoolean()
  DISABLE_SIGNUPS: boolean = false;

  /** API requests per minute per project. */
  @IsOptional() @Transform(toInt) @IsInt() @Min(1)
  RATE_LIMIT_PER_MINUTE: number = 1000;

  /** Public base URL of Herald (links in emails, cookie `Secure` when https). */
  @IsOptional() @Matches(HTTP_URL, { message: 'APP_URL must be an http(s) URL' })
  APP_URL: string = 'http://localhost:3000';

  /** Herald's own mail (verification, password reset): smtp(s)://user:pass@host:port. Unset: links are logged. */
  @IsOptional() @Matches(/^smtps?:\/\//, { message: 'SMTP_URL must be an smtp:// or smtps:// URL' })
  SMTP_URL?: string;

  @IsOptional() @IsString()
  MAIL_FROM: string = 'Herald <no-reply@localhost>';

  /** Signs session cookies; derived from INTERNAL_JWT_SECRET when unset. */
  @IsOptional() @IsString() @MinLength(32, { message: 'SESSION_SECRET must be at least 32 characters' })
  SESSION_SECRET?: string;

  @IsOptional() @Transform(toInt) @IsInt() @Min(1) @Max(24 * 90)
  SESSION_TTL_HOURS: number = 24 * 7;

  /** Shared rate-limit and login-throttle state; required in distributed mode, memory otherwise. */
  @IsOptional() @Matches(/^rediss?:\/\//, { message: 'REDIS_URL must be a redis:// URL' })
  REDIS_URL?: string;

  @IsOptional() @IsString() GITHUB_CLIENT_ID?: string;
  @IsOptional() @IsString() GOOGLE_CLIENT_ID?: string;

  @IsOptional() @Matches(HTTP_URL) CONTACTS_URL?: string;
  @IsOptional() @Matches(HTTP_URL) SENDING_URL?: string;
  @IsOptional() @Matches(HTTP_URL) CAMPAIGNS_URL?: string;
  @IsOptional() @Matches(HTTP_URL) SEGMENTS_URL?: string;
  @IsOptional() @Matches(HTTP_URL) WORKFLOWS_URL?: string;
  @IsOptional() @Matches(HTTP_URL) DOMAINS_URL?: string;
  @IsOptional() @Matches(HTTP_URL) ANALYTICS_URL?: string;
}

/** What the gateway process needs in distributed mode, validated at boot. */
export class GatewayServiceConfig extends ServiceConfig {
  @Matches(/^rediss?:\/\//, { message: 'REDIS_URL must be a redis:// URL' }) REDIS_URL!: string;
  @Matches(HTTP_URL, { message: 'CONTACTS_URL must be an http(s) URL' }) CONTACTS_URL!: string;
  @Matches(HTTP_URL, { message: 'SENDING_URL must be an http(s) URL' }) SENDING_URL!: string;
  @Matches(HTTP_URL, { message: 'CAMPAIGNS_URL must be an http(s) URL' }) CAMPAIGNS_URL!: string;
  @Matches(HTTP_URL, { message: 'SEGMENTS_URL must be an http(s) URL' }) SEGMENTS_URL!: string;
  @Matches(HTTP_URL, { message: 'WORKFLOWS_URL must be an http(s) URL' }) WORKFLOWS_URL!: string;
  @Matches(HTTP_URL, { message: 'DOMAINS_URL must be an http(s) URL' }) DOMAINS_URL!: string;
  @Matches(HTTP_URL, { message: 'ANALYTICS_URL must be an http(s) URL' }) ANALYTICS_URL!: string;
}

export const GATEWAY_SETTINGS = Symbol('GATEWAY_SETTINGS');

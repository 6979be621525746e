import { ServiceConfig, toInt } from '@herald/core';
import { Transform } from 'class-transformer';
import { IsInt, IsOptional, Matches, Min } from 'class-validator';

const HTTP_URL = /^https?:\/\/[^\s]+$/;

/** The segments service's settings, in both modes (README, "Configuration"). */
export class SegmentsSettings {
  /** How often the sweep re-evaluates dynamic segments whose filter depends on time (`within`, `olderThan`, windows); their stored members answer counts and pages while at most two intervals old. */
  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(100)
  SEGMENTS_SWEEP_INTERVAL_MS: number = 60_000;

  /** The contacts service (distributed mode): `createMissing` creates contacts there. Standalone calls itself. */
  @IsOptional()
  @Matches(HTTP_URL, { message: 'CONTACTS_URL must be an http(s) URL' })
  CONTACTS_URL?: string;
}

/** What the segments process needs in distributed mode, validated at boot. */
export class SegmentsServiceConfig extends ServiceConfig {
  @Matches(HTTP_URL, { message: 'CONTACTS_URL must be an http(s) URL' }) CONTACTS_URL!: string;
}

export const SEGMENTS_SETTINGS = Symbol('SEGMENTS_SETTINGS');

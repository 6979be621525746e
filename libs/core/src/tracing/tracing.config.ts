import { Transform } from 'class-transformer';
import { IsInt, IsNumber, IsOptional, IsString, Matches, Max, Min } from 'class-validator';
import { toFloat, toInt } from '../config-transforms.js';

const HTTP_URL = /^https?:\/\/[^\s]+$/;

/**
 * Traces (docs/operations.md "Traces", ADR 0019), loaded beside each process's own settings: the
 * standard OpenTelemetry variables Herald reads. Without an OTLP endpoint no tracer provider is
 * started and tracing costs a boolean test on the hot paths.
 */
export class TracingConfig {
  /** OTLP/HTTP base URL of a collector (`/v1/traces` is appended): setting it turns traces on. */
  @IsOptional()
  @Matches(HTTP_URL, { message: 'OTEL_EXPORTER_OTLP_ENDPOINT must be an http(s) URL' })
  OTEL_EXPORTER_OTLP_ENDPOINT?: string;

  /** The full traces URL of a collector, instead of the base URL above (also turns traces on). */
  @IsOptional()
  @Matches(HTTP_URL, { message: 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT must be an http(s) URL' })
  OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?: string;

  /** `service.name` of the spans (default: the Herald service, `herald` for a standalone process). */
  @IsOptional()
  @IsString()
  @Matches(/^\S+$/, { message: 'OTEL_SERVICE_NAME must not contain spaces' })
  OTEL_SERVICE_NAME?: string;

  /**
   * The share of new traces recorded (parent-based: a request that arrives with a sampled
   * `traceparent` is always recorded, one with an unsampled one never). 1 records every trace.
   */
  @IsOptional()
  @Transform(toFloat)
  @IsNumber({ allowNaN: false, allowInfinity: false }, { message: 'OTEL_TRACES_SAMPLER_ARG must be a number' })
  @Min(0)
  @Max(1)
  OTEL_TRACES_SAMPLER_ARG: number = 1;

  /** Longest a finished span waits before it is exported (spans go in batches of up to 512). */
  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(60_000)
  OTEL_BSP_SCHEDULE_DELAY: number = 5000;
}

import { toInt } from '@herald/core';
import { Transform } from 'class-transformer';
import { IsInt, IsOptional, Max, Min } from 'class-validator';

/** The Prometheus scrape port, the default of the OpenTelemetry Prometheus exporter. */
export const DEFAULT_METRICS_PORT = 9464;

/**
 * Where a process serves `GET /metrics` (every mode): a port of its own, never the public HTTP port,
 * so that an Ingress or load balancer in front of the gateway cannot expose it (docs/operations.md).
 */
export class MetricsSettings {
  /** Port of the Prometheus scrape endpoint, on `HOST`; 0: a free port chosen at start (logged). */
  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(0)
  @Max(65535)
  METRICS_PORT: number = DEFAULT_METRICS_PORT;
}

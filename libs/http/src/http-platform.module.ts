import { Module } from '@nestjs/common';
import { APP_FILTER, APP_PIPE } from '@nestjs/core';
import { ErrorEnvelopeFilter } from './errors/error-envelope.filter.js';
import { HealthController } from './health/health.controller.js';
import { createValidationPipe } from './validation/validation.pipe.js';

/**
 * Once per process: error envelope, validation and health endpoints (request context: `createHttpApp`;
 * `/metrics` is not on this port: `MetricsServer`, on METRICS_PORT).
 */
@Module({
  controllers: [HealthController],
  providers: [
    { provide: APP_FILTER, useClass: ErrorEnvelopeFilter },
    { provide: APP_PIPE, useFactory: createValidationPipe },
  ],
})
export class HttpPlatformModule {}

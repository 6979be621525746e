import { Module } from '@nestjs/common';
import { APP_FILTER, APP_PIPE } from '@nestjs/core';
import { ErrorEnvelopeFilter } from './errors/error-envelope.filter.js';
import { HealthController } from './health/health.controller.js';
import { MetricsController } from './metrics/metrics.controller.js';
import { createValidationPipe } from './validation/validation.pipe.js';

/** Once per process: error envelope, validation, health and metrics endpoints (request context: `createHttpApp`). */
@Module({
  controllers: [HealthController, MetricsController],
  providers: [
    { provide: APP_FILTER, useClass: ErrorEnvelopeFilter },
    { provide: APP_PIPE, useFactory: createValidationPipe },
  ],
})
export class HttpPlatformModule {}

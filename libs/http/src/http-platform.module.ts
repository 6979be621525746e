import { Module } from '@nestjs/common';
import { APP_FILTER, APP_INTERCEPTOR, APP_PIPE } from '@nestjs/core';
import { ErrorEnvelopeFilter } from './errors/error-envelope.filter.js';
import { HealthController } from './health/health.controller.js';
import { MetricsController } from './metrics/metrics.controller.js';
import { RequestContextInterceptor } from './request/request-context.interceptor.js';
import { createValidationPipe } from './validation/validation.pipe.js';

/** Once per process: error envelope, validation, request context, health and metrics endpoints. */
@Module({
  controllers: [HealthController, MetricsController],
  providers: [
    { provide: APP_FILTER, useClass: ErrorEnvelopeFilter },
    { provide: APP_PIPE, useFactory: createValidationPipe },
    { provide: APP_INTERCEPTOR, useClass: RequestContextInterceptor },
  ],
})
export class HttpPlatformModule {}

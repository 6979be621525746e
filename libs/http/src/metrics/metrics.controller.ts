import { Controller, Get, Header } from '@nestjs/common';
import { Public } from '../request/public.decorator.js';
import { metricsRegistry } from './metrics.js';

/** Prometheus scrape endpoint. */
@Public()
@Controller('metrics')
export class MetricsController {
  @Get()
  @Header('content-type', metricsRegistry.contentType)
  async scrape(): Promise<string> {
    return metricsRegistry.metrics();
  }
}

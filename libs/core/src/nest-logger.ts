import type { LoggerService } from '@nestjs/common';
import { createLogger } from './logger.js';

/** Nest's own log lines (bootstrap, errors) as structured JSON through the same logger. */
export class NestJsonLogger implements LoggerService {
  private readonly logger = createLogger('nest');

  log(message: unknown, context?: string): void {
    this.logger.info(String(message), context ? { context } : undefined);
  }
  error(message: unknown, stack?: string, context?: string): void {
    this.logger.error(String(message), { ...(context ? { context } : {}), ...(stack ? { stack } : {}) });
  }
  warn(message: unknown, context?: string): void {
    this.logger.warn(String(message), context ? { context } : undefined);
  }
  debug(message: unknown, context?: string): void {
    this.logger.debug(String(message), context ? { context } : undefined);
  }
  verbose(message: unknown, context?: string): void {
    this.logger.debug(String(message), context ? { context } : undefined);
  }
}

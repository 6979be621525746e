import { createLogger } from '@herald/core';
import type { Logger as TypeOrmLogger } from 'typeorm';

const log = createLogger('db');

/** The statement's first line, trimmed: enough to know which one failed, never its parameters (contact data, emails). */
const firstLine = (query: string): string => query.trim().split('\n', 1)[0]!.slice(0, 200);

/**
 * TypeORM's log lines through Herald's structured logger. A failed statement is logged at debug
 * level only, with its SQLSTATE and first line and without parameters: most failures are answered
 * by their caller (a unique violation becomes a 409, a guarded write's conflict is retried with
 * locks), and those that are not reach the HTTP error filter or the job runner, which log them
 * as errors with the request id. TypeORM's own logger printed every failure, parameters included,
 * as multi-line text.
 */
export class QueryLogger implements TypeOrmLogger {
  logQuery(): void {}

  logQueryError(error: string | Error, query: string): void {
    const code = typeof error === 'string' ? undefined : (error as { code?: string }).code;
    log.debug('statement failed', {
      code,
      error: typeof error === 'string' ? error : error.message,
      statement: firstLine(query),
    });
  }

  logQuerySlow(time: number, query: string): void {
    log.warn('slow statement', { ms: time, statement: firstLine(query) });
  }

  logSchemaBuild(message: string): void {
    log.debug(message);
  }

  logMigration(message: string): void {
    log.debug(message);
  }

  log(level: 'log' | 'info' | 'warn', message: unknown): void {
    if (level === 'warn') log.warn(String(message));
    else log.debug(String(message));
  }
}

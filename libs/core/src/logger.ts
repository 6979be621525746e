import { AsyncLocalStorage } from 'node:async_hooks';
import pino, { type Logger } from 'pino';

/** Facts that follow one request or event through the code: they are added to every log line. */
export interface LogContext {
  requestId?: string;
  correlationId?: string;
  projectId?: string;
}

export const logContext = new AsyncLocalStorage<LogContext>();

/** Adds facts learnt along the way (the project, once a credential names it) to the current context's later log lines. */
export function annotateLogContext(fields: LogContext): void {
  const store = logContext.getStore();
  if (store) Object.assign(store, fields);
}

const root: Logger = pino({
  level: process.env.LOG_LEVEL ?? 'info',
  base: { pid: process.pid },
  timestamp: pino.stdTimeFunctions.isoTime,
  formatters: { level: (label) => ({ level: label }) },
  mixin: () => ({ ...logContext.getStore() }),
});

/** Sets the level of every Herald logger (from the validated config at boot). */
export function configureLogging(level: string): void {
  root.level = level;
}

export type HeraldLogger = {
  info(msg: string, fields?: Record<string, unknown>): void;
  warn(msg: string, fields?: Record<string, unknown>): void;
  error(msg: string, fields?: Record<string, unknown>): void;
  debug(msg: string, fields?: Record<string, unknown>): void;
};

/** A structured JSON logger for one component; request ids are added from the async context. */
export function createLogger(component: string): HeraldLogger {
  const child = () => root.child({ component });
  let cached: Logger | undefined;
  const log = () => (cached && cached.level === root.level ? cached : (cached = child()));
  return {
    info: (msg, fields) => log().info(fields ?? {}, msg),
    warn: (msg, fields) => log().warn(fields ?? {}, msg),
    error: (msg, fields) => log().error(fields ?? {}, msg),
    debug: (msg, fields) => log().debug(fields ?? {}, msg),
  };
}

/** The underlying pino logger (for the HTTP access log). */
export function rootLogger(): Logger {
  return root;
}

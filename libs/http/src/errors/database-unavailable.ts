/**
 * Whether an error means the database cannot be reached right now, not that a statement is wrong:
 * PostgreSQL restarting or down (issue 44's "PostgreSQL restarted": a request then answers 503 with
 * Retry-After, never a 500 or a hang). Recognised by what node-postgres and the server report, also
 * when TypeORM wraps it (`driverError`) or another error carries it as its `cause`:
 * - SQLSTATE class 08 (connection exception), 57P01–57P03 (the server shutting down, crashed,
 *   starting up) and 53300 (too many connections);
 * - the socket's own errors (ECONNREFUSED, ECONNRESET, EPIPE, ETIMEDOUT, EHOSTUNREACH) and
 *   node-postgres's messages for a connection ended or a pool's connect timeout.
 */
export function isDatabaseUnavailable(e: unknown, depth = 0): boolean {
  if (!(e instanceof Error) || depth > 4) return false;
  const code = String((e as { code?: unknown }).code ?? '');
  if (/^08[0-9A-Z]{3}$/.test(code) || ['57P01', '57P02', '57P03', '53300'].includes(code)) return true;
  if (['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH'].includes(code)) return true;
  if (
    /^(Connection terminated( unexpectedly| due to connection timeout)?|timeout exceeded when trying to connect|Client has encountered a connection error and is not queryable)$/.test(
      e.message,
    )
  )
    return true;
  const wrapped = (e as { driverError?: unknown }).driverError ?? (e as { cause?: unknown }).cause;
  return wrapped !== e && isDatabaseUnavailable(wrapped, depth + 1);
}

/** Seconds a client is told to wait (`Retry-After`) while the database is away: a restart's usual length. */
export const DATABASE_RETRY_AFTER_SECONDS = 5;

import { QueryFailedError } from 'typeorm';
import { isDatabaseUnavailable } from './database-unavailable.js';
import { toErrorBody } from './error-envelope.filter.js';

const REQUEST_ID = '0b7c3c52-8a55-4b0a-9d8e-2f1e9a6c1d11';

/** An error as node-postgres reports a server's answer or a socket's failure. */
const pgError = (message: string, code?: string): Error => Object.assign(new Error(message), code ? { code } : {});

describe('a database out of reach answers 503 with Retry-After, never a 500 (issue 44)', () => {
  it.each([
    ['the server shutting down (a restart)', pgError('terminating connection due to administrator command', '57P01')],
    ['the server starting up', pgError('the database system is starting up', '57P03')],
    ['a connection exception (class 08)', pgError('connection failure', '08006')],
    ['too many connections', pgError('sorry, too many clients already', '53300')],
    ['the port refusing', pgError('connect ECONNREFUSED 127.0.0.1:5432', 'ECONNREFUSED')],
    ['a connection ended under a query', pgError('Connection terminated unexpectedly')],
    ['the pool timing out on a connect', pgError('timeout exceeded when trying to connect')],
  ])('%s', (_, error) => {
    const { status, body, headers } = toErrorBody(error, REQUEST_ID, '/v1/send');
    expect(status).toBe(503);
    expect(headers['retry-after']).toMatch(/^\d+$/);
    expect(body.error).toMatchObject({ code: 'SERVICE_UNAVAILABLE', message: 'The database is unavailable' });
  });

  it('is recognised inside TypeORM’s QueryFailedError and as another error’s cause', () => {
    const wrapped = new QueryFailedError('SELECT 1', [], pgError('terminating connection', '57P01'));
    expect(isDatabaseUnavailable(wrapped)).toBe(true);
    expect(isDatabaseUnavailable(new Error('the round failed', { cause: pgError('x', 'ECONNRESET') }))).toBe(true);
  });

  it('a statement’s own error stays an unexpected failure: 500 without internals', () => {
    for (const error of [
      pgError('duplicate key value violates unique constraint', '23505'),
      pgError('syntax error at or near "SELEC"', '42601'),
      new Error('Connection terminated by the test'), // a message merely alike
    ]) {
      expect(isDatabaseUnavailable(error)).toBe(false);
      const { status, body, headers } = toErrorBody(error, REQUEST_ID, '/v1/send');
      expect(status).toBe(500);
      expect(headers['retry-after']).toBeUndefined();
      expect(body.error.code).toBe('INTERNAL_SERVER_ERROR');
    }
  });
});

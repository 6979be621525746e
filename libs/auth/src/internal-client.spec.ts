import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DomainError } from '@herald/core';
import { InternalClient } from './internal-client.js';

/** A server answering every request with `status` and `body`. */
async function answering(status: number, body: unknown): Promise<{ server: Server; url: string }> {
  const server = createServer((_req, res) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

const secret = 'internal-client-spec-secret-0123456789abcdef';

describe('InternalClient', () => {
  it('re-throws a 4xx of the owner as the same domain error (kind, code, message)', async () => {
    const { server, url } = await answering(404, {
      error: { code: 'CONTACT_NOT_FOUND', message: 'Contact x was not found' },
    });
    try {
      const err = await new InternalClient('sending', 'contacts', () => url, secret)
        .post('prj_1', '/internal/x', {})
        .catch((e: unknown) => e);
      expect(err).toBeInstanceOf(DomainError);
      expect(err).toMatchObject({ kind: 'not_found', code: 'CONTACT_NOT_FOUND', message: 'Contact x was not found' });
    } finally {
      server.close();
    }
  });

  it('answers a failed owner with a 503 that names the service and carries none of its error text', async () => {
    const { server, url } = await answering(500, { error: { message: 'Maximum call stack size exceeded' } });
    try {
      const err = await new InternalClient('sending', 'contacts', () => url, secret)
        .post('prj_1', '/internal/x', {})
        .catch((e: unknown) => e);
      expect(err).toMatchObject({
        kind: 'unavailable',
        code: 'SERVICE_UNAVAILABLE',
        message: 'The contacts service is unavailable',
      });
    } finally {
      server.close();
    }
  });

  it('answers an unreachable owner the same way, without the socket error', async () => {
    const err = await new InternalClient('sending', 'contacts', () => 'http://127.0.0.1:9', secret)
      .post('prj_1', '/internal/x', {})
      .catch((e: unknown) => e);
    expect(err).toMatchObject({ kind: 'unavailable', message: 'The contacts service is unavailable' });
  });
});

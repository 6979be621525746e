import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { NodeHttpsClient } from './sns-https-client.js';
import { generateKeyPair, type TestKeyPair } from './sns.spec-support.js';

describe('SNS HTTPS client (loopback TLS server with a self-signed certificate)', () => {
  let pair: TestKeyPair;
  let server: Server;
  let base: string;

  beforeAll(async () => {
    pair = generateKeyPair();
    server = createServer({ key: pair.keyPem, cert: pair.certPem }, (req, res) => {
      if (req.url === '/cert.pem') return res.writeHead(200).end(pair.certPem);
      if (req.url === '/moved') return res.writeHead(302, { location: '/cert.pem' }).end();
      if (req.url === '/huge') return res.writeHead(200).end('x'.repeat(300 * 1024));
      if (req.url === '/slow') return setTimeout(() => res.writeHead(200).end('late'), 1500);
      res.writeHead(404).end();
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    base = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  });

  it('fetches over TLS from a server it trusts', async () => {
    expect(await new NodeHttpsClient({ ca: pair.certPem }).get(`${base}/cert.pem`)).toEqual({
      status: 200,
      body: pair.certPem,
    });
  });

  it('refuses a server whose certificate it does not trust', async () => {
    await expect(new NodeHttpsClient().get(`${base}/cert.pem`)).rejects.toThrow(/self-signed|certificate/i);
  });

  it('does not follow redirects', async () => {
    expect((await new NodeHttpsClient({ ca: pair.certPem }).get(`${base}/moved`)).status).toBe(302);
  });

  it('refuses plain http URLs without connecting', async () => {
    await expect(new NodeHttpsClient().get('http://127.0.0.1:1/cert.pem')).rejects.toThrow(/non-https/);
  });

  it('gives up on an oversized response', async () => {
    await expect(new NodeHttpsClient({ ca: pair.certPem }).get(`${base}/huge`)).rejects.toThrow(/exceeds/);
  });

  it('gives up after its deadline', async () => {
    await expect(new NodeHttpsClient({ ca: pair.certPem, timeoutMs: 200 }).get(`${base}/slow`)).rejects.toThrow(
      /timed out/,
    );
  });
});

import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { S3UploadStorage } from './s3-upload-storage.js';
import { IMAGES } from '@herald/testing';
import { UploadImageUseCase } from './upload-image.use-case.js';

interface Received {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: Buffer;
}

/**
 * A loopback stand-in for an S3-compatible endpoint (path-style PUT Object): it records what the
 * real AWS SDK sends. It does not check SigV4 signatures — that is the real store's business.
 */
describe('S3 upload storage against a loopback S3-compatible endpoint (the real AWS SDK on the wire)', () => {
  let server: Server;
  let endpoint: string;
  const received: Received[] = [];
  let storage: S3UploadStorage;

  beforeAll(async () => {
    server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        received.push({ method: req.method!, url: req.url!, headers: req.headers, body: Buffer.concat(chunks) });
        res.writeHead(200, { etag: '"d41d8cd98f00b204e9800998ecf8427e"' }).end();
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    storage = new S3UploadStorage({
      S3_BUCKET: 'herald-media',
      S3_ENDPOINT: endpoint,
      S3_REGION: 'us-east-1',
      S3_FORCE_PATH_STYLE: true,
      S3_ACCESS_KEY_ID: 'test-access-key',
      S3_SECRET_ACCESS_KEY: 'test-secret-key',
      S3_PUBLIC_URL: 'https://cdn.example.test/media',
    });
  });

  afterAll(async () => {
    await storage.destroy();
    await new Promise((r) => server.close(r));
  });

  it('PUTs the image under <bucket>/<projectId>/<name> with its type and immutable caching, and answers S3_PUBLIC_URL + key', async () => {
    const { url } = await new UploadImageUseCase(storage).execute('prj_s3', IMAGES.jpg, 'me.jpg');
    expect(url).toMatch(/^https:\/\/cdn\.example\.test\/media\/prj_s3\/[A-Za-z0-9_-]{22}\.jpg$/);
    const key = url.replace('https://cdn.example.test/media/', '');

    expect(received).toHaveLength(1);
    const put = received[0]!;
    expect(put.method).toBe('PUT');
    expect(put.url.split('?')[0]).toBe(`/herald-media/${key}`);
    expect(put.headers['content-type']).toBe('image/jpeg');
    expect(put.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(put.headers.authorization).toMatch(/^AWS4-HMAC-SHA256 Credential=test-access-key\//);
    expect(put.body).toEqual(IMAGES.jpg);
  });

  it('stores nothing for a refused file', async () => {
    const before = received.length;
    await expect(new UploadImageUseCase(storage).execute('prj_s3', Buffer.from('<svg/>'))).rejects.toThrow(
      /not a PNG, JPEG, GIF or WebP/,
    );
    expect(received.length).toBe(before);
  });

  it('does not serve files through Herald (the bucket does)', async () => {
    expect(await storage.open()).toBeNull();
  });
});

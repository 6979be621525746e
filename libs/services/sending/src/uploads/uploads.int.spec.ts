import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { verifyPrincipal } from '@herald/auth';
import { PRINCIPAL_HEADER } from '@herald/contracts';
import { CoreModule } from '@herald/core';
import { createHttpApp, HttpPlatformModule, IS_PUBLIC, unauthorized } from '@herald/http';
import { principalHeaders, TEST_INTERNAL_SECRET, IMAGES, NOT_IMAGES } from '@herald/testing';
import { Injectable, Module, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { APP_GUARD, Reflector } from '@nestjs/core';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { UploadsModule } from './uploads.module.js';

const PUBLIC_BASE = 'https://herald.example.test';
const PROJECT = 'prj_uploads1';

/** A service process's deny-by-default guard, reduced to what these routes need: `@Public()` or a signed principal. */
@Injectable()
class TestPrincipalGuard implements CanActivate {
  constructor(private readonly reflector: Reflector) {}
  canActivate(context: ExecutionContext): boolean {
    if (this.reflector.getAllAndOverride<boolean>(IS_PUBLIC, [context.getHandler(), context.getClass()])) return true;
    const req = context.switchToHttp().getRequest<{ headers: Record<string, string>; principal?: unknown }>();
    const principal = verifyPrincipal(req.headers[PRINCIPAL_HEADER] ?? '', TEST_INTERNAL_SECRET);
    if (!principal) throw unauthorized();
    req.principal = principal;
    return true;
  }
}

/** The answer of POST /uploads/image: {url}, or the standard error body. */
type Answer = {
  url: string;
  error: { code: string; message: string; errors: { field: string; message: string; code: string }[] };
};

/** Every file below `dir`, relative paths. */
async function storedFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true }).catch(() => []);
  return entries.filter((e) => e.isFile()).map((e) => path.relative(dir, path.join(e.parentPath, e.name)));
}

describe('POST /uploads/image and GET /uploads/files (local disk storage)', () => {
  let app: NestFastifyApplication;
  let baseUrl: string;
  let dir: string;
  const saved = { ...process.env };

  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'herald-uploads-'));
    Object.assign(process.env, { UPLOADS_DIR: dir, APP_URL: `${PUBLIC_BASE}/`, UPLOAD_MAX_BYTES: String(64 * 1024) });
    delete process.env.S3_BUCKET;
    @Module({
      imports: [
        CoreModule.forRoot({
          mode: 'standalone',
          databaseUrl: 'postgres://unused',
          databasePoolSize: 1,
          internalJwtSecret: TEST_INTERNAL_SECRET,
          jobLeaseMs: 30_000,
        }),
        HttpPlatformModule,
        UploadsModule,
      ],
      providers: [{ provide: APP_GUARD, useClass: TestPrincipalGuard }],
    })
    class TestRoot {}
    app = await createHttpApp(TestRoot);
    await app.listen({ port: 0, host: '127.0.0.1' });
    baseUrl = await app.getUrl();
  });

  afterAll(async () => {
    await app.close();
    process.env = saved;
    await rm(dir, { recursive: true, force: true });
  });

  const auth = (projectId = PROJECT) => ({ [PRINCIPAL_HEADER]: principalHeaders(projectId)[PRINCIPAL_HEADER]! });

  const upload = async (
    data: Buffer | null,
    opts: { filename?: string; type?: string; headers?: Record<string, string> } = {},
  ) => {
    const form = new FormData();
    form.append('purpose', 'template');
    if (data)
      form.append(
        'file',
        new Blob([data], { type: opts.type ?? 'application/octet-stream' }),
        opts.filename ?? 'image.bin',
      );
    const res = await fetch(`${baseUrl}/uploads/image`, {
      method: 'POST',
      body: form,
      headers: opts.headers ?? auth(),
    });
    return { status: res.status, body: (await res.json()) as Answer };
  };

  /** The URL Herald answered, fetched from the test server instead of the public host. */
  const local = (url: string) => url.replace(PUBLIC_BASE, baseUrl);

  it.each(['png', 'jpg', 'gif', 'webp'] as const)(
    'stores a %s image and serves the same bytes at the URL it answers',
    async (kind) => {
      const res = await upload(IMAGES[kind], { filename: `logo.${kind}` });
      expect(res.status).toBe(201);
      expect(Object.keys(res.body)).toEqual(['url']);
      expect(res.body.url).toMatch(new RegExp(`^${PUBLIC_BASE}/uploads/files/${PROJECT}/[A-Za-z0-9_-]{22}\\.${kind}$`));

      const served = await fetch(local(res.body.url));
      expect(served.status).toBe(200);
      expect(Buffer.from(await served.arrayBuffer())).toEqual(IMAGES[kind]);
      expect(served.headers.get('content-type')).toBe(
        { png: 'image/png', jpg: 'image/jpeg', gif: 'image/gif', webp: 'image/webp' }[kind],
      );
      expect(served.headers.get('x-content-type-options')).toBe('nosniff');
      expect(served.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
      expect(served.headers.get('content-length')).toBe(String(IMAGES[kind].length));

      const onDisk = new URL(res.body.url).pathname.replace('/uploads/files/', '');
      expect(await readFile(path.join(dir, onDisk))).toEqual(IMAGES[kind]);
    },
  );

  it('names the file by its content, not by the name or type the client declared', async () => {
    const res = await upload(IMAGES.gif, { filename: 'photo.png', type: 'image/png' });
    expect(res.status).toBe(201);
    expect(res.body.url).toMatch(/\.gif$/);
  });

  it.each(Object.keys(NOT_IMAGES) as (keyof typeof NOT_IMAGES)[])(
    'refuses %s content with 422 and stores nothing',
    async (kind) => {
      const before = await storedFiles(dir);
      const res = await upload(NOT_IMAGES[kind], { filename: 'innocent.png', type: 'image/png' });
      expect(res.status).toBe(422);
      expect(res.body.error.code).toBe('UNSUPPORTED_MEDIA_TYPE');
      expect(res.body.error.message).toMatch(/PNG, JPEG, GIF or WebP/);
      expect(res.body.error.errors).toEqual([expect.objectContaining({ field: 'file', code: 'invalid' })]);
      expect(await storedFiles(dir)).toEqual(before);
    },
  );

  it('refuses an image larger than UPLOAD_MAX_BYTES with 413 and stores nothing', async () => {
    const before = await storedFiles(dir);
    const big = Buffer.concat([IMAGES.png, Buffer.alloc(64 * 1024)]);
    const res = await upload(big, { filename: 'big.png' });
    expect(res.status).toBe(413);
    expect(res.body.error.code).toBe('PAYLOAD_TOO_LARGE');
    expect(res.body.error.message).toMatch(/larger than 0\.06 MiB; nothing was stored/);
    expect(await storedFiles(dir)).toEqual(before);
  });

  it('accepts an image of exactly UPLOAD_MAX_BYTES', async () => {
    const exact = Buffer.concat([IMAGES.png, Buffer.alloc(64 * 1024 - IMAGES.png.length)]);
    expect((await upload(exact)).status).toBe(201);
  });

  it('ignores text fields before and after the file part', async () => {
    const form = new FormData();
    form.append('before', 'x');
    form.append('file', new Blob([IMAGES.webp]), 'a.webp');
    form.append('after', 'y'.repeat(10_000));
    const res = await fetch(`${baseUrl}/uploads/image`, { method: 'POST', body: form, headers: auth() });
    expect(res.status).toBe(201);
    expect(((await res.json()) as Answer).url).toMatch(/\.webp$/);
  });

  it('answers 422 when the multipart body has no file part', async () => {
    const res = await upload(null);
    expect(res.status).toBe(422);
    expect(res.body.error.errors).toEqual([{ field: 'file', message: 'a file part is required', code: 'required' }]);
  });

  it('answers 422 for an empty file part', async () => {
    const res = await upload(Buffer.alloc(0));
    expect(res.status).toBe(422);
    expect(res.body.error.errors[0]).toMatchObject({ field: 'file' });
  });

  it('answers 415 when the body is not multipart', async () => {
    const res = await fetch(`${baseUrl}/uploads/image`, {
      method: 'POST',
      body: IMAGES.png,
      headers: { ...auth(), 'content-type': 'image/png' },
    });
    expect(res.status).toBe(415);
  });

  it('needs a principal to upload (401 without one)', async () => {
    const res = await upload(IMAGES.png, { headers: {} });
    expect(res.status).toBe(401);
  });

  it('keeps each project under its own prefix', async () => {
    const res = await upload(IMAGES.png, { headers: auth('prj_other') });
    expect(res.body.url).toContain('/uploads/files/prj_other/');
  });

  it.each([
    '/uploads/files/..%2F..%2F..%2Fetc/passwd',
    '/uploads/files/prj_uploads1/..%2F..%2F..%2F..%2Fetc%2Fpasswd',
    '/uploads/files/%2e%2e/%2e%2e',
    '/uploads/files/prj_uploads1/AAAAAAAAAAAAAAAAAAAAAA.png',
    '/uploads/files/prj_uploads1/AAAAAAAAAAAAAAAAAAAAAA.svg',
  ])('answers 404 to %s (traversal, unknown or foreign names)', async (url) => {
    const res = await fetch(`${baseUrl}${url}`);
    expect(res.status).toBe(404);
    expect(await res.text()).not.toMatch(/root:/);
  });
});

import path from 'node:path';
import { safeUploadPath } from './local-upload-storage.js';
import { s3ClientConfig, s3PublicUrl } from './s3-upload-storage.js';
import { FILE_NAME, newUploadKey, parseUploadKey } from './upload-storage.js';

const ROOT = path.resolve('/srv/herald/uploads');
const NAME = 'AbCdEfGhIjKlMnOpQrStUv.png';

describe('upload keys: <projectId>/<random>.<ext>', () => {
  it('makes unguessable keys under the project id with the detected extension', () => {
    const keys = new Set(Array.from({ length: 200 }, () => newUploadKey('prj_01abc', 'webp')));
    expect(keys.size).toBe(200);
    for (const key of keys) {
      const [project, name] = key.split('/');
      expect(project).toBe('prj_01abc');
      expect(name).toMatch(FILE_NAME);
      expect(name).toMatch(/^[A-Za-z0-9_-]{22}\.webp$/);
    }
  });

  it('refuses to build a key from a project id with path characters', () => {
    expect(() => newUploadKey('../etc', 'png')).toThrow();
    expect(() => newUploadKey('a/b', 'png')).toThrow();
  });

  it('refuses an extension outside the served formats', () => {
    expect(() => newUploadKey('prj_1', 'svg')).toThrow();
  });

  it('parses only names Herald writes', () => {
    expect(parseUploadKey('prj_1', NAME)).toEqual({ projectId: 'prj_1', name: NAME, ext: 'png' });
    expect(parseUploadKey('prj_1', 'AbCdEfGhIjKlMnOpQrStUv.svg')).toBeUndefined();
    expect(parseUploadKey('prj_1', 'AbCdEfGhIjKlMnOpQrStUv.png.html')).toBeUndefined();
  });
});

describe('local upload path safety: nothing outside UPLOADS_DIR is ever addressed', () => {
  it('resolves a well-formed key below the root', () => {
    expect(safeUploadPath(ROOT, 'prj_1', NAME)).toBe(path.join(ROOT, 'prj_1', NAME));
  });

  it.each([
    ['..', NAME],
    ['.', NAME],
    ['prj_1', '..'],
    ['prj_1', '../../etc/passwd'],
    ['..%2F..', NAME],
    ['prj_1', '..%2F..%2Fetc%2Fpasswd.png'],
    ['prj_1/../..', NAME],
    ['/etc', NAME],
    ['prj_1', `/etc/${NAME}`],
    ['prj_1', `${NAME}\u0000.txt`],
    ['prj_1', `..\\..\\${NAME}`],
    ['', NAME],
    ['prj_1', ''],
    ['prj_1', '.htaccess'],
  ])('refuses project %j, name %j', (projectId, name) => {
    expect(safeUploadPath(ROOT, projectId, name)).toBeUndefined();
  });
});

describe('S3 upload URLs (no server needed: URL and client configuration only)', () => {
  const base = { S3_BUCKET: 'herald-media', S3_REGION: 'eu-west-1', S3_FORCE_PATH_STYLE: false } as const;
  const key = `prj_1/${NAME}`;

  it('is S3_PUBLIC_URL + key when set, whatever its trailing slash', () => {
    expect(s3PublicUrl({ ...base, S3_PUBLIC_URL: 'https://cdn.example.com/media/' }, key)).toBe(
      `https://cdn.example.com/media/${key}`,
    );
    expect(s3PublicUrl({ ...base, S3_PUBLIC_URL: 'https://cdn.example.com' }, key)).toBe(
      `https://cdn.example.com/${key}`,
    );
  });

  it('is the virtual-hosted AWS address without an endpoint', () => {
    expect(s3PublicUrl(base, key)).toBe(`https://herald-media.s3.eu-west-1.amazonaws.com/${key}`);
  });

  it('is endpoint/bucket/key with path-style addressing (MinIO)', () => {
    expect(s3PublicUrl({ ...base, S3_ENDPOINT: 'http://127.0.0.1:9000', S3_FORCE_PATH_STYLE: true }, key)).toBe(
      `http://127.0.0.1:9000/herald-media/${key}`,
    );
  });

  it('puts the bucket in the host on a custom endpoint without path style', () => {
    expect(s3PublicUrl({ ...base, S3_ENDPOINT: 'https://storage.example.net' }, key)).toBe(
      `https://herald-media.storage.example.net/${key}`,
    );
  });

  it('passes static credentials only when both parts are set', () => {
    expect(s3ClientConfig({ ...base, S3_ACCESS_KEY_ID: 'AKIA', S3_SECRET_ACCESS_KEY: 'secret' })).toMatchObject({
      region: 'eu-west-1',
      forcePathStyle: false,
      credentials: { accessKeyId: 'AKIA', secretAccessKey: 'secret' },
    });
    expect(s3ClientConfig(base)).not.toHaveProperty('credentials');
    expect(s3ClientConfig({ ...base, S3_ENDPOINT: 'http://127.0.0.1:9000', S3_FORCE_PATH_STYLE: true })).toMatchObject({
      endpoint: 'http://127.0.0.1:9000',
      forcePathStyle: true,
    });
  });
});

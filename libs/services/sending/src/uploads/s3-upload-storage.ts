import type { S3Client, S3ClientConfig } from '@aws-sdk/client-s3';
import { IMMUTABLE_CACHE_CONTROL, UploadStorage, type StoredFile } from './upload-storage.js';
import type { UploadsSettings } from './uploads.settings.js';

type S3Settings = Pick<
  UploadsSettings,
  | 'S3_BUCKET'
  | 'S3_ENDPOINT'
  | 'S3_REGION'
  | 'S3_FORCE_PATH_STYLE'
  | 'S3_PUBLIC_URL'
  | 'S3_ACCESS_KEY_ID'
  | 'S3_SECRET_ACCESS_KEY'
>;

const encodeKey = (key: string): string => key.split('/').map(encodeURIComponent).join('/');

/**
 * The public URL of an object: S3_PUBLIC_URL + key when set (CDN, website endpoint, R2 public
 * bucket); otherwise the bucket's own address — path style on a custom endpoint
 * (`<endpoint>/<bucket>/<key>`), virtual-hosted otherwise (`https://<bucket>.s3.<region>.amazonaws.com/<key>`).
 */
export function s3PublicUrl(s: S3Settings, key: string): string {
  if (s.S3_PUBLIC_URL) return `${s.S3_PUBLIC_URL.replace(/\/+$/, '')}/${encodeKey(key)}`;
  const bucket = s.S3_BUCKET!;
  if (s.S3_ENDPOINT) {
    const endpoint = new URL(s.S3_ENDPOINT);
    const base = endpoint.pathname.replace(/\/+$/, '');
    if (s.S3_FORCE_PATH_STYLE) return `${endpoint.origin}${base}/${bucket}/${encodeKey(key)}`;
    return `${endpoint.protocol}//${bucket}.${endpoint.host}${base}/${encodeKey(key)}`;
  }
  if (s.S3_FORCE_PATH_STYLE) return `https://s3.${s.S3_REGION}.amazonaws.com/${bucket}/${encodeKey(key)}`;
  return `https://${bucket}.s3.${s.S3_REGION}.amazonaws.com/${encodeKey(key)}`;
}

/** The S3 client options the settings describe (static credentials only when both parts are set). */
export function s3ClientConfig(s: S3Settings): S3ClientConfig {
  return {
    region: s.S3_REGION,
    ...(s.S3_ENDPOINT ? { endpoint: s.S3_ENDPOINT } : {}),
    forcePathStyle: s.S3_FORCE_PATH_STYLE,
    ...(s.S3_ACCESS_KEY_ID && s.S3_SECRET_ACCESS_KEY
      ? { credentials: { accessKeyId: s.S3_ACCESS_KEY_ID, secretAccessKey: s.S3_SECRET_ACCESS_KEY } }
      : {}),
  };
}

/** Uploads in an S3-compatible bucket; the bucket (or the CDN before it) serves them. The SDK is loaded on first use. */
export class S3UploadStorage extends UploadStorage {
  private client?: Promise<{
    client: S3Client;
    PutObjectCommand: typeof import('@aws-sdk/client-s3').PutObjectCommand;
  }>;

  constructor(
    private readonly settings: S3Settings,
    client?: S3Client,
  ) {
    super();
    if (client)
      this.client = import('@aws-sdk/client-s3').then(({ PutObjectCommand }) => ({ client, PutObjectCommand }));
  }

  private sdk() {
    this.client ??= import('@aws-sdk/client-s3').then(({ S3Client, PutObjectCommand }) => ({
      client: new S3Client(s3ClientConfig(this.settings)),
      PutObjectCommand,
    }));
    return this.client;
  }

  async put(key: string, data: Buffer, contentType: string): Promise<void> {
    const { client, PutObjectCommand } = await this.sdk();
    await client.send(
      new PutObjectCommand({
        Bucket: this.settings.S3_BUCKET,
        Key: key,
        Body: data,
        ContentType: contentType,
        ContentLength: data.length,
        CacheControl: IMMUTABLE_CACHE_CONTROL,
      }),
    );
  }

  publicUrl(key: string): string {
    return s3PublicUrl(this.settings, key);
  }

  /** Objects are served by the bucket, not through Herald. */
  async open(): Promise<StoredFile | null> {
    return null;
  }

  async destroy(): Promise<void> {
    if (this.client) (await this.client).client.destroy();
  }
}

import { toInt, toBool } from '@herald/core';
import path from 'node:path';
import { Transform } from 'class-transformer';
import { IsBoolean, IsInt, IsOptional, IsString, Matches, Max, Min, ValidateIf } from 'class-validator';

const HTTP_URL = /^https?:\/\/[^\s]+$/;

/** Image uploads for template bodies (POST /uploads/image): where they are kept and how they are reached. */
export class UploadsSettings {
  /** Public base URL of Herald: local-disk uploads are served at APP_URL/uploads/files/<projectId>/<name>. */
  @IsOptional()
  @Matches(HTTP_URL, { message: 'APP_URL must be an http(s) URL' })
  APP_URL: string = 'http://localhost:3000';

  /** Largest accepted image, in bytes (default 5 MiB; at most 50 MiB). */
  @IsOptional()
  @Transform(toInt)
  @IsInt()
  @Min(1)
  @Max(50 * 1024 * 1024)
  UPLOAD_MAX_BYTES: number = 5 * 1024 * 1024;

  /** Local-disk storage directory (used when S3_BUCKET is unset); default <HERALD_DATA_DIR>/uploads. */
  @IsOptional()
  @IsString()
  UPLOADS_DIR?: string;

  @IsOptional()
  @IsString()
  HERALD_DATA_DIR: string = '.herald';

  /** Store uploads in this S3-compatible bucket instead of on local disk. */
  @IsOptional()
  @IsString()
  @Matches(/^[a-zA-Z0-9.\-_]{3,255}$/, { message: 'S3_BUCKET must be a bucket name' })
  S3_BUCKET?: string;

  /** S3-compatible endpoint (MinIO, R2, …); unset: AWS S3 in S3_REGION. */
  @IsOptional()
  @Matches(HTTP_URL, { message: 'S3_ENDPOINT must be an http(s) URL' })
  S3_ENDPOINT?: string;

  @IsOptional()
  @IsString()
  S3_REGION: string = 'us-east-1';

  /** Static credentials (both or neither); unset: the AWS SDK's default chain (environment, instance role, …). */
  @ValidateIf((s: UploadsSettings) => s.S3_ACCESS_KEY_ID !== undefined || s.S3_SECRET_ACCESS_KEY !== undefined)
  @IsString({ message: 'S3_ACCESS_KEY_ID must be set together with S3_SECRET_ACCESS_KEY' })
  S3_ACCESS_KEY_ID?: string;

  @ValidateIf((s: UploadsSettings) => s.S3_ACCESS_KEY_ID !== undefined || s.S3_SECRET_ACCESS_KEY !== undefined)
  @IsString({ message: 'S3_SECRET_ACCESS_KEY must be set together with S3_ACCESS_KEY_ID' })
  S3_SECRET_ACCESS_KEY?: string;

  /** Path-style addressing (endpoint/bucket/key), needed by MinIO and most self-hosted stores. */
  @IsOptional()
  @Transform(toBool)
  @IsBoolean()
  S3_FORCE_PATH_STYLE: boolean = false;

  /** Public base URL of the bucket (CDN or website endpoint); the object key is appended. Derived from the endpoint when unset. */
  @IsOptional()
  @Matches(HTTP_URL, { message: 'S3_PUBLIC_URL must be an http(s) URL' })
  S3_PUBLIC_URL?: string;
}

/** Where local-disk uploads live. */
export const uploadsDir = (s: UploadsSettings): string =>
  path.resolve(s.UPLOADS_DIR ?? path.join(s.HERALD_DATA_DIR, 'uploads'));

export const UPLOADS_SETTINGS = Symbol('UPLOADS_SETTINGS');

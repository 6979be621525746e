import { randomBytes } from 'node:crypto';
import type { Readable } from 'node:stream';

/** A stored upload opened for serving. */
export interface StoredFile {
  stream: Readable;
  size: number;
  contentType: string;
}

/** A stored object's key: `<projectId>/<name>`, both parts from {@link PROJECT_SEGMENT} and {@link FILE_NAME}. */
export const PROJECT_SEGMENT = /^[A-Za-z0-9_-]{1,64}$/;
export const FILE_NAME = /^[A-Za-z0-9_-]{16,64}\.(png|jpg|gif|webp)$/;

/** A fresh, unguessable key for a project's upload: `<projectId>/<22 random base64url chars>.<ext>`. */
export function newUploadKey(projectId: string, ext: string): string {
  if (!PROJECT_SEGMENT.test(projectId))
    throw new Error(`Refusing an upload key for project id ${JSON.stringify(projectId)}`);
  const name = `${randomBytes(16).toString('base64url')}.${ext}`;
  if (!FILE_NAME.test(name)) throw new Error(`Refusing upload extension ${JSON.stringify(ext)}`);
  return `${projectId}/${name}`;
}

/** Splits a key into its two checked parts, or undefined when it is not a key Herald could have made. */
export function parseUploadKey(
  projectId: string,
  name: string,
): { projectId: string; name: string; ext: string } | undefined {
  if (!PROJECT_SEGMENT.test(projectId) || !FILE_NAME.test(name)) return undefined;
  return { projectId, name, ext: name.slice(name.lastIndexOf('.') + 1) };
}

/** Where uploaded images are kept: local disk (standalone) or an S3-compatible bucket. */
export abstract class UploadStorage {
  /** Stores `data` under `key` (never overwriting a reader's view of a half-written file). */
  abstract put(key: string, data: Buffer, contentType: string): Promise<void>;
  /** The public URL that serves `key`. */
  abstract publicUrl(key: string): string;
  /** Opens `projectId/name` for serving through Herald, or null (not found, or the storage serves its own files). */
  abstract open(projectId: string, name: string): Promise<StoredFile | null>;
}

/** Far-future caching: a key is never reused for different content. */
export const IMMUTABLE_CACHE_CONTROL = 'public, max-age=31536000, immutable';

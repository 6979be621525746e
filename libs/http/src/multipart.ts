import multipart, { type MultipartFile } from '@fastify/multipart';
import type { HttpAdapterHost } from '@nestjs/core';
import type { FastifyInstance } from 'fastify';

const enabled = new WeakSet<object>();

/**
 * Registers @fastify/multipart once per HTTP server (several services may need it in one
 * standalone process). Limits are applied per request by the route (`req.file({ limits })`).
 */
export function enableMultipart(host: HttpAdapterHost): void {
  const fastify = host.httpAdapter.getInstance<FastifyInstance>();
  if (enabled.has(fastify)) return;
  enabled.add(fastify);
  void fastify.register(multipart, { limits: { files: 1, fields: 20, fileSize: 50 * 1024 * 1024 } });
}

/** A file part larger than the route's `fileSize` limit. */
export class FilePartTooLargeError extends Error {
  constructor() {
    super('the file part is larger than the limit');
    this.name = 'FilePartTooLargeError';
  }
}

/**
 * The bytes of a file part read under its `fileSize` limit; throws FilePartTooLargeError past it.
 * `part.toBuffer()` alone misses the limit when busboy truncates the stream after the last chunk
 * the loop consumed (it checks `truncated` per chunk only; seen under load: a 5 MB + 2 KB CSV
 * accepted), so the flag is checked again once the stream has ended.
 */
export async function readFilePart(part: MultipartFile): Promise<Buffer> {
  let data: Buffer;
  try {
    data = await part.toBuffer();
  } catch (err) {
    if ((err as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') throw new FilePartTooLargeError();
    throw err;
  }
  if (part.file.truncated) throw new FilePartTooLargeError();
  return data;
}

import type { MultipartFile } from '@fastify/multipart';
import { FilePartTooLargeError, readFilePart } from './multipart.js';

/** A file part as @fastify/multipart hands it over: `toBuffer()` and the busboy stream's `truncated` flag. */
const part = (toBuffer: () => Promise<Buffer>, truncated: boolean) =>
  ({ toBuffer, file: { truncated } }) as unknown as MultipartFile;

describe('readFilePart', () => {
  it('returns the bytes of a part within its limit', async () => {
    await expect(readFilePart(part(async () => Buffer.from('a,b\n'), false))).resolves.toEqual(Buffer.from('a,b\n'));
  });

  it('refuses a part busboy truncated after the last chunk toBuffer read (toBuffer itself resolved)', async () => {
    await expect(readFilePart(part(async () => Buffer.alloc(10), true))).rejects.toBeInstanceOf(FilePartTooLargeError);
  });

  it('refuses a part whose toBuffer saw the limit (FST_REQ_FILE_TOO_LARGE)', async () => {
    const tooLarge = Object.assign(new Error('request file too large'), { code: 'FST_REQ_FILE_TOO_LARGE' });
    await expect(readFilePart(part(() => Promise.reject(tooLarge), true))).rejects.toBeInstanceOf(
      FilePartTooLargeError,
    );
  });

  it('passes any other failure through', async () => {
    const broken = new Error('premature close');
    await expect(readFilePart(part(() => Promise.reject(broken), false))).rejects.toBe(broken);
  });
});

import { randomBytes } from 'node:crypto';
import { mkdir, open, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { MIME_BY_EXT } from './image-type.js';
import { parseUploadKey, UploadStorage, type StoredFile } from './upload-storage.js';

/**
 * The absolute path of `projectId/name` inside `root`, or undefined when either part is not a name
 * Herald writes (so `..`, slashes, NUL, encoded separators and absolute paths never reach the disk).
 * The resolved path is checked to stay below `root` as a second line of defence.
 */
export function safeUploadPath(root: string, projectId: string, name: string): string | undefined {
  const key = parseUploadKey(projectId, name);
  if (!key) return undefined;
  const base = path.resolve(root);
  const full = path.resolve(base, key.projectId, key.name);
  return full.startsWith(base + path.sep) ? full : undefined;
}

/** Uploads on local disk below UPLOADS_DIR, served by Herald at APP_URL/uploads/files/<key>. */
export class LocalUploadStorage extends UploadStorage {
  constructor(
    private readonly root: string,
    private readonly appUrl: string,
  ) {
    super();
  }

  async put(key: string, data: Buffer): Promise<void> {
    const [projectId = '', name = '', ...rest] = key.split('/');
    const target = rest.length === 0 ? safeUploadPath(this.root, projectId, name) : undefined;
    if (!target) throw new Error(`Refusing to store upload key ${JSON.stringify(key)}`);
    await mkdir(path.dirname(target), { recursive: true });
    // Write beside the target and rename: a reader never sees a partial image.
    const temp = `${target}.${randomBytes(6).toString('hex')}.tmp`;
    try {
      await writeFile(temp, data, { mode: 0o644, flag: 'wx' });
      await rename(temp, target);
    } catch (err) {
      await rm(temp, { force: true });
      throw err;
    }
  }

  publicUrl(key: string): string {
    return `${this.appUrl.replace(/\/+$/, '')}/uploads/files/${key}`;
  }

  async open(projectId: string, name: string): Promise<StoredFile | null> {
    const file = safeUploadPath(this.root, projectId, name);
    if (!file) return null;
    let handle;
    try {
      handle = await open(file, 'r');
    } catch (err) {
      if (['ENOENT', 'ENOTDIR', 'EISDIR'].includes((err as NodeJS.ErrnoException).code ?? '')) return null;
      throw err;
    }
    const stat = await handle.stat();
    if (!stat.isFile()) {
      await handle.close();
      return null;
    }
    const ext = name.slice(name.lastIndexOf('.') + 1);
    return { stream: handle.createReadStream(), size: stat.size, contentType: MIME_BY_EXT[ext]! };
  }
}

import { fileTypeFromBuffer } from 'file-type';

/** The image formats template bodies may embed, as stored and served. */
export interface ImageType {
  ext: 'png' | 'jpg' | 'gif' | 'webp';
  mime: 'image/png' | 'image/jpeg' | 'image/gif' | 'image/webp';
}

const ALLOWED: Record<string, ImageType> = {
  png: { ext: 'png', mime: 'image/png' },
  // An animated PNG is a valid PNG: every client that shows PNG shows its first frame.
  apng: { ext: 'png', mime: 'image/png' },
  jpg: { ext: 'jpg', mime: 'image/jpeg' },
  gif: { ext: 'gif', mime: 'image/gif' },
  webp: { ext: 'webp', mime: 'image/webp' },
};

/** Stored file extension → Content-Type it is served with (only names Herald wrote). */
export const MIME_BY_EXT: Readonly<Record<string, string>> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
};

export const ALLOWED_IMAGE_FORMATS = 'PNG, JPEG, GIF or WebP';

/**
 * The image type of `data`, judged by its content (magic bytes), never by file name or the declared
 * Content-Type: an SVG, HTML page or renamed text file is refused (undefined) whatever it is called.
 */
export async function detectImageType(data: Uint8Array): Promise<ImageType | undefined> {
  if (data.length === 0) return undefined;
  const found = await fileTypeFromBuffer(data);
  return found ? ALLOWED[found.ext] : undefined;
}

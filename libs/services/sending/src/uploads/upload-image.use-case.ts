import { createLogger, DomainError } from '@herald/core';
import { Inject, Injectable } from '@nestjs/common';
import { ALLOWED_IMAGE_FORMATS, detectImageType } from './image-type.js';
import { newUploadKey, UploadStorage } from './upload-storage.js';

const log = createLogger('sending.uploads');

/** Stores an image for a project's template bodies and answers the URL that serves it. */
@Injectable()
export class UploadImageUseCase {
  constructor(@Inject(UploadStorage) private readonly storage: UploadStorage) {}

  async execute(projectId: string, data: Buffer, filename?: string): Promise<{ url: string }> {
    const type = await detectImageType(data);
    if (!type) {
      throw new DomainError(
        'invalid',
        'UNSUPPORTED_MEDIA_TYPE',
        `The file is not a ${ALLOWED_IMAGE_FORMATS} image; nothing was stored`,
        {
          errors: [
            {
              field: 'file',
              message: `content must be a ${ALLOWED_IMAGE_FORMATS} image (SVG and other formats are refused)`,
              code: 'invalid',
            },
          ],
          suggestion: `Convert the image to ${ALLOWED_IMAGE_FORMATS}; the type is read from the file's content, not its name.`,
        },
      );
    }
    const key = newUploadKey(projectId, type.ext);
    await this.storage.put(key, data, type.mime);
    log.info('image uploaded', { projectId, key, bytes: data.length, contentType: type.mime, filename });
    return { url: this.storage.publicUrl(key) };
  }
}

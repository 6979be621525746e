import { ObservesWritesOf } from '@herald/core';
import { ProjectId } from '@herald/auth';
import {
  ErrorCode,
  FilePartTooLargeError,
  HeraldException,
  notFound,
  Public,
  readFilePart,
  validationFailed,
} from '@herald/http';
import { Controller, Get, HttpCode, Inject, Param, Post, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ALLOWED_IMAGE_FORMATS } from './image-type.js';
import { UploadImageUseCase } from './upload-image.use-case.js';
import { IMMUTABLE_CACHE_CONTROL, UploadStorage } from './upload-storage.js';
import { UPLOADS_SETTINGS, type UploadsSettings } from './uploads.settings.js';

const mib = (bytes: number): string => `${Math.round((bytes / (1024 * 1024)) * 100) / 100} MiB`;

// the uploads are this service's own; a project reset (the gateway's) must have been applied
@ObservesWritesOf('gateway')
@Controller('uploads')
export class UploadsController {
  constructor(
    private readonly uploadImage: UploadImageUseCase,
    @Inject(UploadStorage) private readonly storage: UploadStorage,
    @Inject(UPLOADS_SETTINGS) private readonly settings: UploadsSettings,
  ) {}

  /** multipart/form-data with one file part (PNG, JPEG, GIF or WebP, at most UPLOAD_MAX_BYTES); answers 201 {url}. */
  @Post('image')
  @HttpCode(201)
  async upload(@ProjectId() projectId: string, @Req() req: FastifyRequest): Promise<{ url: string }> {
    if (!req.isMultipart()) {
      throw new HeraldException(
        415,
        ErrorCode.UnsupportedMediaType,
        'Send the image as multipart/form-data with a file part',
        {
          suggestion: 'curl -F file=@logo.png …/uploads/image',
        },
      );
    }
    const max = this.settings.UPLOAD_MAX_BYTES;
    const part = await req.file({ limits: { fileSize: max, files: 1 } });
    if (!part) throw validationFailed([{ field: 'file', message: 'a file part is required', code: 'required' }]);
    let data: Buffer;
    try {
      data = await readFilePart(part);
    } catch (err) {
      if (err instanceof FilePartTooLargeError) {
        throw new HeraldException(
          413,
          ErrorCode.PayloadTooLarge,
          `The image is larger than ${mib(max)}; nothing was stored`,
          {
            suggestion: `Resize or compress the image to at most ${mib(max)}.`,
          },
        );
      }
      throw err;
    }
    if (data.length === 0)
      throw validationFailed([
        { field: 'file', message: `the file is empty; send a ${ALLOWED_IMAGE_FORMATS} image`, code: 'required' },
      ]);
    return this.uploadImage.execute(projectId, data, part.filename);
  }

  /** Serves a local-disk upload to anyone (emails embed these URLs): immutable, never sniffed. */
  @Public()
  @Get('files/:projectId/:name')
  async serve(
    @Param('projectId') projectId: string,
    @Param('name') name: string,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    const file = await this.storage.open(projectId, name);
    if (!file) throw notFound('Upload');
    await reply
      .header('content-type', file.contentType)
      .header('content-length', String(file.size))
      .header('cache-control', IMMUTABLE_CACHE_CONTROL)
      .header('x-content-type-options', 'nosniff')
      .header('content-security-policy', "default-src 'none'; sandbox")
      .header('cross-origin-resource-policy', 'cross-origin')
      .send(file.stream);
  }
}

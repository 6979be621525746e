import { createLogger, HERALD_RUNTIME, loadConfig, type HeraldRuntime } from '@herald/core';
import { enableMultipart } from '@herald/http';
import { Inject, Module, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { LocalUploadStorage } from './local-upload-storage.js';
import { S3UploadStorage } from './s3-upload-storage.js';
import { UploadImageUseCase } from './upload-image.use-case.js';
import { UploadStorage } from './upload-storage.js';
import { UploadsController } from './uploads.controller.js';
import { UPLOADS_SETTINGS, uploadsDir, UploadsSettings } from './uploads.settings.js';

const log = createLogger('sending.uploads');

/** Local disk unless S3_BUCKET is set. */
export function createUploadStorage(settings: UploadsSettings, runtime?: HeraldRuntime): UploadStorage {
  if (settings.S3_BUCKET) return new S3UploadStorage(settings);
  if (runtime?.mode === 'distributed') {
    log.warn("uploads are kept on this process's local disk: set S3_BUCKET (or share UPLOADS_DIR between replicas)", {
      dir: uploadsDir(settings),
    });
  }
  return new LocalUploadStorage(uploadsDir(settings), settings.APP_URL);
}

/** POST /uploads/image and GET /uploads/files/:projectId/:name (public). */
@Module({
  controllers: [UploadsController],
  providers: [
    { provide: UPLOADS_SETTINGS, useFactory: () => loadConfig(UploadsSettings) },
    {
      provide: UploadStorage,
      useFactory: createUploadStorage,
      inject: [UPLOADS_SETTINGS, { token: HERALD_RUNTIME, optional: true }],
    },
    UploadImageUseCase,
  ],
})
export class UploadsModule implements OnModuleInit, OnModuleDestroy {
  constructor(
    private readonly http: HttpAdapterHost,
    @Inject(UploadStorage) private readonly storage: UploadStorage,
  ) {}

  onModuleInit(): void {
    enableMultipart(this.http);
  }

  async onModuleDestroy(): Promise<void> {
    if (this.storage instanceof S3UploadStorage) await this.storage.destroy();
  }
}

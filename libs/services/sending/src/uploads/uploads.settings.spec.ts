import { loadConfig } from '@herald/core';
import { UploadsSettings, uploadsDir } from './uploads.settings.js';

describe('upload settings (validated at boot, naming the bad variable)', () => {
  it('puts uploads in <HERALD_DATA_DIR>/uploads unless UPLOADS_DIR is set, and limits them to 5 MiB', () => {
    const s = loadConfig(UploadsSettings, { HERALD_DATA_DIR: '/var/lib/herald' });
    expect(uploadsDir(s)).toBe('/var/lib/herald/uploads');
    expect(s.UPLOAD_MAX_BYTES).toBe(5 * 1024 * 1024);
    expect(uploadsDir(loadConfig(UploadsSettings, { UPLOADS_DIR: '/srv/uploads' }))).toBe('/srv/uploads');
  });

  it('needs both S3 credentials or neither', () => {
    expect(() => loadConfig(UploadsSettings, { S3_BUCKET: 'media', S3_ACCESS_KEY_ID: 'AKIA' })).toThrow(
      /S3_SECRET_ACCESS_KEY/,
    );
    expect(
      loadConfig(UploadsSettings, {
        S3_BUCKET: 'media',
        S3_ACCESS_KEY_ID: 'AKIA',
        S3_SECRET_ACCESS_KEY: 's',
        S3_FORCE_PATH_STYLE: 'true',
      }),
    ).toMatchObject({ S3_FORCE_PATH_STYLE: true });
  });

  it('refuses UPLOAD_MAX_BYTES above 50 MiB', () => {
    expect(() => loadConfig(UploadsSettings, { UPLOAD_MAX_BYTES: String(51 * 1024 * 1024) })).toThrow(
      /UPLOAD_MAX_BYTES/,
    );
  });
});

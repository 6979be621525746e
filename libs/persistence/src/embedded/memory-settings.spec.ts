import { embeddedMemorySettings } from './memory-settings.js';

const GB = 1024 ** 3;

describe('embeddedMemorySettings', () => {
  it.each([
    ['512 MB', 0.5 * GB, '128MB', '512MB'],
    ['2 GB', 2 * GB, '256MB', '512MB'],
    ['4 GB', 4 * GB, '512MB', '1024MB'],
    ['24 GB', 24 * GB, '1024MB', '4096MB'],
    ['256 GB', 256 * GB, '1024MB', '4096MB'],
  ])(
    'a %s machine: shared_buffers an eighth of it within 128 MB..1 GB, effective_cache_size a quarter within 512 MB..4 GB',
    (_label, total, shared, cache) => {
      expect(embeddedMemorySettings(total)).toEqual({ shared_buffers: shared, effective_cache_size: cache });
    },
  );
});

import { detectImageType } from './image-type.js';
import { IMAGES, NOT_IMAGES } from '@herald/testing';

describe('upload image type: judged by content, only PNG, JPEG, GIF and WebP', () => {
  it.each([
    ['png', 'png', 'image/png'],
    ['jpg', 'jpg', 'image/jpeg'],
    ['gif', 'gif', 'image/gif'],
    ['webp', 'webp', 'image/webp'],
  ] as const)('accepts a %s image as .%s served as %s', async (fixture, ext, mime) => {
    expect(await detectImageType(IMAGES[fixture])).toEqual({ ext, mime });
  });

  it.each(Object.keys(NOT_IMAGES) as (keyof typeof NOT_IMAGES)[])('refuses %s content', async (name) => {
    expect(await detectImageType(NOT_IMAGES[name])).toBeUndefined();
  });

  it('refuses an empty file', async () => {
    expect(await detectImageType(Buffer.alloc(0))).toBeUndefined();
  });

  it('refuses a BMP (an image, but not one of the four formats)', async () => {
    const bmp = Buffer.alloc(64);
    bmp.write('BM', 0, 'latin1');
    bmp.writeUInt32LE(64, 2);
    bmp.writeUInt32LE(54, 10);
    bmp.writeUInt32LE(40, 14);
    expect(await detectImageType(bmp)).toBeUndefined();
  });

  it('judges a PNG whose bytes follow an HTML prefix as not an image (magic bytes must lead)', async () => {
    expect(await detectImageType(Buffer.concat([Buffer.from('<html>'), IMAGES.png]))).toBeUndefined();
  });
});

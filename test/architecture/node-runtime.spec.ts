import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The Node.js major is written in four places (ADR 0010): `.node-version` (what the scripts
 * install), `engines` in package.json and in the lockfile's root entry, and the image's
 * `NODE_IMAGE`. A runtime bump that misses one of them fails here instead of shipping an image
 * on another major than the tests ran on.
 */
const root = fileURLToPath(new URL('../../', import.meta.url));
const read = (file: string) => readFileSync(join(root, file), 'utf8');

describe('the Node.js runtime is pinned consistently', () => {
  const pinned = read('.node-version').trim();
  const major = pinned.split('.')[0];

  it('.node-version names an exact release', () => {
    expect(pinned).toMatch(/^\d+\.\d+\.\d+$/);
  });

  it('package.json and the lockfile require that major', () => {
    const pkg = JSON.parse(read('package.json')) as { engines?: { node?: string } };
    const lock = JSON.parse(read('package-lock.json')) as { packages: Record<string, { engines?: { node?: string } }> };
    expect(pkg.engines?.node).toBe(`>=${major}`);
    expect(lock.packages['']?.engines?.node).toBe(`>=${major}`);
  });

  it('the image is built on that major', () => {
    const image = /^ARG NODE_IMAGE=node:(\d+)-/m.exec(read('Dockerfile'));
    expect(image?.[1]).toBe(major);
  });
});

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The Node.js major is written in four places (ADR 0010): `.node-version` (what the scripts
 * install), `engines` in package.json and in the lockfile's root entry, and the image's
 * `NODE_IMAGE`. A runtime bump that misses one of them fails here instead of shipping an image
 * on another major than the tests ran on. `@types/node` follows the same major (package.json's
 * range and the version the lockfile installs), so the type-check knows the runtime's API, no
 * newer one.
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

  it('@types/node is of that major, in package.json and in the lockfile', () => {
    const pkg = JSON.parse(read('package.json')) as { devDependencies?: Record<string, string> };
    const lock = JSON.parse(read('package-lock.json')) as {
      packages: Record<string, { version?: string; devDependencies?: Record<string, string> }>;
    };
    const declared = pkg.devDependencies?.['@types/node'];
    expect(/^[\^~]?(\d+)\./.exec(declared ?? '')?.[1]).toBe(major);
    expect(lock.packages['']?.devDependencies?.['@types/node']).toBe(declared);
    expect(lock.packages['node_modules/@types/node']?.version?.split('.')[0]).toBe(major);
  });

  it('the image is built on that major', () => {
    const image = /^ARG NODE_IMAGE=node:(\d+)-/m.exec(read('Dockerfile'));
    expect(image?.[1]).toBe(major);
  });
});

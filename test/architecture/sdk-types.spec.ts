import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { generateSdkTypes, SDK_TYPES_PATH } from '../../scripts/openapi/sdk-types.js';

/**
 * The SDK (libs/sdk, ADR 0022) is typed from docs/openapi.json: its generated types are what
 * openapi-typescript makes of the committed document today (`npm run openapi` writes both), so a
 * route whose shape changes cannot leave the SDK's types behind; and it stays publishable on its
 * own: it imports no Herald library and nothing from npm.
 */
const root = fileURLToPath(new URL('../..', import.meta.url));
const sdkSrc = path.join(root, 'libs/sdk/src');

describe('the TypeScript SDK', () => {
  it('has the types openapi-typescript generates from docs/openapi.json today (no drift)', async () => {
    const generated = await generateSdkTypes(root, readFileSync(path.join(root, 'docs/openapi.json'), 'utf8'));
    if (generated !== readFileSync(path.join(root, SDK_TYPES_PATH), 'utf8')) {
      throw new Error(`${SDK_TYPES_PATH} is out of date: run \`npm run openapi\` and commit it`);
    }
  }, 60_000);

  it('is self-contained: its code imports only its own files and node: built-ins (specs), and it has no dependencies', () => {
    const foreign = readdirSync(sdkSrc, { recursive: true, encoding: 'utf8' })
      .filter((f) => f.endsWith('.ts'))
      .flatMap((f) => {
        const source = readFileSync(path.join(sdkSrc, f), 'utf8');
        const specifiers = [...source.matchAll(/^(?:import|export)\s[^;]*?from\s+'([^']+)'/gms)].map((m) => m[1]!);
        const allowed = (s: string) => s.startsWith('./') || (f.endsWith('.spec.ts') && s.startsWith('node:'));
        return specifiers.filter((s) => !allowed(s)).map((s) => `${f}: ${s}`);
      });
    expect(foreign).toEqual([]);
    const pkg = JSON.parse(readFileSync(path.join(root, 'libs/sdk/package.json'), 'utf8')) as Record<string, unknown>;
    expect([pkg.name, pkg.dependencies, pkg.peerDependencies]).toEqual(['@herald/sdk', undefined, undefined]);
  });
});

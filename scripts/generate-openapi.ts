/**
 * Writes Herald's OpenAPI document, generated from the code, to docs/openapi.json (which the build
 * copies next to the gateway, which serves it at GET /openapi.json), and the TypeScript SDK's types
 * generated from it (libs/sdk/src/openapi.generated.ts, ADR 0022): `npm run openapi`.
 * `npm run openapi -- --check` only compares, and exits 1 when either file is out of date.
 */
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { buildOpenApiDocument } from './openapi/document.js';
import { generateSdkTypes, SDK_TYPES_PATH } from './openapi/sdk-types.js';

const root = process.cwd();
const text = `${JSON.stringify(await buildOpenApiDocument(root), null, 2)}\n`;
const outputs = [
  { target: path.join(root, 'docs/openapi.json'), text },
  { target: path.join(root, SDK_TYPES_PATH), text: await generateSdkTypes(root, text) },
];
if (process.argv.includes('--check')) {
  let stale = false;
  for (const { target, text: expected } of outputs) {
    if ((await readFile(target, 'utf8').catch(() => '')) !== expected) {
      console.error(`${path.relative(root, target)} is out of date: run \`npm run openapi\``);
      stale = true;
    }
  }
  process.exit(stale ? 1 : 0);
} else {
  for (const { target, text: contents } of outputs) {
    await writeFile(target, contents);
    console.log(`wrote ${path.relative(root, target)}`);
  }
}
process.exit(0);

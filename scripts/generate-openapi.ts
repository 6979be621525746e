/**
 * Writes Herald's OpenAPI document, generated from the code, to docs/openapi.json (which the build
 * copies next to the gateway, which serves it at GET /openapi.json): `npm run openapi`.
 * `npm run openapi -- --check` only compares, and exits 1 when docs/openapi.json is out of date.
 */
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { buildOpenApiDocument } from './openapi/document.js';

const root = process.cwd();
const target = path.join(root, 'docs/openapi.json');
const text = `${JSON.stringify(await buildOpenApiDocument(root), null, 2)}\n`;
if (process.argv.includes('--check')) {
  const current = await readFile(target, 'utf8').catch(() => '');
  if (current !== text) {
    console.error('docs/openapi.json is out of date: run `npm run openapi`');
    process.exit(1);
  }
} else {
  await writeFile(target, text);
  console.log(`wrote ${path.relative(root, target)}`);
}
process.exit(0);

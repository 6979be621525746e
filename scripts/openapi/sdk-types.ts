/**
 * The TypeScript SDK's types (libs/sdk/src/openapi.generated.ts, ADR 0022), generated from
 * docs/openapi.json by openapi-typescript and formatted like the rest of the tree: `npm run openapi`
 * writes them with the document, test/architecture/sdk-types.spec.ts fails when they drift.
 */
import openapiTS, { astToString, type OpenAPI3 } from 'openapi-typescript';
import prettier from 'prettier';

export const SDK_TYPES_PATH = 'libs/sdk/src/openapi.generated.ts';

const HEADER = `/**
 * @generated from docs/openapi.json by openapi-typescript (\`npm run openapi\`, ADR 0022).
 * Do not edit: change the routes, DTOs or scripts/openapi and run \`npm run openapi\` again.
 */
`;

/** The generated `paths`, `components` and `operations` types of the document's text, formatted with the repo's Prettier options. */
export async function generateSdkTypes(root: string, documentText: string): Promise<string> {
  const ast = await openapiTS(JSON.parse(documentText) as OpenAPI3, {
    // `{"type": "object"}` without properties (a DTO's @IsObject() field) admits any keys, as JSON Schema reads it
    emptyObjectsUnknown: true,
  });
  const options = (await prettier.resolveConfig(`${root}/${SDK_TYPES_PATH}`)) ?? {};
  return prettier.format(`${HEADER}\n${astToString(ast)}`, { ...options, parser: 'typescript' });
}

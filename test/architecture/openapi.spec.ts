import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Validator } from '@seriousme/openapi-schema-validator';
import { allServices } from '@herald/service-catalog';
import { buildOpenApiDocument, openApiPath } from '../../scripts/openapi/document.js';
import { nestRoutes, type NestRoute } from '../../scripts/openapi/routes.js';
import { OpenApiController } from '@herald/service-gateway';

/**
 * docs/openapi.json (ADR 0017) is generated from the code by `npm run openapi` and served by the
 * gateway at GET /openapi.json: it must cover exactly the routes Nest mounts, be a valid OpenAPI 3.1
 * document, and be what the command generates today.
 */

const root = fileURLToPath(new URL('../..', import.meta.url));
const committedText = readFileSync(path.join(root, 'docs/openapi.json'), 'utf8');
const committed = JSON.parse(committedText) as { openapi: string; paths: Record<string, Record<string, unknown>> };
const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options', 'trace'];

const key = (method: string, p: string) => `${method.toUpperCase()} ${p}`;
const documented = () =>
  Object.entries(committed.paths)
    .flatMap(([p, ops]) =>
      Object.keys(ops)
        .filter((m) => METHODS.includes(m))
        .map((m) => key(m, p)),
    )
    .sort();
const mounted = (routes: NestRoute[]) =>
  [...new Set(routes.filter((r) => !r.internal).map((r) => key(r.method, openApiPath(r.path))))].sort();

describe('the OpenAPI document', () => {
  it('documents every public and dashboard route Nest mounts, and no route that is not mounted', async () => {
    const routes = await nestRoutes(allServices);
    const live = mounted(routes);
    const docs = documented();
    expect({
      undocumented: live.filter((r) => !docs.includes(r)),
      withoutRoute: docs.filter((r) => !live.includes(r)),
    }).toEqual({
      undocumented: [],
      withoutRoute: [],
    });
  }, 60_000);

  it('covers distributed mode too: the services hosted one per process mount the same routes as standalone', async () => {
    const perService: NestRoute[] = [];
    for (const def of allServices) perService.push(...(await nestRoutes([def])));
    expect(mounted(perService)).toEqual(mounted(await nestRoutes(allServices)));
  }, 120_000);

  it('is a valid OpenAPI 3.1 document', async () => {
    const validator = new Validator();
    const result = await validator.validate(structuredClone(committed) as never);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.1');
  });

  it('is what `npm run openapi` generates from the code today (no drift)', async () => {
    const generated = `${JSON.stringify(await buildOpenApiDocument(root), null, 2)}\n`;
    if (generated !== committedText) {
      throw new Error('docs/openapi.json is out of date: run `npm run openapi` and commit it');
    }
  }, 180_000);

  it('lists 409 on the operations whose code throws a conflict, naming the codes (Idempotency-Key reuse on the sends and track)', () => {
    const conflict = (method: string, p: string) =>
      (committed.paths[p]?.[method] as { responses: Record<string, { description?: string }> }).responses['409']
        ?.description;
    for (const p of ['/v1/send', '/v1/send/batch', '/v1/track'])
      expect([p, conflict('post', p)]).toEqual([p, expect.stringMatching(/`IDEMPOTENCY_KEY_REUSED`/)]);
    expect(conflict('delete', '/segments/{id}')).toMatch(/`SEGMENT_IN_USE`/);
    expect(conflict('get', '/segments/{id}')).toBeUndefined();
  });

  it('is what the gateway answers at GET /openapi.json', async () => {
    expect(await new OpenApiController().openapi()).toBe(committedText);
  });
});

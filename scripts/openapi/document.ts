import 'reflect-metadata';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { SERVICES, type ServiceRoute } from '@herald/core';
import { allServices } from '@herald/service-catalog';
import { RESPONSE_PASSTHROUGH_METADATA, ROUTE_ARGS_METADATA } from '@nestjs/common/constants.js';
import { RouteParamtypes } from '@nestjs/common/enums/route-paramtypes.enum.js';
import { validationMetadatasToSchemas } from 'class-validator-jsonschema';
import { OPERATION_NOTES, SECURITY_SCHEMES, DOCUMENT_INFO } from './operation-notes.js';
import { statusForKind } from '@herald/http';
import { conflictResponse, errorResponses, ERROR_RESPONSES } from './errors.js';
import { nestRoutes, type NestRoute } from './routes.js';
import { TypeReader, type Schema } from './ts-types.js';
import { webhookOperations } from './webhooks.js';

type Operation = Record<string, unknown>;

/** The route table's rule for a path: which service owns it and who may call it (none: a gateway route). */
function ownerOf(p: string): (ServiceRoute & { service: string }) | undefined {
  const rules = SERVICES.flatMap((s) => s.routes.map((r: ServiceRoute) => ({ ...r, service: s.name as string })));
  const owned = rules
    .filter((r) => p === r.prefix || p.startsWith(`${r.prefix}/`))
    .sort((a, b) => b.prefix.length - a.prefix.length)[0];
  return p.startsWith('/webhooks/incoming') ? undefined : owned;
}

/** `recipientsCsv` → `Recipients csv`. */
const humanize = (name: string): string => {
  const words = name.replace(/([a-z0-9])([A-Z])/g, '$1 $2').toLowerCase();
  return `${words[0]!.toUpperCase()}${words.slice(1)}`;
};

/** `/contacts/:id` → `/contacts/{id}`. */
export const openApiPath = (p: string): string => p.replace(/:([A-Za-z0-9_]+)/g, '{$1}');

const operationId = (r: NestRoute): string => {
  const base = r.controller.name.replace(/Controller$/, '');
  return `${base[0]!.toLowerCase()}${base.slice(1)}${r.handler[0]!.toUpperCase()}${r.handler.slice(1)}`;
};

/**
 * Herald's OpenAPI 3.1 document, generated from the code: the routes Nest mounts (every service's
 * controllers, as standalone mode hosts them; distributed mode serves the same routes behind the
 * gateway), the class-validator DTOs that check bodies and queries (class-validator-jsonschema), the
 * TypeScript types the handlers answer (the compiler's view of the sources), the gateway's route table
 * (who may call what), and the standard error body. Hand-written: summaries' wording comes from the
 * handlers' doc comments; operation-notes.ts adds examples and the few bodies no DTO class checks.
 */
export async function buildOpenApiDocument(root: string): Promise<Record<string, unknown>> {
  const routes = (await nestRoutes(allServices)).filter((r) => !r.internal);
  const reader = new TypeReader(root, 'apps/standalone/src/main.ts');
  const dtos = validationMetadatasToSchemas({ refPointerPrefix: '#/components/schemas/' }) as Record<string, Schema>;
  const usedDtos = new Set<string>();
  const paths: Record<string, Record<string, Operation>> = {};

  for (const route of routes) {
    const types = reader.handler(route.controller.name, route.handler);
    const args = (Reflect.getMetadata(ROUTE_ARGS_METADATA, route.controller, route.handler) ?? {}) as Record<
      string,
      { index: number; data?: unknown }
    >;
    const paramTypes = (Reflect.getMetadata('design:paramtypes', route.controller.prototype, route.handler) ??
      []) as (abstract new () => unknown)[];
    const owner = ownerOf(route.path);
    const parameters: Record<string, unknown>[] = [];
    for (const [, name] of route.path.matchAll(/:([A-Za-z0-9_]+)/g))
      parameters.push({ name, in: 'path', required: true, schema: { type: 'string' } });
    let body: Schema | undefined;
    let ownReply = false;
    for (const [key, arg] of Object.entries(args)) {
      const kind = Number(key.split(':')[0]);
      const declared = paramTypes[arg.index];
      const dto = declared && dtos[declared.name] ? declared.name : undefined;
      if (kind === RouteParamtypes.BODY) {
        if (dto) usedDtos.add(dto);
        body = dto ? { $ref: `#/components/schemas/${dto}` } : types.params[arg.index];
      } else if (kind === RouteParamtypes.QUERY) {
        if (typeof arg.data === 'string') {
          parameters.push({ name: arg.data, in: 'query', schema: types.params[arg.index] ?? {} });
        } else if (dto) {
          const schema = dtos[dto]!;
          const required = new Set((schema.required as string[] | undefined) ?? []);
          for (const [name, s] of Object.entries((schema.properties ?? {}) as Record<string, Schema>))
            parameters.push({
              name,
              in: 'query',
              required: required.has(name) || undefined,
              // an array is given once, comma-separated (`type=a,b`): the edge refuses a repeated query key
              ...(s.type === 'array' ? { style: 'form', explode: false } : {}),
              schema: s,
            });
        }
      } else if (kind === RouteParamtypes.RESPONSE) {
        ownReply = !Reflect.getMetadata(RESPONSE_PASSTHROUGH_METADATA, route.controller, route.handler);
      } else if (kind === RouteParamtypes.HEADERS && typeof arg.data === 'string') {
        parameters.push({ name: arg.data, in: 'header', schema: { type: 'string' } });
      }
    }
    const notes = OPERATION_NOTES[`${route.controller.name}.${route.handler}`] ?? {};
    // a handler that writes its own reply answers what its code sends: the notes must say it
    if (ownReply && !notes.answers && !notes.response)
      throw new Error(
        `openapi: ${route.controller.name}.${route.handler} writes its own reply (@Res()): describe its answers in scripts/openapi/operation-notes.ts`,
      );
    if (notes.body) body = notes.body;
    const doc = types.doc.replace(/\s+/g, ' ').trim();
    const success: Record<string, unknown> = { description: notes.responseDescription ?? 'Success' };
    const responseSchema = notes.response ?? types.response;
    if (responseSchema && route.status !== 204)
      success.content = {
        [notes.responseType ?? 'application/json']: {
          schema: responseSchema,
          ...(notes.responseExample ? { example: notes.responseExample } : {}),
        },
      };
    const secured = !route.public && !(owner?.public ?? false);
    const conflicts = reader
      .thrown(route.controller.name, route.handler, (kind) => statusForKind[kind as keyof typeof statusForKind])
      .filter((e) => e.status === 409)
      .map((e) => e.code ?? 'CONFLICT');
    const operation: Operation = {
      operationId: operationId(route),
      summary: notes.summary ?? humanize(route.handler),
      ...(doc ? { description: doc } : {}),
      tags: [owner?.service ?? (route.path.startsWith('/health') ? 'operations' : 'gateway')],
      ...(parameters.length ? { parameters: parameters.map((p) => JSON.parse(JSON.stringify(p)) as unknown) } : {}),
      ...(body
        ? {
            requestBody: {
              required: true,
              content: {
                [notes.requestType ?? 'application/json']: {
                  schema: body,
                  ...(notes.example ? { example: notes.example } : {}),
                },
              },
            },
          }
        : {}),
      responses: {
        ...(notes.answers ? {} : { [String(route.status)]: success }),
        // the statuses a handler sets on the reply it passes through (`reply.status(isNew ? 201 : 200)`)
        ...(ownReply ? {} : Object.fromEntries(types.replyStatuses.map((status) => [String(status), success]))),
        ...errorResponses({
          input: Boolean(body) || parameters.some((p) => p.in === 'query'),
          body: Boolean(body),
          secured,
          projectScoped: secured && owner !== undefined,
          pathParams: parameters.some((p) => p.in === 'path'),
        }),
        ...(conflicts.length ? { 409: conflictResponse([...new Set(conflicts)].sort()) } : {}),
        ...notes.answers,
      },
      security: !secured
        ? []
        : owner
          ? [{ secretKey: [] }, ...(owner.publicKey ? [{ publicKey: [] }] : []), { session: [], projectId: [] }]
          : [{ session: [] }],
    };
    (paths[openApiPath(route.path)] ??= {})[route.method.toLowerCase()] = operation;
  }

  const schemas: Record<string, Schema> = {};
  const pending = [...usedDtos];
  while (pending.length) {
    const name = pending.pop()!;
    if (schemas[name]) continue;
    schemas[name] = dtos[name]!;
    for (const [, ref] of JSON.stringify(dtos[name]).matchAll(/#\/components\/schemas\/([A-Za-z0-9_]+)/g))
      if (dtos[ref!] && !schemas[ref!]) pending.push(ref!);
  }
  schemas.ErrorBody = reader.named('ErrorBody'); // the standard error body (libs/http), of every error response
  for (const [name, schema] of reader.components) schemas[name] ??= schema;
  // interfaces the notes refer to by name (`HealthReport` of a handler that writes its own reply)
  for (const [, name] of JSON.stringify(paths).matchAll(/#\/components\/schemas\/([A-Za-z0-9_]+)/g))
    if (!schemas[name!]) schemas[name!] = reader.named(name!);
  // class-validator-jsonschema refers to `Object` for nested values typed as plain objects (records)
  const dangling = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(dangling);
    if (!node || typeof node !== 'object') return node;
    const ref = (node as { $ref?: string }).$ref?.match(/^#\/components\/schemas\/(.+)$/)?.[1];
    if (ref && !schemas[ref]) return { type: 'object' };
    return Object.fromEntries(Object.entries(node).map(([k, v]) => [k, dangling(v)]));
  };
  for (const [name, schema] of Object.entries(schemas)) schemas[name] = dangling(schema) as Schema;
  for (const ops of Object.values(paths)) for (const [m, op] of Object.entries(ops)) ops[m] = dangling(op) as Operation;
  // what Herald POSTs to a project's webhook endpoints (OpenAPI 3.1 `webhooks`, docs/webhooks-out.md)
  const outbound = webhookOperations(dtos);
  for (const [name, schema] of Object.entries(outbound.schemas)) schemas[name] ??= dangling(schema) as Schema;
  const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { version: string };
  return {
    openapi: '3.1.1',
    info: { ...DOCUMENT_INFO, version: pkg.version },
    servers: [{ url: '/', description: 'This Herald install (the gateway, or the standalone process)' }],
    tags: [...new Set(Object.values(paths).flatMap((ops) => Object.values(ops).flatMap((o) => o.tags as string[])))]
      .sort()
      .map((name) => ({ name })),
    paths: Object.fromEntries(Object.entries(paths).sort(([a], [b]) => a.localeCompare(b))),
    webhooks: outbound.webhooks,
    components: {
      schemas: Object.fromEntries(Object.entries(schemas).sort(([a], [b]) => a.localeCompare(b))),
      responses: ERROR_RESPONSES,
      securitySchemes: SECURITY_SCHEMES,
    },
  };
}

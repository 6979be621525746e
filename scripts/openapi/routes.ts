import 'reflect-metadata';
import type { ServiceDefinition } from '@herald/core';
import { IS_INTERNAL, IS_PUBLIC } from '@herald/http';
import { HeraldRootModule } from '@herald/runtime';
import type { INestApplication, Type } from '@nestjs/common';
import { HTTP_CODE_METADATA, METHOD_METADATA, PATH_METADATA } from '@nestjs/common/constants.js';
import { RequestMethod } from '@nestjs/common/enums/request-method.enum.js';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter } from '@nestjs/platform-fastify';

/** One HTTP route as Nest mounts it: the controller class and its handler, with the route's metadata. */
export interface NestRoute {
  /** Upper-case HTTP method. */
  method: string;
  /** Nest's path (`/contacts/:id`). */
  path: string;
  controller: Type;
  handler: string;
  /** Where the gateway's global guard lets it through without a key (`@Public()`). */
  public: boolean;
  /** `@Internal()`: service-to-service only, never through the gateway. */
  internal: boolean;
  /** `@HttpCode()`, else Nest's default (201 for POST, 200 otherwise). */
  status: number;
}

const join = (...parts: string[]) =>
  `/${parts
    .flatMap((p) => p.split('/'))
    .filter(Boolean)
    .join('/')}`;
const asList = (v: unknown): string[] => (Array.isArray(v) ? (v as string[]) : [String(v ?? '')]);

/**
 * Every HTTP route of the Nest application that hosts `services` (the standalone composition, which
 * mounts each service's controllers exactly as its own process does), read from the metadata Nest
 * routes by. The application is created in preview mode: modules and controllers are scanned, no
 * provider is instantiated, so nothing connects to a database or a broker.
 */
export async function nestRoutes(services: ServiceDefinition[]): Promise<NestRoute[]> {
  const runtime = {
    mode: 'standalone' as const,
    databaseUrl: 'postgresql://preview.invalid/preview',
    databasePoolSize: 1,
    internalJwtSecret: 'preview',
    jobLeaseMs: 60_000,
  };
  const app = await NestFactory.create(HeraldRootModule.compose(runtime, services), new FastifyAdapter(), {
    preview: true,
    logger: false,
    abortOnError: false,
  });
  try {
    return routesOf(app);
  } finally {
    await app.close().catch(() => undefined);
  }
}

function routesOf(app: INestApplication): NestRoute[] {
  const container = (
    app as unknown as { container: { getModules(): Map<string, { controllers: Map<unknown, { metatype: Type }> }> } }
  ).container;
  const controllers = new Set<Type>();
  for (const mod of container.getModules().values())
    for (const c of mod.controllers.values()) controllers.add(c.metatype);
  const routes: NestRoute[] = [];
  for (const controller of controllers) {
    const prefixes = asList(Reflect.getMetadata(PATH_METADATA, controller));
    const proto = controller.prototype as Record<string, unknown>;
    for (const handler of Object.getOwnPropertyNames(proto)) {
      if (handler === 'constructor' || typeof proto[handler] !== 'function') continue;
      const fn = proto[handler] as object;
      const verb = Reflect.getMetadata(METHOD_METADATA, fn) as RequestMethod | undefined;
      if (verb === undefined || Reflect.getMetadata(PATH_METADATA, fn) === undefined) continue;
      const flag = (key: string) => Boolean(Reflect.getMetadata(key, fn) ?? Reflect.getMetadata(key, controller));
      const method = RequestMethod[verb];
      const status =
        (Reflect.getMetadata(HTTP_CODE_METADATA, fn) as number | undefined) ?? (method === 'POST' ? 201 : 200);
      for (const prefix of prefixes)
        for (const sub of asList(Reflect.getMetadata(PATH_METADATA, fn)))
          routes.push({
            method,
            path: join(prefix, sub),
            controller,
            handler,
            public: flag(IS_PUBLIC),
            internal: flag(IS_INTERNAL),
            status,
          });
    }
  }
  return routes.sort((a, b) => a.path.localeCompare(b.path) || a.method.localeCompare(b.method));
}

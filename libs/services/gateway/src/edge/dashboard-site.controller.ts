import { readFile } from 'node:fs/promises';
import { toErrorBody } from '@herald/http';
import { Injectable, NotFoundException, type OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { API_REFERENCE_CSP } from './api-reference.page.js';

/**
 * The dashboard's policy (ADR 0028): the API reference page's, everything from this origin, no inline
 * script or style, no plugin, no framing, forms and `<base>` pinned to this origin.
 */
export const DASHBOARD_CSP = API_REFERENCE_CSP;

/**
 * The paths the dashboard owns: `/`, `/app` and its client routes, `/assets/<file>`. No API route
 * starts with them (test/e2e/dashboard-serving.e2e.spec.ts holds the route table to that), so the
 * dashboard shadows no API route, and every other unknown path keeps the API's 404.
 */
export const DASHBOARD_PATHS = /^\/(app(\/.*)?|assets\/[^/]+)?$/;

/**
 * Where the build put the dashboard (scripts/build.sh: Vite into `<dist>/dashboard/`): five folders
 * up from this file (`libs/services/gateway/src/edge/`) is `<dist>/` when running the build; from
 * the sources (in-process tests), the default build's `dist/dashboard/`.
 */
const FOLDERS = [
  new URL('../../../../../dashboard/', import.meta.url),
  new URL('../../../../../dist/dashboard/', import.meta.url),
];

const TYPES: Record<string, string> = {
  js: 'text/javascript; charset=utf-8',
  css: 'text/css; charset=utf-8',
  svg: 'image/svg+xml',
  png: 'image/png',
  woff2: 'font/woff2',
};

async function builtFile(name: string): Promise<Buffer | undefined> {
  for (const folder of FOLDERS) {
    try {
      return await readFile(new URL(name, folder));
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
    }
  }
  return undefined;
}

const installed = new WeakSet<object>();

/**
 * The dashboard (apps/dashboard, ADR 0028): its page at `/` and at every client route under `/app`
 * (the browser's router shows the screen), its hashed files at `/assets/<file>`. Served by the edge
 * process: the standalone process, or the gateway in distributed mode. Edge code (hence the file's
 * name), but its routes are the HTTP server's, not a Nest controller's: a web app's files, not
 * operations of the API, so the OpenAPI document (every route Nest mounts) leaves them out. A
 * missing file answers the API's standard 404.
 */
@Injectable()
export class DashboardSite implements OnModuleInit {
  private readonly files = new Map<string, Promise<Buffer | undefined>>();

  constructor(private readonly http: HttpAdapterHost) {}

  onModuleInit(): void {
    const fastify = this.http.httpAdapter.getInstance<FastifyInstance>();
    if (installed.has(fastify)) return;
    installed.add(fastify);
    const page = (req: FastifyRequest, reply: FastifyReply) => this.page(req, reply);
    fastify.get('/', page);
    fastify.get('/app', page);
    fastify.get('/app/*', page); // a client route (`/app/p/<id>/contacts`, …): the same page
    fastify.get<{ Params: { file: string } }>('/assets/:file', (req, reply) => this.asset(req, reply));
  }

  private async page(req: FastifyRequest, reply: FastifyReply): Promise<void> {
    const body = await this.read('index.html');
    if (!body) return notFound(req, reply, 'The dashboard is not built: run npm run build');
    await reply
      .header('content-type', 'text/html; charset=utf-8')
      .header('content-security-policy', DASHBOARD_CSP)
      .header('x-content-type-options', 'nosniff')
      .header('x-frame-options', 'DENY')
      .header('referrer-policy', 'same-origin')
      .header('cache-control', 'no-cache')
      .send(body);
  }

  /** One of the build's files; their names carry their content's hash, so they are cached for good. */
  private async asset(req: FastifyRequest<{ Params: { file: string } }>, reply: FastifyReply): Promise<void> {
    const file = req.params.file;
    const type = /^\w[\w.-]*\.(\w+)$/.exec(file)?.[1];
    const body = type && Object.hasOwn(TYPES, type) ? await this.read(`assets/${file}`) : undefined;
    if (!body) return notFound(req, reply, `Cannot GET /assets/${file}`);
    await reply
      .header('content-type', TYPES[type!]!)
      .header('cache-control', 'public, max-age=31536000, immutable')
      .header('x-content-type-options', 'nosniff')
      .send(body);
  }

  private read(name: string): Promise<Buffer | undefined> {
    let content = this.files.get(name);
    if (!content) {
      content = builtFile(name);
      this.files.set(name, content);
      // a missing file is looked for again next time (a build may land while the process runs)
      content.then(
        (b) => b === undefined && this.files.delete(name),
        () => this.files.delete(name),
      );
    }
    return content;
  }
}

async function notFound(req: FastifyRequest, reply: FastifyReply, message: string): Promise<void> {
  const { status, body } = toErrorBody(new NotFoundException(message), String(req.id), req.url);
  await reply.status(status).header('content-type', 'application/json; charset=utf-8').send(body);
}

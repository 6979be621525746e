import { readFile } from 'node:fs/promises';
import { Public } from '@herald/http';
import { Controller, Get, Header, NotFoundException, Param, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { API_REFERENCE_CSP, PAGE, START_SCRIPT, VENDOR_ASSETS } from './api-reference.page.js';

/**
 * Where swagger-ui-dist's files are: the build copies them to `<dist>/docs/swagger-ui/` (the image
 * ships dist only, without dev dependencies); from the sources they are the installed package. Both
 * are five folders up from this file (`libs/services/gateway/src/edge/`).
 */
const VENDOR_FOLDERS = [
  new URL('../../../../../docs/swagger-ui/', import.meta.url),
  new URL('../../../../../node_modules/swagger-ui-dist/', import.meta.url),
];

async function vendorFile(name: string): Promise<Buffer> {
  for (const folder of VENDOR_FOLDERS) {
    try {
      return await readFile(new URL(name, folder));
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
    }
  }
  throw new Error(`swagger-ui-dist's ${name} is missing: run npm install, or the build (scripts/build.sh)`);
}

/**
 * `GET /docs`: the API reference, Swagger UI rendering `GET /openapi.json` (ADR 0021), with its
 * files at `GET /docs/<file>`. Everything comes from this origin and the page's Content-Security-
 * Policy forbids anything else. The gateway answers it in both modes, without a key.
 */
@Public()
@Controller('docs')
export class ApiReferenceController {
  private readonly files = new Map<string, Promise<Buffer>>();

  /** The API reference page: the quick start, then every operation by service. */
  @Get()
  @Header('content-type', 'text/html; charset=utf-8')
  @Header('content-security-policy', API_REFERENCE_CSP)
  @Header('x-content-type-options', 'nosniff')
  @Header('cache-control', 'public, max-age=300')
  page(): string {
    return PAGE;
  }

  /** One of the reference page's script or style files. */
  @Get(':file')
  async asset(@Param('file') file: string, @Res({ passthrough: true }) reply: FastifyReply): Promise<string | Buffer> {
    reply.header('x-content-type-options', 'nosniff').header('cache-control', 'public, max-age=300');
    if (file === 'start.js') {
      reply.header('content-type', 'text/javascript; charset=utf-8');
      return START_SCRIPT;
    }
    const type = Object.hasOwn(VENDOR_ASSETS, file) ? VENDOR_ASSETS[file] : undefined;
    if (!type) throw new NotFoundException(`Cannot GET /docs/${file}`);
    let content = this.files.get(file);
    if (!content) {
      content = vendorFile(file);
      this.files.set(file, content);
      content.catch(() => this.files.delete(file));
    }
    const body = await content;
    reply.header('content-type', type);
    return body;
  }
}

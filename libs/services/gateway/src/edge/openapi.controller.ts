import { readFile } from 'node:fs/promises';
import { Public } from '@herald/http';
import { Controller, Get, Header } from '@nestjs/common';

/**
 * Where the document is: docs/openapi.json in the repository (tests, `npm start` from the sources'
 * build), which the build copies to `<dist>/docs/openapi.json` (the image ships dist only). Both are
 * five folders up from this file (`libs/services/gateway/src/edge/`).
 */
const DOCUMENT = new URL('../../../../../docs/openapi.json', import.meta.url);

/**
 * `GET /openapi.json`: Herald's OpenAPI 3.1 document, generated from the code at build time
 * (`npm run openapi`; ADR 0017). The gateway answers it in both modes: the document covers every
 * service's routes, which are the same in standalone and distributed mode.
 */
@Public()
@Controller()
export class OpenApiController {
  private document?: Promise<string>;

  /** The OpenAPI 3.1 document of this install's API. */
  @Get('openapi.json')
  @Header('content-type', 'application/json; charset=utf-8')
  @Header('cache-control', 'public, max-age=300')
  openapi(): Promise<string> {
    this.document ??= readFile(DOCUMENT, 'utf8');
    return this.document;
  }
}

import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

/**
 * Domain errors inside, HTTP at the edge (docs/errors.md): use cases, domain functions, services,
 * jobs and event handlers throw `DomainError` from `@herald/core` with a stable code per feature;
 * only the HTTP edge speaks HTTP errors. This fails when a file that is not edge code imports an
 * HTTP error helper:
 * - from `@herald/http`: the HeraldException family and its helpers, the code list and the
 *   status mapping (`HTTP_ERROR_HELPERS`); the rest of `@herald/http` (pagination, `@Public()`,
 *   `toFieldErrors`, `createHttpApp`, types) is not an error helper and stays allowed;
 * - from `@nestjs/common`: `HttpException`, `HttpStatus` and every `…Exception` class.
 * Type-only imports are allowed (they throw nothing).
 *
 * Edge code, by the role its file name declares: controllers, guards, pipes, filters,
 * interceptors, (param) decorators, DTOs, and HTTP clients (`*-client.ts`, which turn a remote
 * answer back into a domain error). `libs/http` is the edge itself; `libs/testing` and specs are
 * not product code.
 */
const root = fileURLToPath(new URL('../../', import.meta.url));

const HTTP_ERROR_HELPERS = new Set([
  'HeraldException',
  'notFound',
  'conflict',
  'validationFailed',
  'unauthorized',
  'forbidden',
  'ErrorCode',
  'codeForStatus',
  'toErrorBody',
  'statusForKind',
  'kindForStatus',
]);
const isNestHttpError = (name: string) => name === 'HttpException' || name === 'HttpStatus' || /Exception$/.test(name);

const EDGE_FILE = /(\.(controller|guard|pipe|filter|interceptor|decorators?|dto)|[.-]client)\.ts$/;
const SCANNED_ROOTS = ['libs', 'apps'];
// libs/runtime is the composition root (the boot of a process, its early HTTP server): edge code.
const NOT_PRODUCT_CODE = [
  /^libs\/http\//,
  /^libs\/runtime\//,
  /^libs\/testing\//,
  /\.spec\.ts$/,
  /\/(dist|node_modules)\//,
];

/** The HTTP error helpers `source` imports as values, as `module:name`. */
function httpErrorImports(fileName: string, source: string): string[] {
  const file = ts.createSourceFile(fileName, source, ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);
  const found: string[] = [];
  for (const statement of file.statements) {
    if (!ts.isImportDeclaration(statement) || !ts.isStringLiteral(statement.moduleSpecifier)) continue;
    const module = statement.moduleSpecifier.text;
    const isHttp = module === '@herald/http';
    const isNest = module === '@nestjs/common' || module.startsWith('@nestjs/common/');
    const clause = statement.importClause;
    if ((!isHttp && !isNest) || !clause || clause.isTypeOnly) continue;
    const bindings = clause.namedBindings;
    if (bindings && ts.isNamespaceImport(bindings)) {
      if (isHttp) found.push(`${module}:* as ${bindings.name.text}`);
      continue;
    }
    for (const element of bindings?.elements ?? []) {
      if (element.isTypeOnly) continue;
      const name = (element.propertyName ?? element.name).text;
      if (isHttp ? HTTP_ERROR_HELPERS.has(name) : isNestHttpError(name)) found.push(`${module}:${name}`);
    }
  }
  return found;
}

function productFiles(dir: string): string[] {
  return readdirSync(join(root, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory())
      return entry.name === 'node_modules' || entry.name.startsWith('dist') ? [] : productFiles(path);
    return path.endsWith('.ts') && !NOT_PRODUCT_CODE.some((re) => re.test(path)) ? [path] : [];
  });
}

/** Business files (not edge code) that import an HTTP error helper, with what they import. */
function violations(): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const file of SCANNED_ROOTS.flatMap(productFiles)) {
    if (EDGE_FILE.test(file)) continue;
    const imports = httpErrorImports(file, readFileSync(join(root, file), 'utf8'));
    if (imports.length > 0) out.set(relative(root, join(root, file)), imports);
  }
  return out;
}

describe('no HTTP in business code', () => {
  describe('the rule', () => {
    it.each([
      ["import { notFound } from '@herald/http';", ['@herald/http:notFound']],
      [
        "import { ErrorCode, HeraldException as E } from '@herald/http';",
        ['@herald/http:ErrorCode', '@herald/http:HeraldException'],
      ],
      ["import * as http from '@herald/http';", ['@herald/http:* as http']],
      ["import { Injectable, NotFoundException } from '@nestjs/common';", ['@nestjs/common:NotFoundException']],
      [
        "import { HttpException, HttpStatus } from '@nestjs/common';",
        ['@nestjs/common:HttpException', '@nestjs/common:HttpStatus'],
      ],
    ])('flags %s', (source, expected) => {
      expect(httpErrorImports('probe.ts', source)).toEqual(expected);
    });

    it.each([
      "import { keysetPage, Public, toFieldErrors, type CursorPage } from '@herald/http';",
      "import type { HeraldException } from '@herald/http';",
      "import { Injectable, Inject, type OnModuleInit } from '@nestjs/common';",
      "import { notFoundError, DomainError } from '@herald/core';",
    ])('allows %s', (source) => {
      expect(httpErrorImports('probe.ts', source)).toEqual([]);
    });

    it.each([
      ['libs/services/contacts/src/contacts/contacts.controller.ts', true],
      ['libs/services/gateway/src/edge/edge-auth.guard.ts', true],
      ['libs/auth/src/principal.decorators.ts', true],
      ['libs/services/contacts/src/contacts/contact.dto.ts', true],
      ['libs/auth/src/internal-client.ts', true],
      ['libs/services/contacts/src/contacts/contacts.service.ts', false],
      ['libs/services/contacts/src/bulk/bulk.service.ts', false],
      ['libs/services/contacts/src/internal/delivery-feedback.handler.ts', false],
      ['libs/services/sending/src/send/send-email.use-case.ts', false],
      ['libs/services/gateway/src/accounts/login-throttle.ts', false],
    ])('%s is edge code: %s', (file, edge) => {
      expect(EDGE_FILE.test(file)).toBe(edge);
    });
  });

  it('no use case, service, job or event handler imports an HTTP error helper', () => {
    expect([...violations()]).toEqual([]);
  });
});

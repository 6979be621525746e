import { jest } from '@jest/globals';
import { annotateLogContext, CoreModule, logContext } from '@herald/core';
import { Body, Controller, Get, Module, Param, Post, Query, Req } from '@nestjs/common';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { IsEmail, IsOptional, IsString, MinLength, ValidateNested } from 'class-validator';
import { Type } from 'class-transformer';
import { createHttpApp } from './create-http-app.js';
import { HttpPlatformModule } from './http-platform.module.js';
import { CursorQueryDto } from './pagination/cursor-pagination.js';
import { notFound } from './errors/herald.exception.js';
import { BodyLimit, BODY_JSON_LIMITS, DEFAULT_BODY_LIMIT } from './request/input-limits.js';

class ProfileDto {
  @IsString() @MinLength(2) tier!: string;
}
class CreateThingDto {
  @IsEmail() email!: string;
  @IsOptional() @ValidateNested() @Type(() => ProfileDto) profile?: ProfileDto;
}

@Controller('things')
class ThingsController {
  @Post()
  create(@Body() body: CreateThingDto) {
    return { email: body.email };
  }
  @Get()
  list(@Query() q: CursorQueryDto) {
    return { limit: q.limit, cursor: q.cursor ?? null };
  }
  @Get('missing')
  missing() {
    throw notFound('Thing', 'thg_1');
  }
  /** What a log line written here would carry, after the handler awaited (as handlers do). */
  @Get('context')
  async context(@Query('project') project?: string) {
    if (project) annotateLogContext({ projectId: project });
    await new Promise((resolve) => setTimeout(resolve, 5));
    return { ...logContext.getStore() };
  }
  @Get('claims/:token')
  claims(@Param('token') token: string) {
    return { length: token.length };
  }
  @Get('files/*')
  file() {
    return { served: true };
  }
  @Get('ip')
  ip(@Req() req: { ip: string }) {
    return { ip: req.ip };
  }
  @Post('echo')
  echo(@Body() body: unknown) {
    return { ok: typeof body };
  }
  @Post('large')
  @BodyLimit(4 * 1024 * 1024)
  large(@Body() body: unknown) {
    return { ok: typeof body };
  }
  @Get('boom')
  boom() {
    throw new Error('secret internals: password=hunter2 at db.ts:42');
  }
}

@Module({ controllers: [ThingsController] })
class ThingsModule {}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describe('HTTP platform: the standard error body and pagination bounds', () => {
  let app: NestFastifyApplication;
  let baseUrl: string;
  let warnings: { mock: { calls: unknown[][] }; mockRestore(): void };

  beforeAll(async () => {
    @Module({
      imports: [
        CoreModule.forRoot({
          mode: 'standalone',
          databaseUrl: 'postgres://unused',
          databasePoolSize: 1,
          internalJwtSecret: 'x'.repeat(32),
          jobLeaseMs: 30_000,
        }),
        HttpPlatformModule,
        ThingsModule,
      ],
    })
    class TestRoot {}
    warnings = jest.spyOn(process, 'emitWarning');
    app = await createHttpApp(TestRoot);
    await app.listen({ port: 0, host: '127.0.0.1' });
    baseUrl = await app.getUrl();
  });

  afterAll(async () => {
    warnings.mockRestore();
    await app.close();
  });

  it('starts without a warning (no FSTDEP022) and routes a signed-link parameter of 2000 characters', async () => {
    const res = await fetch(`${baseUrl}/things/claims/${'a'.repeat(2000)}`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ length: 2000 });
    expect((await fetch(`${baseUrl}/things/files/${'a'.repeat(2048)}`)).status).toBe(200);
    expect(warnings.mock.calls.map((c: unknown[]) => String(c[0]))).toEqual([]);
  });

  // Real HTTP over loopback (Fastify's inject needs require(esm), which Jest lacks on Node 20).
  const inject = async (opts: {
    method: 'GET' | 'POST';
    url: string;
    payload?: string;
    headers?: Record<string, string>;
  }) => {
    const res = await fetch(`${baseUrl}${opts.url}`, {
      method: opts.method,
      body: opts.payload,
      headers: { ...(opts.payload !== undefined ? { 'content-type': 'application/json' } : {}), ...opts.headers },
    });
    const body = await res.text();
    return { statusCode: res.status, body, headers: Object.fromEntries(res.headers), json: () => JSON.parse(body) };
  };

  it('answers malformed JSON with 400 MALFORMED_JSON in the standard body', async () => {
    const res = await inject({ method: 'POST', url: '/things', payload: '{"email": ' });
    expect(res.statusCode).toBe(400);
    const body = res.json();
    expect(body).toMatchObject({ success: false, error: { code: 'MALFORMED_JSON', statusCode: 400 } });
    expect(body.error.requestId).toMatch(UUID);
    expect(res.headers['x-request-id']).toBe(body.error.requestId);
    expect(typeof body.error.suggestion).toBe('string');
    expect(Number.isNaN(Date.parse(body.timestamp))).toBe(false);
  });

  it('answers failed validation with 422 and field-level errors with dotted paths', async () => {
    const res = await inject({
      method: 'POST',
      url: '/things',
      payload: JSON.stringify({ email: 'nope', profile: { tier: 'x' } }),
    });
    expect(res.statusCode).toBe(422);
    const body = res.json();
    expect(body.error.code).toBe('VALIDATION_ERROR');
    expect(body.error.errors).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ field: 'email', code: 'invalid_string' }),
        expect.objectContaining({ field: 'profile.tier', code: 'too_small' }),
      ]),
    );
  });

  it('answers an unknown route with 404 ROUTE_NOT_FOUND', async () => {
    const res = await inject({ method: 'GET', url: '/nowhere' });
    expect(res.statusCode).toBe(404);
    expect(res.json().error.code).toBe('ROUTE_NOT_FOUND');
  });

  it('answers a missing resource with 404 RESOURCE_NOT_FOUND naming it', async () => {
    const res = await inject({ method: 'GET', url: '/things/missing' });
    expect(res.statusCode).toBe(404);
    expect(res.json().error).toMatchObject({ code: 'RESOURCE_NOT_FOUND', message: 'Thing thg_1 was not found' });
  });

  it('answers an unexpected error with 500 and leaks no internals', async () => {
    const res = await inject({ method: 'GET', url: '/things/boom' });
    expect(res.statusCode).toBe(500);
    expect(res.body).not.toMatch(/hunter2|db\.ts|at /);
    expect(res.json().error).toMatchObject({ code: 'INTERNAL_SERVER_ERROR', message: 'An unexpected error occurred' });
  });

  it('keeps a caller-supplied UUID request id and replaces anything else', async () => {
    const id = '0b7c3c52-8a55-4b0a-9d8e-2f1e9a6c1d11';
    expect(
      (await inject({ method: 'GET', url: '/nowhere', headers: { 'x-request-id': id } })).json().error.requestId,
    ).toBe(id);
    expect(
      (await inject({ method: 'GET', url: '/nowhere', headers: { 'x-request-id': 'not-a-uuid' } })).json().error
        .requestId,
    ).toMatch(UUID);
  });

  it('gives log lines written while handling a request its request id, after awaits, and what the request learnt (its project)', async () => {
    const id = '0b7c3c52-8a55-4b0a-9d8e-2f1e9a6c1d12';
    const res = await inject({ method: 'GET', url: '/things/context?project=prj_1', headers: { 'x-request-id': id } });
    expect(res.json()).toEqual({ requestId: id, correlationId: id, projectId: 'prj_1' });
    // each request its own context: nothing leaks from the previous one
    const other = (await inject({ method: 'GET', url: '/things/context' })).json();
    expect(other.requestId).toMatch(UUID);
    expect(other.requestId).not.toBe(id);
    expect(other.projectId).toBeUndefined();
  });

  it.each([['0'], ['101'], ['abc']])('rejects limit=%s with 422 (range 1..100)', async (limit) => {
    const res = await inject({ method: 'GET', url: `/things?limit=${limit}` });
    expect(res.statusCode).toBe(422);
    expect(res.json().error.errors[0].field).toBe('limit');
  });

  it.each([['1e2'], ['+5'], ['0x10'], [' 5'], ['5.0'], ['1_000'], ['']])(
    'reads an integer query parameter only from plain decimal digits: limit=%s is 422 naming limit',
    async (limit) => {
      const res = await inject({ method: 'GET', url: `/things?limit=${encodeURIComponent(limit)}` });
      expect(res.statusCode).toBe(422);
      const errors: { field: string; code: string }[] = res.json().error.errors;
      expect(new Set(errors.map((e) => e.field))).toEqual(new Set(['limit']));
      expect(errors.map((e) => e.code)).toContain('invalid_type');
    },
  );

  it('defaults limit to 20 and accepts 1 and 100', async () => {
    expect((await inject({ method: 'GET', url: '/things' })).json().limit).toBe(20);
    expect((await inject({ method: 'GET', url: '/things?limit=1' })).json().limit).toBe(1);
    expect((await inject({ method: 'GET', url: '/things?limit=100' })).json().limit).toBe(100);
  });
});

describe('HTTP platform: bounded work per request and text PostgreSQL cannot hold', () => {
  let app: NestFastifyApplication;
  let baseUrl: string;

  beforeAll(async () => {
    @Module({
      imports: [
        CoreModule.forRoot({
          mode: 'standalone',
          databaseUrl: 'postgres://unused',
          databasePoolSize: 1,
          internalJwtSecret: 'x'.repeat(32),
          jobLeaseMs: 30_000,
        }),
        HttpPlatformModule,
        ThingsModule,
      ],
    })
    class TestRoot {}
    app = await createHttpApp(TestRoot);
    await app.listen({ port: 0, host: '127.0.0.1' });
    baseUrl = await app.getUrl();
  });

  afterAll(() => app.close());

  const post = async (path: string, body: string) => {
    const res = await fetch(`${baseUrl}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body,
    });
    return {
      status: res.status,
      body: (await res.json()) as {
        error: { code: string; message: string; statusCode: number; errors?: { field: string }[] };
      },
    };
  };

  const n = BODY_JSON_LIMITS;
  const shapes: [string, () => string, number, string][] = [
    [
      'many keys',
      () => JSON.stringify(Object.fromEntries(Array.from({ length: n.maxKeys + 1 }, (_, i) => [`k${i}`, i]))),
      413,
      'keys',
    ],
    ['deep nesting', () => `{"data":${'{"a":'.repeat(10_000)}1${'}'.repeat(10_000)}}`, 413, 'levels deep'],
    ['many array items', () => JSON.stringify({ ids: Array.from({ length: n.maxItems + 1 }, () => 1) }), 413, 'items'],
    [
      'many values',
      () => JSON.stringify({ a: Array.from({ length: 20 }, () => Array.from({ length: 9_000 }, () => 0)) }),
      413,
      'values',
    ],
    ['a long key', () => JSON.stringify({ ['k'.repeat(n.maxKeyLength + 1)]: 1 }), 413, 'key'],
  ];

  it.each(shapes)('refuses a body with %s before validation, naming the limit', async (_shape, body, status, words) => {
    const res = await post('/things', body());
    expect(res.status).toBe(status);
    expect(res.body.error.code).toBe('PAYLOAD_TOO_LARGE');
    expect(res.body.error.message).toContain(words);
  });

  it.each(shapes)(
    'refuses a body with %s from its text, without parsing it (no JSON.parse of the body)',
    async (_shape, body) => {
      const text = body();
      const parsed: number[] = [];
      const original = JSON.parse;
      const spy = jest
        .spyOn(JSON, 'parse')
        .mockImplementation((s: string, reviver?: Parameters<typeof JSON.parse>[1]): unknown => {
          if (typeof s === 'string' && s.length === text.length) parsed.push(s.length);
          return original(s, reviver);
        });
      try {
        const res = await fetch(`${baseUrl}/things`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: text,
        });
        expect(res.status).toBe(413);
      } finally {
        spy.mockRestore();
      }
      expect(parsed).toEqual([]);
    },
  );

  it('parses a body within the limits as before, refusing prototype poisoning with 400', async () => {
    expect((await post('/things/echo', '{"name":"ok"}')).status).toBe(201);
    expect((await post('/things/echo', '{"name":"ok","__proto__":{"x":1}}')).status).toBe(400);
  });

  it.each([
    ['a NUL in a value', { email: 'a\u0000@b.co' }, 'email'],
    ['a lone surrogate in a nested value', { profile: { tier: 'go\ud800ld' } }, 'profile.tier'],
    ['a NUL in a key', { data: { 'a\u0000b': 1 } }, 'data.a\u0000b'],
    ['a lone surrogate in an array item', { tags: ['ok', '\udc00'] }, 'tags[1]'],
  ])('answers %s with 422 naming the field, never 500', async (_what, body, field) => {
    const res = await post('/things', JSON.stringify(body));
    expect(res.status).toBe(422);
    expect(res.body.error.code).toBe('VALIDATION_ERROR');
    expect(res.body.error.errors![0]!.field).toBe(field);
  });

  it('keeps a well-formed surrogate pair (an emoji) as text', async () => {
    expect((await post('/things/echo', JSON.stringify({ name: 'party \ud83c\udf89' }))).status).toBe(201);
  });

  it.each([
    ['a NUL', '/things?cursor=%00', 'cursor'],
    ['a repeated parameter', '/things?limit=1&limit=2', 'limit'],
    ['a bracketed parameter', '/things?limit[]=1', 'limit[]'],
  ])('answers a query with %s with 422 naming the parameter', async (_what, url, field) => {
    const res = await fetch(`${baseUrl}${url}`);
    const body = (await res.json()) as { error: { code: string; errors: { field: string }[] } };
    expect(res.status).toBe(422);
    expect(body.error.errors[0]!.field).toBe(field);
  });

  it('limits bodies to 1 MiB by default, with the standard 413 body', async () => {
    const res = await post('/things/echo', JSON.stringify({ s: 'x'.repeat(DEFAULT_BODY_LIMIT) }));
    expect(res.status).toBe(413);
    expect(res.body.error).toMatchObject({ code: 'PAYLOAD_TOO_LARGE', statusCode: 413 });
  });

  it('lets a route raise its own body limit (@BodyLimit)', async () => {
    expect((await post('/things/large', JSON.stringify({ s: 'x'.repeat(2 * DEFAULT_BODY_LIMIT) }))).status).toBe(201);
  });

  it('believes X-Forwarded-For from no one by default (TRUSTED_PROXIES unset)', async () => {
    const res = await fetch(`${baseUrl}/things/ip`, { headers: { 'x-forwarded-for': '203.0.113.9' } });
    expect(((await res.json()) as { ip: string }).ip).toBe('127.0.0.1');
  });

  it('answers too-large headers with 431 and a too-long URL with 414, in the standard body', async () => {
    const headers = await fetch(`${baseUrl}/things`, { headers: { 'x-big': 'a'.repeat(20_000) } });
    expect(headers.status).toBe(431);
    expect(await headers.json()).toMatchObject({
      success: false,
      error: { code: 'HEADERS_TOO_LARGE', statusCode: 431 },
    });
    const url = await fetch(`${baseUrl}/things?cursor=${'a'.repeat(20_000)}`);
    expect(url.status).toBe(414);
    expect(await url.json()).toMatchObject({ success: false, error: { code: 'URI_TOO_LONG', statusCode: 414 } });
  });

  it.each([
    ['a path parameter over 2048 characters', `/things/claims/${'a'.repeat(3000)}`, 414, 'URI_TOO_LONG'],
    [
      'a path segment over 2048 characters on a wildcard route',
      `/things/files/${'a'.repeat(3000)}`,
      414,
      'URI_TOO_LONG',
    ],
    ['a path segment over 2048 characters on no route', `/nowhere/${'a'.repeat(3000)}/x`, 414, 'URI_TOO_LONG'],
    ['a path that is not valid percent-encoding', `/things/claims/${'a'.repeat(40)}%E0%A4%A`, 400, 'BAD_REQUEST'],
  ])('answers %s in the standard body, repeating nothing of the path', async (_what, path, status, code) => {
    const res = await fetch(`${baseUrl}${path}`);
    const text = await res.text();
    expect(res.status).toBe(status);
    const body = JSON.parse(text);
    expect(body).toMatchObject({ success: false, error: { code, statusCode: status } });
    expect(res.headers.get('x-request-id')).toBe(body.error.requestId);
    expect(text).not.toContain('a'.repeat(20));
  });
});

import { findJsonProblem, isUnstorableText, scanJsonText, type JsonLimits, type JsonProblem } from '@herald/core';
import { applyDecorators } from '@nestjs/common';
import { RouteConfig } from '@nestjs/platform-fastify';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ErrorCode } from '../errors/error-codes.js';
import { HeraldException, validationFailed } from '../errors/herald.exception.js';

/** Largest request body of a route without {@link BodyLimit} (bytes). */
export const DEFAULT_BODY_LIMIT = 1024 * 1024;

/** `/v1/send`: the spec's full message size (attachments travel base64 in the JSON body). */
export const SEND_BODY_LIMIT = 40 * 1024 * 1024;

/**
 * Bounds on the shape of every JSON body, checked before Nest transforms or validates it (docs/errors.md,
 * "Request limits"). Generous for any real request (a /contacts/lookup lists 500 addresses, a bulk
 * job 1,000 ids), tight enough that transformation and validation stay in milliseconds.
 */
export const BODY_JSON_LIMITS: JsonLimits = {
  maxDepth: 32,
  maxKeys: 1000,
  maxItems: 10_000,
  maxValues: 20_000,
  maxKeyLength: 1024,
  maxStringLength: Number.POSITIVE_INFINITY,
};

const BODY_LIMIT = 'heraldBodyLimit';

/**
 * Longest segment of a request path, as sent (signed links in emails carry their claims in one): the
 * router's `maxParamLength`, and checked again on every request, so a path the router gives to a
 * wildcard route (the gateway's proxy) or to no route is held to it too.
 */
export const MAX_PATH_SEGMENT_LENGTH = 2048;

/** 414 for a path with a segment over {@link MAX_PATH_SEGMENT_LENGTH}: the answer repeats nothing of the path. */
export const pathTooLong = (): HeraldException =>
  new HeraldException(
    414,
    ErrorCode.UriTooLong,
    `A segment of the request path is longer than ${MAX_PATH_SEGMENT_LENGTH} characters`,
    { suggestion: 'Send long values in a request body rather than in the URL.' },
  );

/** Whether a segment of the path of `url` (the query string aside) is over {@link MAX_PATH_SEGMENT_LENGTH}. */
export function hasLongPathSegment(url: string): boolean {
  const query = url.indexOf('?');
  const path = query === -1 ? url : url.slice(0, query);
  if (path.length <= MAX_PATH_SEGMENT_LENGTH) return false;
  return path.split('/').some((segment) => segment.length > MAX_PATH_SEGMENT_LENGTH);
}

/**
 * A route whose body may be larger than {@link DEFAULT_BODY_LIMIT} (`/v1/send`'s attachments): a
 * number, or a function read once when the route is registered (a limit sized from the service's
 * validated settings, which exist by then).
 */
export const BodyLimit = (bytes: number | (() => number)): MethodDecorator =>
  applyDecorators(RouteConfig({ [BODY_LIMIT]: bytes }));

/** Field error code per limit (the spec's Zod-style names). */
const tooBig = (field: string, message: string): HeraldException =>
  new HeraldException(413, ErrorCode.PayloadTooLarge, message, {
    errors: [{ field: field || 'body', message, code: 'too_big' }],
    suggestion: 'Send a smaller body: the limits are listed in docs/errors.md (Request limits).',
  });

const badText = (field: string, message: string): HeraldException =>
  validationFailed([{ field: field || 'body', message, code: 'invalid_string' }], message);

/** The first problem of a request's query string or path parameters: repeated or bracketed keys, unstorable text. */
function parameterProblem(params: unknown, kind: 'query' | 'path'): HeraldException | undefined {
  if (params === null || typeof params !== 'object') return undefined;
  for (const [key, value] of Object.entries(params as Record<string, unknown>)) {
    if (isUnstorableText(key))
      return badText(key, `A ${kind} parameter name contains a NUL character or an unpaired UTF-16 surrogate`);
    if (kind === 'query' && (Array.isArray(value) || /[[\]]/.test(key)))
      return validationFailed(
        [{ field: key, message: `${key} must be given once, as a single value`, code: 'invalid_type' }],
        `The query parameter ${key} must be given once, as a single value`,
      );
    if (typeof value === 'string' && isUnstorableText(value))
      return badText(key, `${key} contains a NUL character or an unpaired UTF-16 surrogate`);
  }
  return undefined;
}

/** The answer to a request whose parameters or body break the edge's limits, or undefined. */
export function inputProblem(req: Pick<FastifyRequest, 'query' | 'params' | 'body'>): HeraldException | undefined {
  const bad = parameterProblem(req.query, 'query') ?? parameterProblem(req.params, 'path');
  if (bad) return bad;
  if (req.body === undefined || req.body === null) return undefined;
  const problem = findJsonProblem(req.body, BODY_JSON_LIMITS);
  return problem ? answerTo(problem) : undefined;
}

const answerTo = (problem: JsonProblem): HeraldException =>
  problem.limit === 'text' ? badText(problem.path, problem.message) : tooBig(problem.path, problem.message);

/**
 * The JSON body parser of every Herald HTTP server (given to Nest's `useBodyParser` in `createHttpApp`,
 * in place of its default): it first checks the text against the shape limits of {@link BODY_JSON_LIMITS}
 * ({@link scanJsonText}: one pass, nothing allocated) and refuses a breach with its 413 before
 * `JSON.parse` builds the value, so a hostile body (40,000 keys, 100,000 items) costs its scan, not a
 * parse, a check and a garbage collection. Within the limits, Fastify's own parser parses it
 * (prototype poisoning refused, as by default). The route's body limit applies as before.
 */
export function boundedJsonParser(fastify: FastifyInstance) {
  const parse = fastify.getDefaultJsonParser('error', 'error');
  return (req: FastifyRequest, body: Buffer | string, done: (err: Error | null, body?: unknown) => void): void => {
    let text = typeof body === 'string' ? body : body.toString('utf8');
    if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    const problem = scanJsonText(text, BODY_JSON_LIMITS);
    if (problem) return done(answerTo(problem));
    void parse(req, text, done);
  };
}

/**
 * Once per HTTP server, before any route is registered: per-route body limits ({@link BodyLimit}),
 * an `onRequest` hook refusing a path segment over {@link MAX_PATH_SEGMENT_LENGTH} (414), and a
 * `preValidation` hook refusing — before Nest's guards, pipes and handlers run — a body or query
 * that breaks {@link BODY_JSON_LIMITS} (413) or holds text PostgreSQL cannot store (422).
 */
export function installInputLimits(fastify: FastifyInstance): void {
  fastify.addHook('onRoute', (route) => {
    const limit = (route.config as Record<string, unknown> | undefined)?.[BODY_LIMIT];
    const bytes = typeof limit === 'function' ? (limit as () => unknown)() : limit;
    if (typeof bytes === 'number') route.bodyLimit = bytes;
  });
  fastify.addHook('onRequest', (req, _reply, done) => {
    done(hasLongPathSegment(req.url) ? pathTooLong() : undefined);
  });
  fastify.addHook('preValidation', (req, _reply, done) => {
    done(inputProblem(req));
  });
}

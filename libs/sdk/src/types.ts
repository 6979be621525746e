/**
 * Types read off the generated OpenAPI types (openapi.generated.ts): which paths take which method,
 * and each operation's path parameters, query, JSON body and success answer. Types only.
 */
import type { operations, paths } from './openapi.generated.js';

export type { components, operations, paths } from './openapi.generated.js';

export type HttpMethod = 'get' | 'post' | 'put' | 'patch' | 'delete';

/** The document's paths that have an operation for `M`. */
export type PathsWithMethod<M extends HttpMethod> = {
  [P in keyof paths]: paths[P][M] extends { responses: unknown } ? P : never;
}[keyof paths];

/** The operation object of `M` on `P`. */
export type OperationOf<P extends keyof paths, M extends HttpMethod> = NonNullable<paths[P][M]>;

type Params<O> = O extends { parameters: infer X } ? X : never;
export type PathParams<O> = NonNullable<Params<O> extends { path?: infer X } ? X : never>;
export type QueryParams<O> = NonNullable<Params<O> extends { query?: infer X } ? X : never>;
export type JsonBody<O> = O extends { requestBody?: infer B }
  ? [NonNullable<B>] extends [never]
    ? never
    : NonNullable<B> extends { content: { 'application/json': infer J } }
      ? J
      : never
  : never;

type SuccessStatus = 200 | 201 | 202 | 203 | 204;
type JsonOf<R> = R extends { content: { 'application/json': infer J } } ? J : unknown;
/** The JSON of the operation's 2xx answers. */
export type SuccessBody<O> = O extends { responses: infer R }
  ? { [S in keyof R]: S extends SuccessStatus ? JsonOf<R[S]> : never }[keyof R]
  : never;

/** What `request()` takes besides the method and path: `path` when the path has `{parameters}`, a JSON `body` when the operation has one. */
export type RequestOptions<O> = ([PathParams<O>] extends [never] ? { path?: never } : { path: PathParams<O> }) &
  ([QueryParams<O>] extends [never] ? { query?: never } : { query?: QueryParams<O> }) &
  ([JsonBody<O>] extends [never] ? { body?: never } : { body: JsonBody<O> }) & {
    headers?: Record<string, string>;
    /** Sent as `Idempotency-Key`: a retry (or a repeat within 24 hours) of the same request is answered once. */
    idempotencyKey?: string;
    signal?: AbortSignal;
  };

/** The body of `operations[K]`'s request and answer, by operation id. */
export type Body<K extends keyof operations> = JsonBody<operations[K]>;
export type Result<K extends keyof operations> = SuccessBody<operations[K]>;
export type Query<K extends keyof operations> = QueryParams<operations[K]>;

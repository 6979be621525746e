import type { paths } from './openapi.generated.js';
import { iterateCursor, iteratePages, type CursorPage } from './pagination.js';
import { Transport, type HeraldOptions } from './transport.js';
import type {
  Body,
  HttpMethod,
  OperationOf,
  PathsWithMethod,
  Query,
  QueryParams,
  RequestOptions,
  Result,
  SuccessBody,
} from './types.js';

/** Per-call options of the sends: the `Idempotency-Key` (one is made when absent, so a retry cannot send twice). */
export interface IdempotentOptions {
  idempotencyKey?: string;
  signal?: AbortSignal;
}

export interface BatchOptions extends IdempotentOptions {
  /** `strict` (the default) refuses the whole batch when an item is invalid; `permissive` sends the valid items (`X-Batch-Validation`). */
  validation?: 'strict' | 'permissive';
}

type Id = string;
const at = (id: Id) => encodeURIComponent(id);

/**
 * Herald's API, typed from its OpenAPI document (docs/openapi.json):
 *
 * ```ts
 * const herald = new Herald({ apiKey: process.env.HERALD_API_KEY!, baseUrl: 'https://herald.example.com' });
 * await herald.emails.send({ to: 'ada@example.com', subject: 'Hi', body: '<p>Hello</p>' });
 * await herald.events.track({ email: 'ada@example.com', event: 'signed-up' });
 * ```
 *
 * Every other operation is `herald.request(method, path, { path, query, body })`, typed by the document.
 * A failed answer throws `HeraldError`; 429 and 503 are retried with backoff, honouring `Retry-After`.
 */
export class Herald {
  private readonly transport: Transport;

  constructor(options: HeraldOptions) {
    this.transport = new Transport(options);
  }

  /** Any operation of the document, by method and path: `path` fills `{parameters}`, `query` and `body` as documented. */
  request<M extends HttpMethod, P extends PathsWithMethod<M>>(
    method: M,
    path: P,
    ...[options]: RequestOptionsArg<OperationOf<P, M>>
  ): Promise<SuccessBody<OperationOf<P, M>>> {
    const o = (options ?? {}) as {
      path?: Record<string, string | number>;
      query?: Record<string, unknown>;
      body?: unknown;
      headers?: Record<string, string>;
      idempotencyKey?: string;
      signal?: AbortSignal;
    };
    const filled = path.replace(/\{([^}]+)\}/g, (_, name: string) => {
      const value = o.path?.[name];
      if (value === undefined) throw new TypeError(`Herald: ${path} needs the path parameter ${name}`);
      return encodeURIComponent(String(value));
    });
    return this.transport.send({
      method,
      path: filled,
      query: o.query,
      body: o.body,
      headers: o.headers,
      idempotencyKey: o.idempotencyKey,
      signal: o.signal,
    });
  }

  /** Every item of a cursor list (`{data, cursor}` answers: contacts, emails, events, templates, …), page after page. */
  paginate<P extends CursorListPath>(
    path: P,
    query?: Omit<QueryParams<OperationOf<P, 'get'>>, 'cursor'>,
  ): AsyncGenerator<CursorItem<P>, void, undefined> {
    return iterateCursor((cursor) =>
      this.transport.send<CursorPage<CursorItem<P>>>({ method: 'get', path, query: { ...query, cursor } }),
    );
  }

  readonly emails = {
    /** `POST /v1/send`: one content to 1–50 recipients (Plunk's body). */
    send: (body: Body<'sendExecute'>, options: IdempotentOptions = {}): Promise<Result<'sendExecute'>> =>
      this.transport.send({
        method: 'post',
        path: '/v1/send',
        body,
        idempotencyKey: options.idempotencyKey ?? 'auto',
        signal: options.signal,
      }),
    /** `POST /v1/send/batch`: up to 100 `/v1/send` bodies, answered per item (Resend's batch). */
    sendBatch: (items: Body<'sendExecuteBatch'>, options: BatchOptions = {}): Promise<Result<'sendExecuteBatch'>> =>
      this.transport.send({
        method: 'post',
        path: '/v1/send/batch',
        body: items,
        headers: options.validation ? { 'x-batch-validation': options.validation } : undefined,
        idempotencyKey: options.idempotencyKey ?? 'auto',
        signal: options.signal,
      }),
    get: (id: Id): Promise<Result<'emailsGet'>> => this.transport.send({ method: 'get', path: `/emails/${at(id)}` }),
    list: (query?: Query<'emailsList'>): Promise<Result<'emailsList'>> =>
      this.transport.send({ method: 'get', path: '/emails', query }),
  };

  readonly events = {
    /** `POST /v1/track`: records an event for a contact (created when new); works with the public key. */
    track: (body: Body<'eventsTrack'>, options: IdempotentOptions = {}): Promise<Result<'eventsTrack'>> =>
      this.transport.send({
        method: 'post',
        path: '/v1/track',
        body,
        idempotencyKey: options.idempotencyKey ?? 'auto',
        signal: options.signal,
      }),
  };

  readonly contacts = {
    /** Creates the contact, or updates the one with that email (`POST /contacts`). */
    create: (body: Body<'contactsUpsert'>): Promise<Result<'contactsUpsert'>> =>
      this.transport.send({ method: 'post', path: '/contacts', body }),
    get: (id: Id): Promise<Result<'contactsGet'>> =>
      this.transport.send({ method: 'get', path: `/contacts/${at(id)}` }),
    update: (id: Id, body: Body<'contactsUpdate'>): Promise<Result<'contactsUpdate'>> =>
      this.transport.send({ method: 'patch', path: `/contacts/${at(id)}`, body }),
    delete: (id: Id): Promise<Result<'contactsDelete'>> =>
      this.transport.send({ method: 'delete', path: `/contacts/${at(id)}` }),
    /** One page (`limit`, `cursor`); `listAll` iterates every page. */
    list: (query?: Query<'contactsList'>): Promise<Result<'contactsList'>> =>
      this.transport.send({ method: 'get', path: '/contacts', query }),
    listAll: (query?: Omit<Query<'contactsList'>, 'cursor'>) => this.paginate('/contacts', query),
    /**
     * `POST /contacts/import`: uploads a CSV file (multipart/form-data, at most 5 MB, an `email` column)
     * and answers `{jobId}` at once; `importStatus(jobId)` follows the job (progress, then its counts and per-row errors).
     */
    import: (
      file: Blob,
      options: Query<'contactImportsStart'> & { filename?: string; signal?: AbortSignal } = {},
    ): Promise<Result<'contactImportsStart'>> => {
      const { filename, signal, ...query } = options;
      const form = new FormData();
      form.append('file', file, filename ?? 'contacts.csv');
      return this.transport.send({ method: 'post', path: '/contacts/import', query, body: form, signal });
    },
    importStatus: (jobId: Id): Promise<Result<'contactImportsGet'>> =>
      this.transport.send({ method: 'get', path: `/contacts/import/${at(jobId)}` }),
  };

  readonly campaigns = {
    create: (body: Body<'campaignsCreate'>): Promise<Result<'campaignsCreate'>> =>
      this.transport.send({ method: 'post', path: '/campaigns', body }),
    get: (id: Id): Promise<Result<'campaignsGet'>> =>
      this.transport.send({ method: 'get', path: `/campaigns/${at(id)}` }),
    update: (id: Id, body: Body<'campaignsReplace'>): Promise<Result<'campaignsReplace'>> =>
      this.transport.send({ method: 'put', path: `/campaigns/${at(id)}`, body }),
    /** Sends now, or at `scheduledFor`. */
    send: (id: Id, body: Body<'deliverySend'> = {}): Promise<Result<'deliverySend'>> =>
      this.transport.send({ method: 'post', path: `/campaigns/${at(id)}/send`, body }),
    /** One page (`page`, `limit`); `listAll` iterates every page. */
    list: (query?: Query<'campaignsList'>): Promise<Result<'campaignsList'>> =>
      this.transport.send({ method: 'get', path: '/campaigns', query }),
    listAll: (query?: Omit<Query<'campaignsList'>, 'page' | 'cursor'>) =>
      iteratePages(async (page) => {
        const answer = await this.campaigns.list({ ...query, page });
        return { items: answer.campaigns, page: answer.page, totalPages: answer.totalPages };
      }),
  };

  readonly workflows = {
    create: (body: Body<'workflowsCreate'>): Promise<Result<'workflowsCreate'>> =>
      this.transport.send({ method: 'post', path: '/workflows', body }),
    get: (id: Id): Promise<Result<'workflowsGet'>> =>
      this.transport.send({ method: 'get', path: `/workflows/${at(id)}` }),
    update: (id: Id, body: Body<'workflowsUpdate'>): Promise<Result<'workflowsUpdate'>> =>
      this.transport.send({ method: 'patch', path: `/workflows/${at(id)}`, body }),
    delete: (id: Id): Promise<Result<'workflowsRemove'>> =>
      this.transport.send({ method: 'delete', path: `/workflows/${at(id)}` }),
    list: (): Promise<Result<'workflowsList'>> => this.transport.send({ method: 'get', path: '/workflows' }),
  };
}

/** The options argument of `request()`: required when the operation has path parameters or a body. */
type RequestOptionsArg<O> =
  Partial<RequestOptions<O>> extends RequestOptions<O> ? [options?: RequestOptions<O>] : [options: RequestOptions<O>];

/** GET paths whose answer is a cursor page (`{data: T[], cursor}`). */
export type CursorListPath = {
  [P in PathsWithMethod<'get'>]: SuccessBody<OperationOf<P, 'get'>> extends { data: unknown[]; cursor: string | null }
    ? P
    : never;
}[PathsWithMethod<'get'>];
type CursorItem<P extends CursorListPath> =
  SuccessBody<OperationOf<P, 'get'>> extends { data: (infer T)[] } ? T : never;

export type { paths };

import pg from 'pg';
import { accountWithProject, bearer, createProject, eventually } from '@herald/testing';

/** Shapes of the contacts API responses these specs read. */
export interface ContactBody {
  id: string;
  email: string;
  subscribed: boolean;
  data: Record<string, unknown>;
  createdAt: string;
  updatedAt: string;
  _meta?: { isNew: boolean; isUpdate: boolean };
}

export interface CursorPageBody<T> {
  data: T[];
  cursor: string | null;
  hasMore: boolean;
  total: number;
}

export interface FieldBody {
  field: string;
  type: 'string' | 'number' | 'boolean' | 'date';
  isCustom: boolean;
  coverage: number;
}

/** Herald's error body (docs/errors.md): the standard one, with `code` and `time` on the public API (`/v1/…`) only. */
export interface ErrorBody {
  success: false;
  /** Always `error.message` (what Plunk's clients read). */
  message: string;
  error: {
    code: string;
    message: string;
    statusCode: number;
    requestId: string;
    errors?: { field: string; message: string; code: string }[];
    suggestion?: string;
  };
  timestamp: string;
  /** `/v1/…` only: the HTTP status. */
  code?: number;
  /** `/v1/…` only: epoch milliseconds. */
  time?: number;
}

export interface ImportJobBody {
  jobId: string;
  status: 'queued' | 'completed' | 'failed';
  totalRows: number;
  imported: number;
  updated: number;
  skipped: number;
  errors: ImportRowBody[];
  progress: { processedRows: number; percent: number };
  /** `?verify=true` only. */
  verification?: {
    skipInvalid: boolean;
    checked: number;
    passed: number;
    counts: Record<'invalid_domain' | 'disposable' | 'typo' | 'role_address' | 'unverified', number>;
  };
  /** `?verify=true` only. */
  warnings?: ImportRowBody[];
}

export interface ImportRowBody {
  row: number;
  email: string;
  reason: string;
  suggestion?: string;
}

export interface BulkJobBody {
  jobId: string;
  status: 'queued' | 'completed' | 'failed';
  total: number;
  succeeded: number;
  unchanged: number;
  failed: number;
  errors: { contactId: string; reason: string }[];
}

export interface TrackedEventBody {
  id: string;
  name: string;
  contactId: string;
  data: Record<string, unknown>;
  /** Recorded by Herald itself (email.*, contact.subscribed, contact.unsubscribed). */
  system: boolean;
  createdAt: string;
}

/** A response body read loosely in assertions (typed with the interfaces above where it matters). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Json = any;

export interface Reply<T = Json> {
  status: number;
  body: T;
}

/**
 * A project's API as an integration sees it: every call authenticated with one key, JSON in and
 * out, answering `{status, body}` so a test can assert both in one line.
 */
export class ProjectApi {
  constructor(
    readonly baseUrl: string,
    readonly key: string,
  ) {}

  async call<T = Json>(method: string, path: string, body?: unknown): Promise<Reply<T>> {
    const res = await fetch(`${this.baseUrl}${path}`, {
      method,
      headers: body === undefined ? { authorization: `Bearer ${this.key}` } : bearer(this.key),
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : undefined };
  }

  get = <T = Json>(path: string) => this.call<T>('GET', path);
  post = <T = Json>(path: string, body: unknown = {}) => this.call<T>('POST', path, body);
  patch = <T = Json>(path: string, body: unknown) => this.call<T>('PATCH', path, body);
  delete = <T = Json>(path: string) => this.call<T>('DELETE', path);

  /** POST /contacts and insist on success (201 or 200). */
  async upsert(
    email: string,
    data?: Record<string, unknown>,
    extra: { subscribed?: boolean } = {},
  ): Promise<ContactBody> {
    const res = await this.post<ContactBody>('/contacts', { email, ...(data === undefined ? {} : { data }), ...extra });
    if (res.status !== 201 && res.status !== 200)
      throw new Error(`POST /contacts answered ${res.status}: ${JSON.stringify(res.body)}`);
    return res.body;
  }

  async contact(id: string): Promise<ContactBody> {
    const res = await this.get<ContactBody>(`/contacts/${id}`);
    if (res.status !== 200) throw new Error(`GET /contacts/${id} answered ${res.status}`);
    return res.body;
  }

  /**
   * Every page of a cursor-paged list, in order: `path` (with its own query) asked with `limit`, then
   * with each page's cursor while it has more. Each answer as it came (a non-200 one ends the walk).
   */
  async pages<T>(path: string, limit: number): Promise<Reply<CursorPageBody<T>>[]> {
    const [route, query = ''] = path.split('?') as [string, string?];
    const pages: Reply<CursorPageBody<T>>[] = [];
    let cursor: string | null = null;
    do {
      const qs = new URLSearchParams(query);
      qs.set('limit', String(limit));
      if (cursor) qs.set('cursor', cursor);
      const res: Reply<CursorPageBody<T>> = await this.get(`${route}?${qs}`);
      pages.push(res);
      cursor = res.status === 200 && res.body.hasMore ? res.body.cursor : null;
    } while (cursor);
    return pages;
  }

  /** Every contact of the project, walking the cursor pages. */
  async allContacts(query = ''): Promise<ContactBody[]> {
    const pages = await this.pages<ContactBody>(`/contacts?${query}`, 100);
    const failed = pages.find((p) => p.status !== 200);
    if (failed) throw new Error(`GET /contacts answered ${failed.status}`);
    return pages.flatMap((p) => p.body.data);
  }

  async fields(): Promise<FieldBody[]> {
    const res = await this.get<{ fields: FieldBody[] }>('/contacts/fields');
    if (res.status !== 200) throw new Error(`GET /contacts/fields answered ${res.status}`);
    return res.body.fields;
  }

  async field(path: string): Promise<FieldBody | undefined> {
    return (await this.fields()).find((f) => f.field === path);
  }

  /** POST /contacts/import with `file` as the multipart file part (built with FormData and Blob); `query` e.g. `verify=true`. */
  async importCsv(file: string | Uint8Array, fileName = 'contacts.csv', query = ''): Promise<Reply> {
    const form = new FormData();
    form.append('file', new Blob([file], { type: 'text/csv' }), fileName);
    return this.multipart(form, query);
  }

  async multipart(form: FormData, query = ''): Promise<Reply> {
    const res = await fetch(`${this.baseUrl}/contacts/import${query ? `?${query}` : ''}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${this.key}` },
      body: form,
    });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : undefined };
  }

  /** Imports a CSV (with the import's `query`, e.g. `verify=true`) and waits for the job to complete; returns the finished job. */
  async importAndWait(csv: string, query = ''): Promise<ImportJobBody> {
    const started = await this.importCsv(csv, 'contacts.csv', query);
    if (started.status !== 202)
      throw new Error(`POST /contacts/import answered ${started.status}: ${JSON.stringify(started.body)}`);
    return this.waitForJob<ImportJobBody>(`/contacts/import/${started.body.jobId}`);
  }

  /** Polls a job until it is no longer queued (deadline from `eventually`). */
  async waitForJob<T extends { status: string }>(path: string): Promise<T> {
    return eventually(
      async () => {
        const res = await this.get<T>(path);
        return res.status === 200 && res.body.status !== 'queued' ? res.body : undefined;
      },
      { timeoutMs: 45_000, message: `${path} never left status queued` },
    );
  }

  /** Starts a bulk job and waits for it. */
  async bulk(action: 'subscribe' | 'unsubscribe' | 'delete', contactIds: string[]): Promise<BulkJobBody> {
    const started = await this.post<{ jobId: string }>(`/contacts/bulk-${action}`, { contactIds });
    if (started.status !== 202)
      throw new Error(`bulk-${action} answered ${started.status}: ${JSON.stringify(started.body)}`);
    return this.waitForJob<BulkJobBody>(`/contacts/bulk/${started.body.jobId}`);
  }

  async track(body: Record<string, unknown>): Promise<Reply> {
    return this.post('/v1/track', body);
  }
}

export type TestProjectApi = ProjectApi & { publicKey: string; projectId: string; cookie: string };

/**
 * A new project and its API under the secret key: for a fresh account, or (cheaper: no password
 * hashing) another project of the account whose session `cookie` is given.
 */
export async function newProject(baseUrl: string, cookie?: string): Promise<TestProjectApi> {
  const p = cookie ? { cookie, ...(await createProject(baseUrl, cookie)) } : await accountWithProject(baseUrl);
  return Object.assign(new ProjectApi(baseUrl, p.secretKey), {
    publicKey: p.publicKey,
    projectId: p.projectId,
    cookie: p.cookie,
  });
}

/** The field names of a 422 answer. */
export const fieldsOf = (body: ErrorBody): string[] => (body.error.errors ?? []).map((e) => e.field);

/**
 * An error answer as a caller reads it, with the id it was given written `<id>` (the request id and
 * time left out): a refusal of another project's id must read exactly as that of an unknown one.
 */
export const refusalOf = (status: number, body: ErrorBody, id: string) => ({
  status,
  error: JSON.parse(
    JSON.stringify({
      code: body.error.code,
      message: body.error.message,
      statusCode: body.error.statusCode,
      errors: body.error.errors,
    }).replaceAll(id, '<id>'),
  ) as unknown,
});

/** Reads `contacts.outbox` directly: the events the contacts service committed with its changes. */
export class Outbox {
  private readonly pool: pg.Pool;

  constructor(databaseUrl: string) {
    this.pool = new pg.Pool({ connectionString: databaseUrl, max: 2 });
  }

  /** Envelopes with one of `topics` whose payload names one of `contactIds`, in commit order. */
  async events(
    topics: string[],
    contactIds: string[],
  ): Promise<{ topic: string; contactId: string; payload: Record<string, unknown> }[]> {
    const { rows } = await this.pool.query<{ topic: string; payload: Record<string, unknown> }>(
      `SELECT topic, envelope->'payload' AS payload FROM contacts.outbox
        WHERE topic = ANY($1::varchar[]) AND envelope->'payload'->>'contactId' = ANY($2::varchar[]) ORDER BY id`,
      [topics, contactIds],
    );
    return rows.map((r) => ({ topic: r.topic, contactId: r.payload.contactId as string, payload: r.payload }));
  }

  end(): Promise<void> {
    return this.pool.end();
  }
}

/** A CSV document from rows of cells (no quoting needed by these specs). */
export const csv = (...rows: (string | number)[][]): string => rows.map((r) => r.join(',')).join('\n') + '\n';

import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';

/** One HTTP answer as a client received it, with the request it answered. */
export interface ObservedAnswer {
  /** Upper-case HTTP method of the request. */
  method: string;
  /** The request's path (`/contacts/abc`), without the query. */
  path: string;
  status: number;
  /** The `Content-Type` header, if any. */
  contentType: string | null;
  /** The body as text ('' when none). */
  body: string;
}

type Json = Record<string, unknown>;

interface Operation {
  template: string;
  method: string;
  responses: Record<string, Json>;
}

/** The content of the document every validator refers into (its `#/components/...` references resolve there). */
const DOCUMENT_ID = 'https://herald.invalid/openapi.json';

/** The services' internal routes (`@Internal()`, service-to-service only). */
const INTERNAL = /^\/internal\//;

/**
 * The dashboard's files (`/`, `/app/…` client routes, `/assets/<file>`; ADR 0028): a web app the edge
 * serves beside the API, not operations of it. Their successes are not the document's to describe;
 * a missing file still answers the standard error body.
 */
const DASHBOARD = /^\/(app(\/.*)?|assets\/[^/]+)?$/;

const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options', 'trace'];

/** `/contacts/{id}` → a matcher; literal segments rank before parameters (`/contacts/fields` before `/contacts/{id}`). */
function matcherOf(template: string): { regex: RegExp; rank: string } {
  const segments = template.split('/').slice(1);
  const pattern = segments
    .map((s) => (/^\{[^}]+\}$/.test(s) ? '[^/]+' : s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join('/');
  return {
    regex: new RegExp(`^/${pattern}/?$`),
    rank: segments.map((s) => (s.startsWith('{') ? '1' : '0')).join(''),
  };
}

const pointer = (...parts: string[]): string =>
  parts.map((p) => encodeURIComponent(p.replace(/~/g, '~0').replace(/\//g, '~1'))).join('/');

const isJson = (mediaType: string) => mediaType === 'application/json' || mediaType.endsWith('+json');

const clip = (text: string, n = 300) => (text.length > n ? `${text.slice(0, n)}…` : text);

/**
 * Herald's OpenAPI document (docs/openapi.json) as a checker of answers: which documented operation
 * a request was (method and path template), and whether the answer is one the document allows for
 * it — a documented status (else `4XX`/`default`), a documented media type, and a JSON body valid
 * against the response's schema (JSON Schema 2020-12, ajv). Requests the document does not describe
 * (an undocumented path or method: `/internal/*`, hostile paths) are held to one rule: their answer
 * is an error carrying the standard `ErrorBody` — except a success of an internal route (`/internal/`,
 * the services' own contract, which a standalone process serves to callers with the internal secret)
 * and a success of the dashboard's files (GET /, /app/…, /assets/…). OPTIONS (CORS preflights) and HEAD are HTTP's own
 * and not checked. Each response schema is compiled once per instance, when first needed.
 */
export class OpenApiContract {
  private readonly ajv: Ajv2020;
  private readonly operations: (Operation & { regex: RegExp; rank: string })[] = [];
  private readonly validators = new Map<string, ValidateFunction>();

  constructor(private readonly document: Json) {
    this.ajv = new Ajv2020({ strict: false, allErrors: true, logger: false });
    addFormats.default(this.ajv);
    this.ajv.addSchema({ ...document, $id: DOCUMENT_ID });
    const paths = (document.paths ?? {}) as Record<string, Record<string, Json>>;
    for (const [template, ops] of Object.entries(paths))
      for (const [method, op] of Object.entries(ops))
        if (METHODS.includes(method))
          this.operations.push({
            template,
            method: method.toUpperCase(),
            responses: (op.responses ?? {}) as Record<string, Json>,
            ...matcherOf(template),
          });
    this.operations.sort((a, b) => a.rank.localeCompare(b.rank));
  }

  /** The committed document of the repository at `root`. */
  static load(root = process.cwd()): OpenApiContract {
    return new OpenApiContract(JSON.parse(readFileSync(path.join(root, 'docs/openapi.json'), 'utf8')) as Json);
  }

  /** What is wrong with `answer` by the document, or undefined when nothing is. */
  problemOf(answer: ObservedAnswer): string | undefined {
    const method = answer.method.toUpperCase();
    if (method === 'OPTIONS' || method === 'HEAD') return undefined;
    const candidates = this.operations.filter((o) => o.regex.test(answer.path));
    const operation = candidates.find((o) => o.method === method);
    const request = `${method} ${answer.path}`;
    if (!operation) return this.undocumentedProblem(request, answer);
    const where = `${request} (${operation.method} ${operation.template}) answered ${answer.status}`;
    const statusKey = [String(answer.status), `${String(answer.status)[0]}XX`, 'default'].find(
      (k) => operation.responses[k] !== undefined,
    );
    if (!statusKey)
      return `${where}: the document lists only ${Object.keys(operation.responses).join(', ')}; body ${clip(answer.body)}`;
    const { response, at } = this.responseAt(operation, statusKey);
    const content = response.content as Record<string, Json> | undefined;
    if (!content) {
      return answer.body.length === 0
        ? undefined
        : `${where}: the document gives no body for ${statusKey}, the answer has one (${answer.contentType}): ${clip(answer.body)}`;
    }
    const mediaType = (answer.contentType ?? '').split(';', 1)[0]!.trim().toLowerCase();
    const documented = Object.keys(content);
    const key =
      documented.find((k) => k.toLowerCase() === mediaType) ??
      documented.find((k) => k.endsWith('/*') && mediaType.startsWith(k.slice(0, -1))) ??
      documented.find((k) => k === '*/*');
    if (!key)
      return `${where}: Content-Type ${answer.contentType ?? '(none)'}, the document gives ${documented.join(', ')} for ${statusKey}`;
    if (!isJson(key.toLowerCase())) return undefined;
    let body: unknown;
    try {
      body = JSON.parse(answer.body);
    } catch {
      return `${where}: the body is not JSON: ${clip(answer.body)}`;
    }
    const validate = this.validatorAt(`${at}/${pointer('content', key, 'schema')}`);
    if (validate(body)) return undefined;
    return `${where}: the body does not match responses.${statusKey} (${key}): ${this.errorsOf(validate)}; body ${clip(answer.body)}`;
  }

  /** A request the document does not describe: only an error with the standard body is allowed. */
  private undocumentedProblem(request: string, answer: ObservedAnswer): string | undefined {
    const where = `${request} (not in the document) answered ${answer.status}`;
    // the services' own calls (libs/contracts/internal), which the standalone process also serves to
    // a caller with the internal secret: not the public API, only its errors are the standard body
    if (answer.status < 400 && INTERNAL.test(answer.path)) return undefined;
    if (answer.status < 400 && answer.method.toUpperCase() === 'GET' && DASHBOARD.test(answer.path)) return undefined;
    if (answer.status < 400) return `${where}: only errors may answer a route the document does not describe`;
    let body: unknown;
    try {
      body = JSON.parse(answer.body);
    } catch {
      return `${where}: the body is not the standard error body (JSON): ${clip(answer.body)}`;
    }
    const validate = this.validatorAt(pointer('components', 'schemas', 'ErrorBody'));
    return validate(body) ? undefined : `${where}: not the standard error body: ${this.errorsOf(validate)}`;
  }

  /** A response object, its `$ref` (to `components.responses`) followed, and the pointer to where it is. */
  private responseAt(operation: Operation, statusKey: string): { response: Json; at: string } {
    const ref = operation.responses[statusKey]!.$ref as string | undefined;
    if (!ref) {
      const at = pointer('paths', operation.template, operation.method.toLowerCase(), 'responses', statusKey);
      return { response: operation.responses[statusKey]!, at };
    }
    const parts = ref.replace(/^#\//, '').split('/');
    let node: unknown = this.document;
    for (const part of parts) node = (node as Json)[part.replace(/~1/g, '/').replace(/~0/g, '~')];
    return { response: node as Json, at: parts.join('/') };
  }

  /** The compiled schema at a JSON pointer of the document (a `$ref`'d response's once for every operation). */
  private validatorAt(schemaPointer: string): ValidateFunction {
    let validate = this.validators.get(schemaPointer);
    if (!validate) {
      validate = this.ajv.compile({ $ref: `${DOCUMENT_ID}#/${schemaPointer}` });
      this.validators.set(schemaPointer, validate);
    }
    return validate;
  }

  private errorsOf(validate: ValidateFunction): string {
    return (validate.errors ?? [])
      .slice(0, 5)
      .map((e) => `${e.instancePath || '(root)'} ${e.message ?? ''}${e.params ? ` ${JSON.stringify(e.params)}` : ''}`)
      .join('; ');
  }
}

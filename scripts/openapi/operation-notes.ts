import type { Schema } from './ts-types.js';

export const DOCUMENT_INFO = {
  title: 'Herald API',
  summary: 'Self-hostable email platform: transactional sends, contacts, events, campaigns, workflows',
  description: [
    'Generated from the code (`npm run openapi`); served at `GET /openapi.json`, rendered at `GET /docs`.',
    '',
    'Quick start: send an email, then track an event (which can start a workflow):',
    '',
    '```sh',
    'curl -X POST $HERALD/v1/send -H "Authorization: Bearer sk_…" -H "Content-Type: application/json" \\',
    '  -d \'{"to":"ada@example.com","subject":"Welcome","body":"<p>Hello!</p>"}\'',
    'curl -X POST $HERALD/v1/track -H "Authorization: Bearer pk_…" -H "Content-Type: application/json" \\',
    '  -d \'{"email":"ada@example.com","event":"signed-up"}\'',
    '```',
    '',
    'Errors share one body (`ErrorBody`); docs/errors.md lists the codes.',
  ].join('\n'),
  license: { name: 'UNLICENSED', identifier: 'UNLICENSED' },
};

export const SECURITY_SCHEMES = {
  secretKey: {
    type: 'http',
    scheme: 'bearer',
    description: "The project's secret key (`sk_…`): every project-scoped route. Server side only.",
  },
  publicKey: {
    type: 'http',
    scheme: 'bearer',
    description: "The project's public key (`pk_…`): `POST /v1/track` only, safe in a browser.",
  },
  session: {
    type: 'apiKey',
    in: 'cookie',
    name: 'herald_session',
    description: 'A dashboard session (`POST /auth/login` sets it).',
  },
  projectId: {
    type: 'apiKey',
    in: 'header',
    name: 'X-Project-Id',
    description: 'With a session, the project a project-scoped request acts on (the user must be a member).',
  },
};

/** What the code cannot say about an operation: examples, and bodies not checked by a DTO class. */
export interface OperationNote {
  /** Else the handler's name, in words. */
  summary?: string;
  body?: Schema;
  requestType?: string;
  example?: unknown;
  response?: Schema;
  responseType?: string;
  responseDescription?: string;
  responseExample?: unknown;
  /**
   * Answers Nest's metadata and the return type cannot show — those of a handler that writes its own
   * reply (`@Res()`), or one success answered in more than one media type: status → response object,
   * in place of the generated success answer and of the generated answer of the same status.
   */
  answers?: Record<string, Schema>;
}

const mailbox: Schema = {
  anyOf: [
    { type: 'string', format: 'email' },
    {
      type: 'object',
      properties: { email: { type: 'string', format: 'email' }, name: { type: 'string' } },
      required: ['email'],
    },
  ],
};

/** The raw /v1/send body that parseSendRequest (send-request.ts) checks: Plunk's field names. */
const sendBody: Schema = {
  type: 'object',
  properties: {
    to: { anyOf: [mailbox, { type: 'array', items: mailbox, minItems: 1 }] },
    template: { type: 'string', description: 'A template id: its subject and body, rendered with `data`' },
    subject: { type: 'string' },
    body: { type: 'string' },
    type: { type: 'string', enum: ['html', 'markdown'], description: 'The format of `body`' },
    from: mailbox,
    reply: { type: 'string', format: 'email' },
    data: { type: 'object', additionalProperties: true },
    subscribed: { type: 'boolean' },
    headers: { type: 'object', additionalProperties: { type: 'string' } },
    attachments: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          filename: { type: 'string' },
          content: { type: 'string', contentEncoding: 'base64' },
          contentType: { type: 'string' },
        },
        required: ['filename', 'content'],
      },
    },
  },
  required: ['to'],
};

const multipartFile = (field: string): Schema => ({
  type: 'object',
  properties: { [field]: { type: 'string', contentMediaType: 'application/octet-stream' } },
  required: [field],
});

const html = (description: string): Schema => ({
  description,
  content: { 'text/html': { schema: { type: 'string' } } },
});

/** The subscription pages of the links in emails (LinksController): a page, or the invalid-link page. */
const linkPage = (description: string): Record<string, Schema> => ({
  200: html(description),
  404: html('The link is forged or altered, or its contact or email is gone: a page saying so'),
});

const healthReport = (description: string): Schema => ({
  description,
  content: { 'application/json': { schema: { $ref: '#/components/schemas/HealthReport' } } },
});

export const OPERATION_NOTES: Record<string, OperationNote> = {
  'SendController.execute': {
    summary: 'Send a transactional email',
    body: sendBody,
    example: { to: 'ada@example.com', subject: 'Welcome', body: '<p>Hello {{name}}!</p>', data: { name: 'Ada' } },
  },
  'SendController.executeBatch': {
    summary: 'Send up to 100 emails in one request',
    body: {
      type: 'array',
      items: sendBody,
      minItems: 1,
      maxItems: 100,
      description:
        'Each item a full /v1/send body; errors are named `items[<i>].<field>`. Header `x-batch-validation`: `strict` (default) or `permissive`.',
    },
    example: [
      { to: 'ada@example.com', from: 'hello@example.com', subject: 'Welcome', body: '<p>Hello!</p>' },
      { to: 'grace@example.com', template: 'tpl_…', data: { plan: 'pro' } },
    ],
  },
  'EventsController.track': {
    summary: 'Track an event for a contact',
    example: { email: 'ada@example.com', event: 'signed-up', data: { plan: 'pro' } },
  },
  'UploadsController.upload': { body: multipartFile('file'), requestType: 'multipart/form-data' },
  'ContactImportsController.start': { body: multipartFile('file'), requestType: 'multipart/form-data' },
  'RecipientsController.recipientsCsv': { response: { type: 'string' }, responseType: 'text/csv' },
  'LinksController.open': {
    summary: 'Open-tracking pixel',
    answers: {
      200: {
        description: 'A transparent 1×1 GIF (the open is recorded when the link is valid)',
        content: { 'image/gif': { schema: { type: 'string', contentMediaType: 'image/gif' } } },
      },
    },
  },
  'LinksController.click': {
    summary: 'Tracked link',
    answers: {
      302: {
        description: 'The click is recorded; redirects to the target the signed link names',
        headers: { Location: { description: "The link's target", schema: { type: 'string', format: 'uri' } } },
      },
      404: html('The link is forged or altered, or its target is not an http(s) URL: a page saying so'),
    },
  },
  'OAuthController.start': {
    summary: 'Start an OAuth login (GitHub or Google)',
    answers: {
      302: {
        description:
          "To the provider's consent page with a fresh `state`, also set in the short-lived `herald_oauth_state` cookie; a provider not configured: to `/app/login?oauth_error=provider`",
        headers: { Location: { description: 'Where the browser goes next', schema: { type: 'string' } } },
      },
    },
  },
  'OAuthController.callback': {
    summary: "The provider's answer to an OAuth login",
    answers: {
      302: {
        description:
          "Signed in (the session cookie set as by POST /auth/login): to `/app/projects`. Refused: to `/app/login?oauth_error=` `state` (not this browser's login), `denied` (consent refused), `unverified` (the provider has not verified the address), `no_email`, `signups_disabled` or `provider` (the provider failed or is not configured)",
        headers: { Location: { description: 'Where the browser goes next', schema: { type: 'string' } } },
      },
    },
  },
  'LinksController.unsubscribeForm': { answers: linkPage('The unsubscribe page (a form to confirm)') },
  'LinksController.unsubscribe': {
    summary: 'Unsubscribe (RFC 8058 one-click)',
    answers: linkPage('Unsubscribed: a page saying so'),
  },
  'LinksController.subscribeForm': { answers: linkPage('The subscribe page (a form to confirm)') },
  'LinksController.subscribe': { answers: linkPage('Subscribed: a page saying so') },
  'LinksController.manage': { answers: linkPage('The subscription preferences page') },
  'LinksController.manageChange': { answers: linkPage('The preference is changed: a page saying so') },
  'UploadsController.serve': {
    summary: 'An uploaded image',
    answers: {
      200: {
        description: 'The image as uploaded (PNG, JPEG, GIF or WebP), immutable',
        content: { 'image/*': { schema: { type: 'string', contentMediaType: 'application/octet-stream' } } },
      },
    },
  },
  'HealthController.ready': {
    summary: 'Readiness',
    answers: {
      200: healthReport('Every dependency of the process is up'),
      503: healthReport('A dependency is down, or the process is starting or shutting down'),
    },
  },
  'ApiReferenceController.page': {
    summary: 'API reference page',
    response: { type: 'string' },
    responseType: 'text/html',
    responseDescription: 'Swagger UI rendering `GET /openapi.json`; nothing is loaded from another origin',
  },
  'ApiReferenceController.asset': {
    summary: "API reference page's file",
    answers: {
      200: {
        description: 'A script (`text/javascript`) or the stylesheet (`text/css`) of the page',
        content: { 'text/javascript': { schema: { type: 'string' } }, 'text/css': { schema: { type: 'string' } } },
      },
    },
  },
  'OpenApiController.openapi': {
    summary: 'This OpenAPI document',
    // the handler answers the committed file's text: JSON, an OpenAPI 3.1 document
    response: {
      type: 'object',
      properties: {
        openapi: { type: 'string', pattern: '^3\\.1\\.' },
        info: { type: 'object' },
        paths: { type: 'object' },
      },
      required: ['openapi', 'info', 'paths'],
    },
    responseDescription: 'The OpenAPI 3.1 document of this API (what `npm run openapi` writes to docs/openapi.json)',
  },
};

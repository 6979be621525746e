import { WEBHOOK_EVENTS, WEBHOOK_TEST_EVENT } from '@herald/contracts';
import type { Schema } from './ts-types.js';

/** `email.delivered` → `EmailDelivered`. */
const pascal = (type: string): string =>
  type.replace(/(^|[._-])([a-z])/g, (_, __: string, c: string) => c.toUpperCase());

const HEADERS = [
  { name: 'webhook-id', description: "The event's id: the same in every attempt and replay; de-duplicate on it." },
  { name: 'webhook-timestamp', description: 'When this attempt was signed, in Unix seconds.' },
  {
    name: 'webhook-signature',
    description:
      'Space-separated `v1,<base64 HMAC-SHA256 of "<webhook-id>.<webhook-timestamp>.<body>">`, keyed by the base64-decoded `whsec_` secret (two during a rotation). Verify with any Standard Webhooks library.',
  },
].map((h) => ({ ...h, in: 'header', required: true, schema: { type: 'string' } }));

/** The body of a delivery of `type` (docs/webhooks-out.md): the envelope around the event contract's payload. */
function payloadSchema(type: string, version: number, data: Schema): Schema {
  return {
    type: 'object',
    required: ['type', 'version', 'id', 'timestamp', 'projectId', 'data'],
    properties: {
      type: { const: type },
      version: { const: version, description: "The version of `data`'s contract." },
      id: { type: 'string', format: 'uuid', description: "The event's id (`webhook-id`)." },
      timestamp: { type: 'string', format: 'date-time', description: 'When the event happened.' },
      projectId: { type: 'string' },
      data: data,
    },
  };
}

/**
 * The OpenAPI 3.1 `webhooks` of the document: what Herald POSTs to a project's endpoints, one
 * operation per event type of WEBHOOK_EVENTS (@herald/contracts) and the test event, each body's
 * `data` the event contract's payload schema (its class-validator class, from `dtos`). Answers the
 * webhooks and the component schemas they refer to.
 */
export function webhookOperations(dtos: Record<string, Schema>): {
  webhooks: Record<string, unknown>;
  schemas: Record<string, Schema>;
} {
  const schemas: Record<string, Schema> = {};
  const webhooks: Record<string, unknown> = {};
  const entries: [string, number, Schema, string][] = Object.entries(WEBHOOK_EVENTS).map(([type, contract]) => {
    const payload = contract.payloadClass.name;
    if (dtos[payload]) schemas[payload] = dtos[payload];
    return [
      type,
      contract.version,
      { $ref: `#/components/schemas/${payload}` },
      `The \`${type}\` event (its Kafka contract's payload in \`data\`).`,
    ];
  });
  entries.push([
    WEBHOOK_TEST_EVENT,
    1,
    { type: 'object', properties: { endpointId: { type: 'string' }, message: { type: 'string' } } },
    'The test event of `POST /webhooks/endpoints/{id}/test`, sent whatever the endpoint subscribes to.',
  ]);
  for (const [type, version, data, description] of entries) {
    const name = `Webhook${pascal(type)}`;
    schemas[name] = payloadSchema(type, version, data);
    webhooks[type] = {
      post: {
        operationId: `webhook${pascal(type)}`,
        summary: type,
        description: `${description} Signed by the Standard Webhooks scheme; retried on anything but a 2xx answer (docs/webhooks-out.md).`,
        tags: ['webhooks'],
        parameters: HEADERS,
        requestBody: {
          required: true,
          content: { 'application/json': { schema: { $ref: `#/components/schemas/${name}` } } },
        },
        responses: {
          '2XX': { description: 'Delivered: any 2xx answer. Anything else, or no answer in time, is retried.' },
        },
      },
    };
  }
  return { webhooks, schemas };
}

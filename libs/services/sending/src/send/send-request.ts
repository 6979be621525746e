import { dataObjectProblem, isValidEmail, normaliseEmail } from '@herald/contact-data';
import type { FieldProblem as FieldError } from '@herald/core';
import { BODY_FORMATS, type BodyFormat } from '@herald/templating';

/** One address with an optional display name. */
export interface Mailbox {
  email: string;
  name?: string;
}

export interface AttachmentInput {
  filename: string;
  /** base64 */
  content: string;
  contentType?: string;
  /** decoded size in bytes */
  size: number;
}

/** A /v1/send request after validation (field names follow Plunk's public API). */
export interface SendRequest {
  to: Mailbox[];
  template?: string;
  subject?: string;
  body?: string;
  /** The format of `body` (Plunk's `type`): `html`, or `markdown` converted to HTML. Describes `body` only. */
  type?: BodyFormat;
  from?: Mailbox;
  reply?: string;
  data?: Record<string, unknown>;
  subscribed?: boolean;
  headers: Record<string, string>;
  attachments: AttachmentInput[];
}

export const SEND_LIMITS = {
  recipients: 50,
  attachments: 10,
  subject: 998,
  headerValue: 998,
  message: 40 * 1024 * 1024,
} as const;

/** Headers Herald writes itself; a request cannot set them. */
const RESERVED_HEADERS = new Set([
  'from',
  'to',
  'cc',
  'bcc',
  'subject',
  'reply-to',
  'sender',
  'date',
  'message-id',
  'mime-version',
  'content-type',
  'content-transfer-encoding',
  'dkim-signature',
  'list-unsubscribe',
  'list-unsubscribe-post',
]);

/**
 * Trace and routing headers: written by the relays and mailboxes a message passes through (RFC 5321
 * §4.4, RFC 5322 §3.6.6–3.6.7, RFC 9228, RFC 8601, RFC 8617), or read by a relay or by Herald to
 * route the message and its bounces. A sender who set them would forge the message's path, the
 * receiver's authentication verdicts, or where its notifications go.
 */
const TRACE_HEADERS = new Set([
  'return-path',
  'received',
  'delivered-to',
  'x-original-to',
  'envelope-to',
  'x-envelope-to',
  'x-envelope-from',
  'apparently-to',
  'x-forwarded-to',
  'x-forwarded-for',
  'errors-to',
  'received-spf',
  'authentication-results',
  'domainkey-signature',
  // relays' own routing: SendGrid's recipients and settings, SparkPost's, Postmark's stream
  'x-smtpapi',
  'x-msys-api',
  'x-pm-message-stream',
]);
/** `Resent-*` (RFC 5322 §3.6.6), `ARC-*` (RFC 8617), Amazon SES's and Mailgun's routing, Herald's own. */
const TRACE_HEADER_PREFIXES = ['resent-', 'arc-', 'x-ses-', 'x-mailgun-', 'x-herald-'];

/** Why a request cannot set the header `name`, or undefined when it can. */
function headerRefusal(name: string): string | undefined {
  const lower = name.toLowerCase();
  if (RESERVED_HEADERS.has(lower)) return `${name} is set by Herald and cannot be overridden`;
  if (TRACE_HEADERS.has(lower) || TRACE_HEADER_PREFIXES.some((p) => lower.startsWith(p)))
    return `${name} is a trace or routing header, which only the relays on the way may set`;
  return undefined;
}
/** RFC 5322 field name: printable US-ASCII except colon. */
const HEADER_NAME = /^[\x21-\x39\x3b-\x7e]+$/;
const BASE64 = /^[A-Za-z0-9+/\r\n]*={0,2}\s*$/;

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

function mailbox(value: unknown, field: string, errors: FieldError[]): Mailbox | undefined {
  if (typeof value === 'string') {
    if (isValidEmail(value.trim())) return { email: normaliseEmail(value) };
    errors.push({ field, message: `${field} must be a valid email address`, code: 'invalid_string' });
    return undefined;
  }
  if (isObject(value)) {
    const { email, name } = value;
    if (typeof email !== 'string' || !isValidEmail(email.trim())) {
      errors.push({
        field: `${field}.email`,
        message: `${field}.email must be a valid email address`,
        code: 'invalid_string',
      });
      return undefined;
    }
    if (name !== undefined && name !== null && (typeof name !== 'string' || /[\r\n]/.test(name) || name.length > 200)) {
      errors.push({
        field: `${field}.name`,
        message: `${field}.name must be a string of at most 200 characters without line breaks`,
        code: 'invalid_string',
      });
      return undefined;
    }
    return { email: normaliseEmail(email), ...(typeof name === 'string' && name.length > 0 ? { name } : {}) };
  }
  errors.push({ field, message: `${field} must be an email address or {name, email}`, code: 'invalid_type' });
  return undefined;
}

/**
 * Validates a /v1/send body into a SendRequest, or answers every problem as field errors (422).
 * Whether the content comes from a template is decided later, when the template is loaded.
 */
export function parseSendRequest(raw: unknown, maxAttachmentBytes: number): SendRequest | FieldError[] {
  const errors: FieldError[] = [];
  if (!isObject(raw))
    return [{ field: 'body', message: 'The request body must be a JSON object', code: 'invalid_type' }];

  const toList = Array.isArray(raw.to) ? raw.to : raw.to === undefined ? [] : [raw.to];
  if (toList.length === 0)
    errors.push({
      field: 'to',
      message: 'to is required: an address, {name, email}, or an array of them',
      code: 'required',
    });
  if (toList.length > SEND_LIMITS.recipients)
    errors.push({ field: 'to', message: `to may list at most ${SEND_LIMITS.recipients} recipients`, code: 'too_big' });
  const to = toList
    .map((v, i) => mailbox(v, Array.isArray(raw.to) ? `to[${i}]` : 'to', errors))
    .filter((m): m is Mailbox => m !== undefined);

  const template = raw.template;
  if (template !== undefined && (typeof template !== 'string' || template.length === 0))
    errors.push({ field: 'template', message: 'template must be a template id', code: 'invalid_string' });

  const subject = raw.subject;
  if (subject !== undefined) {
    if (typeof subject !== 'string' || subject.length < 1 || subject.length > SEND_LIMITS.subject) {
      errors.push({
        field: 'subject',
        message: `subject must be 1 to ${SEND_LIMITS.subject} characters`,
        code: 'invalid_string',
      });
    } else if (/[\r\n]/.test(subject)) {
      errors.push({ field: 'subject', message: 'subject must not contain line breaks', code: 'invalid_string' });
    }
  }
  const body = raw.body;
  if (body !== undefined && (typeof body !== 'string' || body.length < 1))
    errors.push({ field: 'body', message: 'body must be a non-empty HTML or Markdown string', code: 'invalid_string' });
  const type = raw.type;
  if (type !== undefined && !BODY_FORMATS.includes(type as BodyFormat))
    errors.push({
      field: 'type',
      message: `type must be one of ${BODY_FORMATS.join(', ')} (the format of body)`,
      code: 'invalid_enum_value',
    });
  if (template === undefined && (subject === undefined || body === undefined)) {
    if (subject === undefined)
      errors.push({ field: 'subject', message: 'subject is required unless a template is given', code: 'required' });
    if (body === undefined)
      errors.push({ field: 'body', message: 'body is required unless a template is given', code: 'required' });
  }

  let from: Mailbox | undefined;
  if (raw.from !== undefined) {
    from = mailbox(raw.from, 'from', errors);
    // deprecated display name: only for a plain-string from
    if (from && typeof raw.from === 'string' && typeof raw.name === 'string' && raw.name.length > 0) {
      if (/[\r\n]/.test(raw.name) || raw.name.length > 200)
        errors.push({
          field: 'name',
          message: 'name must be at most 200 characters without line breaks',
          code: 'invalid_string',
        });
      else from = { ...from, name: raw.name };
    }
  }

  let reply: string | undefined;
  if (raw.reply !== undefined) {
    if (typeof raw.reply !== 'string' || !isValidEmail(raw.reply.trim()))
      errors.push({ field: 'reply', message: 'reply must be a valid email address', code: 'invalid_string' });
    else reply = normaliseEmail(raw.reply);
  }

  if (raw.data !== undefined && !isObject(raw.data))
    errors.push({ field: 'data', message: 'data must be an object', code: 'invalid_type' });
  else if (raw.data !== undefined) {
    // the contact's data rules, checked before the recipient is upserted: nothing is written for a refused send
    const problem = dataObjectProblem(raw.data);
    if (problem) errors.push(problem);
  }
  if (raw.subscribed !== undefined && typeof raw.subscribed !== 'boolean')
    errors.push({ field: 'subscribed', message: 'subscribed must be true or false', code: 'invalid_type' });

  const headers: Record<string, string> = {};
  if (raw.headers !== undefined) {
    if (!isObject(raw.headers))
      errors.push({ field: 'headers', message: 'headers must be an object of name: value', code: 'invalid_type' });
    else {
      for (const [name, value] of Object.entries(raw.headers)) {
        const field = `headers.${name}`;
        const refusal = headerRefusal(name);
        if (/[\r\n]/.test(name) || !HEADER_NAME.test(name))
          errors.push({
            field,
            message: 'A header name must be printable ASCII without colon, CR or LF',
            code: 'invalid_header',
          });
        else if (refusal) errors.push({ field, message: refusal, code: 'reserved_header' });
        else if (typeof value !== 'string')
          errors.push({ field, message: 'A header value must be a string', code: 'invalid_type' });
        else if (/[\r\n]/.test(value))
          errors.push({ field, message: 'A header value must not contain CR or LF', code: 'invalid_header' });
        else if (value.length > SEND_LIMITS.headerValue)
          errors.push({
            field,
            message: `A header value must be at most ${SEND_LIMITS.headerValue} characters`,
            code: 'too_big',
          });
        else headers[name] = value;
      }
    }
  }

  const attachments: AttachmentInput[] = [];
  if (raw.attachments !== undefined) {
    if (!Array.isArray(raw.attachments))
      errors.push({ field: 'attachments', message: 'attachments must be an array', code: 'invalid_type' });
    else {
      if (raw.attachments.length > SEND_LIMITS.attachments)
        errors.push({
          field: 'attachments',
          message: `At most ${SEND_LIMITS.attachments} attachments per email`,
          code: 'too_big',
        });
      raw.attachments.forEach((a, i) => {
        const field = `attachments[${i}]`;
        if (!isObject(a))
          return errors.push({
            field,
            message: 'An attachment is {filename, content (base64), contentType}',
            code: 'invalid_type',
          });
        if (
          typeof a.filename !== 'string' ||
          a.filename.length === 0 ||
          a.filename.length > 255 ||
          /[\r\n/\\]/.test(a.filename)
        ) {
          return errors.push({
            field: `${field}.filename`,
            message: 'filename must be 1 to 255 characters without slashes or line breaks',
            code: 'invalid_string',
          });
        }
        if (typeof a.content !== 'string' || !BASE64.test(a.content))
          return errors.push({ field: `${field}.content`, message: 'content must be base64', code: 'invalid_string' });
        if (
          a.contentType !== undefined &&
          (typeof a.contentType !== 'string' || !/^[\w.+-]+\/[\w.+-]+$/.test(a.contentType))
        ) {
          return errors.push({
            field: `${field}.contentType`,
            message: 'contentType must be a MIME type such as application/pdf',
            code: 'invalid_string',
          });
        }
        attachments.push({
          filename: a.filename,
          content: a.content,
          ...(a.contentType ? { contentType: a.contentType as string } : {}),
          size: Buffer.byteLength(a.content, 'base64'),
        });
      });
      const total = attachments.reduce((n, a) => n + a.size, 0);
      if (total > maxAttachmentBytes)
        errors.push({
          field: 'attachments',
          message: `Attachments total ${total} bytes; at most ${maxAttachmentBytes} are allowed`,
          code: 'too_big',
        });
    }
  }

  if (errors.length > 0) return errors;
  return {
    to,
    ...(typeof template === 'string' ? { template } : {}),
    ...(typeof subject === 'string' ? { subject } : {}),
    ...(typeof body === 'string' ? { body } : {}),
    ...(type !== undefined ? { type: type as BodyFormat } : {}),
    ...(from ? { from } : {}),
    ...(reply ? { reply } : {}),
    ...(isObject(raw.data) ? { data: raw.data } : {}),
    ...(typeof raw.subscribed === 'boolean' ? { subscribed: raw.subscribed } : {}),
    headers,
    attachments,
  };
}

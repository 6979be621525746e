import { SEND_BODY_LIMIT } from '@herald/http';

/** Room in a /v1/send body for everything but the attachments: subject, a 512 KiB body JSON-escaped, data, headers. */
export const SEND_CONTENT_ALLOWANCE = 4 * 1024 * 1024;

/**
 * The largest `/v1/send` body this service can accept: its attachments at MAX_ATTACHMENT_BYTES as
 * base64 (4 characters per 3 bytes) and the content beside them, never more than the spec's full
 * message (40 MB). A larger body is refused from its content-length (413) before a byte is parsed.
 */
export const sendBodyLimit = (maxAttachmentBytes: number): number =>
  Math.min(SEND_BODY_LIMIT, Math.ceil(maxAttachmentBytes / 3) * 4 + SEND_CONTENT_ALLOWANCE);

/** The limit of this process's /v1/send route, set from its settings when they are loaded (before routes are registered). */
export const sendRouteLimit = { bytes: SEND_BODY_LIMIT };

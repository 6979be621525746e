/** Event names a client may not send to POST /v1/track: the system emits them itself. */

/** Reserved prefixes (`email.*`, `segment.*`), compared case-insensitively. */
export const RESERVED_EVENT_PREFIXES: readonly string[] = ['email.', 'segment.'];

/** Reserved exact names, compared case-insensitively. */
export const RESERVED_EVENT_NAMES: readonly string[] = ['contact.subscribed', 'contact.unsubscribed'];

/** True for `email.*`, `segment.*`, `contact.subscribed`, `contact.unsubscribed` (any case, surrounding whitespace ignored). */
export function isReservedEventName(name: string): boolean {
  if (typeof name !== 'string') return false;
  const n = name.trim().toLowerCase();
  return RESERVED_EVENT_NAMES.includes(n) || RESERVED_EVENT_PREFIXES.some((prefix) => n.startsWith(prefix));
}

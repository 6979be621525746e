import { isValidEmail, normaliseEmail } from '@herald/contact-data';

/**
 * The rules of inbound mail that need no database (docs/inbound.md): which domain an envelope
 * recipient is for, who sent a message, and which of Herald's emails it answers.
 */

/** Message ids a message may name in In-Reply-To and References (a long thread keeps its newest ones). */
export const MAX_REFERENCED_IDS = 50;

/**
 * The domain an envelope recipient is addressed to: lower case, without a trailing dot; null when the
 * address has no local part or no domain (`postmaster` alone, `@example.com`).
 */
export function recipientDomain(address: string): string | null {
  const at = address.lastIndexOf('@');
  if (at <= 0) return null;
  const domain = address
    .slice(at + 1)
    .trim()
    .toLowerCase()
    .replace(/\.$/, '');
  return /^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)+$/.test(domain) ? domain : null;
}

/** The message ids of an In-Reply-To or References value: each `<id>` without its brackets (bare ids when none is bracketed). */
export function messageIdsIn(value: string | string[] | undefined): string[] {
  if (value === undefined) return [];
  const text = Array.isArray(value) ? value.join(' ') : value;
  const bracketed = [...text.matchAll(/<([^<>\s]+)>/g)].map((m) => m[1]!);
  const ids = bracketed.length > 0 ? bracketed : text.split(/[\s,]+/);
  return ids.map((id) => id.trim()).filter((id) => id.length > 0 && id.length <= 255);
}

/**
 * The message ids a reply names, in the order they are tried: In-Reply-To first (the message
 * answered), then References from the newest (its last) back; each once, at most MAX_REFERENCED_IDS.
 */
export function referencedMessageIds(
  inReplyTo: string | undefined,
  references: string | string[] | undefined,
): string[] {
  const ordered = [...messageIdsIn(inReplyTo), ...messageIdsIn(references).reverse()];
  return [...new Set(ordered)].slice(0, MAX_REFERENCED_IDS);
}

/** Of Herald's emails whose Message-ID a reply names, the one it answers: the first in `ids`' order. */
export function repliedEmail<E extends { messageId: string }>(ids: string[], found: E[]): E | undefined {
  const byId = new Map(found.map((e) => [e.messageId, e]));
  for (const id of ids) {
    const email = byId.get(id);
    if (email) return email;
  }
  return undefined;
}

export interface Sender {
  /** Normalised (trimmed, lower case). */
  email: string;
  name?: string;
}

/**
 * Who sent a message: the first valid address of its From header (with its display name), else the
 * envelope sender (MAIL FROM); none for a null sender (`<>`, a bounce) without a usable From.
 */
export function senderOf(
  from: { address?: string; name?: string }[] | undefined,
  envelopeFrom: string | undefined,
): Sender | undefined {
  for (const a of from ?? []) {
    const email = a.address ? normaliseEmail(a.address) : '';
    if (isValidEmail(email)) {
      const name = a.name?.replaceAll('\u0000', '').trim().slice(0, 200);
      return name ? { email, name } : { email };
    }
  }
  const envelope = envelopeFrom ? normaliseEmail(envelopeFrom) : '';
  return isValidEmail(envelope) ? { email: envelope } : undefined;
}

/** The accepted recipients of a message by project (a domain verified in several projects reaches each). */
export function recipientsByProject(recipients: { address: string; projectIds: string[] }[]): Map<string, string[]> {
  const byProject = new Map<string, string[]>();
  for (const r of recipients)
    for (const projectId of r.projectIds) {
      const list = byProject.get(projectId) ?? [];
      const address = normaliseEmail(r.address);
      if (!list.includes(address)) list.push(address);
      byProject.set(projectId, list);
    }
  return byProject;
}

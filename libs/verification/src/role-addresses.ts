// Role addresses: mailboxes of a function or a team (info@, admin@, sales@), not of one person. The
// list is `role-based-email-addresses` (Mixmax, MIT; ~1,000 local parts in four groups: marketing,
// notification, meeting and other), read once into a Set like the domain lists.
import { createRequire } from 'node:module';
import { plusAddressing, type ParsedAddress } from './address-checks.js';

const require = createRequire(import.meta.url);

/** Local parts of role addresses, lower-case. */
export const roleLocalParts: ReadonlySet<string> = new Set(
  (require('role-based-email-addresses') as string[]).map((local) => local.toLowerCase()),
);

/**
 * Whether the address is a role address: its local part, without a `+tag`, is listed (exact match,
 * any case: `info@`, `Info+news@`; not `info.desk@` or `jinfo@`). A quoted local part never is.
 */
export function isRoleAddress(parsed: ParsedAddress, list: ReadonlySet<string> = roleLocalParts): boolean {
  if (parsed.local.startsWith('"')) return false;
  const base = plusAddressing(parsed)?.base ?? parsed.address;
  return list.has(base.slice(0, base.lastIndexOf('@')).toLowerCase());
}

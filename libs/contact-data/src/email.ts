/** Email address normalisation and validation shared by every path that upserts a contact. */
// validator ships CommonJS (`module.exports = isEmail; module.exports.default = isEmail`). Under Node
// ESM, Jest ESM and TypeScript NodeNext alike, the namespace's `default` is that function.
import * as isEmailModule from 'validator/lib/isEmail.js';

const isEmail = (isEmailModule as unknown as { default: (s: string) => boolean }).default;

/** RFC 3696 errata / RFC 5321 practical maximum. */
export const MAX_EMAIL_LENGTH = 320;

/** Trims and lower-cases an address (the upsert key is the normalised address). */
export function normaliseEmail(s: string): string {
  return s.trim().toLowerCase();
}

/**
 * True when `s` is a syntactically valid address (validator's isEmail with its defaults: a TLD is
 * required, no display name, no IP-literal domain, UTF-8 local parts allowed) of at most
 * MAX_EMAIL_LENGTH characters. Surrounding whitespace makes it invalid: normalise first.
 */
export function isValidEmail(s: unknown): s is string {
  // validator throws on lone UTF-16 surrogates: such a string is no address
  return typeof s === 'string' && s.length > 0 && s.length <= MAX_EMAIL_LENGTH && !/\p{Cs}/u.test(s) && isEmail(s);
}

/** The lower-cased domain of an address (after the last `@`), or null when there is none. */
export function emailDomain(address: string): string | null {
  const at = address.lastIndexOf('@');
  const domain = at > 0 ? address.slice(at + 1).trim().toLowerCase() : '';
  return domain.length > 0 ? domain : null;
}

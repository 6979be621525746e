/** Email address normalisation and validation shared by every path that upserts a contact. */
import { isValidEmail, MAX_EMAIL_LENGTH } from '@herald/contracts';

/** The one email rule (edge and event contracts alike): see `@herald/contracts`. */
export { isValidEmail, MAX_EMAIL_LENGTH };

/** Trims and lower-cases an address (the upsert key is the normalised address). */
export function normaliseEmail(s: string): string {
  return s.trim().toLowerCase();
}

/** The lower-cased domain of an address (after the last `@`), or null when there is none. */
export function emailDomain(address: string): string | null {
  const at = address.lastIndexOf('@');
  const domain =
    at > 0
      ? address
          .slice(at + 1)
          .trim()
          .toLowerCase()
      : '';
  return domain.length > 0 ? domain : null;
}

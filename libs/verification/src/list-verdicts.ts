// The verdict on one address of a list being imported (POST /contacts/import?verify=true): which
// finding of the /v1/verify checks, and of the role check, the row is reported with. Pure.
import type { MailDeliverability } from './domain-dns.js';

/** The verdicts, in the order they take precedence (a row reports the first that applies). */
export const LIST_VERDICTS = ['invalid_domain', 'disposable', 'typo', 'role_address', 'unverified'] as const;
export type ListVerdict = (typeof LIST_VERDICTS)[number];

/**
 * The verdicts that keep a row out of an import with `skipInvalid=true`: mail to the address cannot
 * be delivered, or goes to a throwaway mailbox. The others are warnings: the row is imported.
 */
export const INVALID_VERDICTS: ReadonlySet<ListVerdict> = new Set<ListVerdict>(['invalid_domain', 'disposable']);

export interface AddressVerdict {
  verdict: ListVerdict;
  /** The corrected address when the domain looks misspelt (whatever the verdict: `gmial.com` is also disposable). */
  suggestion?: string;
}

/** What the checks found of one address. */
export interface AddressFindings {
  /** From the domain's DNS answers (mailDeliverability). */
  mail: MailDeliverability;
  /** The domain, or a parent of it, is a disposable mailbox provider's. */
  disposable: boolean;
  /** /v1/verify's typo suggestion for the address, if any. */
  suggestion?: string;
  /** A role address (info@, admin@...). */
  role: boolean;
}

/**
 * One verdict per address, the first that applies:
 * - `invalid_domain`: the domain's DNS says it takes no mail (NXDOMAIN, null MX, neither MX nor A/AAAA);
 * - `disposable`: a disposable (temporary) mailbox provider;
 * - `typo`: the domain looks like a misspelling of a well-known provider's (`gamil.com` → `gmail.com`);
 * - `role_address`: the mailbox of a function, not a person;
 * - `unverified`: the DNS lookups that decide did not complete (a timeout or a failure), so whether
 *   the domain takes mail is unknown; never reason enough to drop a row.
 * Undefined: nothing to report. The suggestion goes with any verdict.
 */
export function listVerdict(findings: AddressFindings): AddressVerdict | undefined {
  const verdict = firstVerdict(findings);
  if (!verdict) return undefined;
  return findings.suggestion ? { verdict, suggestion: findings.suggestion } : { verdict };
}

function firstVerdict(f: AddressFindings): ListVerdict | undefined {
  if (f.mail === 'refuses') return 'invalid_domain';
  if (f.disposable) return 'disposable';
  if (f.suggestion) return 'typo';
  if (f.role) return 'role_address';
  if (f.mail === 'unknown') return 'unverified';
  return undefined;
}

/** Whether a row with this verdict stays out of an import with `skipInvalid=true`. */
export const isInvalidVerdict = (verdict: ListVerdict): boolean => INVALID_VERDICTS.has(verdict);

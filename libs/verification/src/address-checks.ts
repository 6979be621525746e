// The parts of /v1/verify that need no network: syntax, plus-addressing, aliases, disposable and
// personal-provider domains, typos. Pure functions; the domain lists are parameters with defaults so
// tests can pass their own.
import { domainToASCII } from 'node:url';
import { isValidEmail, MAX_EMAIL_LENGTH } from '@herald/contact-data';
import { commonProviderDomains, disposableDomains, personalProviderDomains, spellChecker } from './domain-lists.js';

/** A syntactically valid, normalised address split at its last `@`. */
export interface ParsedAddress {
  address: string;
  local: string;
  /** As written (lower-case; may be Unicode). */
  domain: string;
  /** The domain in ASCII (punycode), the form DNS and the domain lists use. */
  asciiDomain: string;
}

/**
 * A lone UTF-16 surrogate: not text. validator's isEmail (behind `isValidEmail`) and the spell checker
 * call encodeURI, which throws URIError on one, so such input is rejected before either sees it.
 */
const LONE_SURROGATE = /\p{Cs}/u;

/** Splits an address that `isValidEmail` accepted; undefined for anything else. */
export function parseAddress(address: string): ParsedAddress | undefined {
  if (LONE_SURROGATE.test(address) || !isValidEmail(address)) return undefined;
  const at = address.lastIndexOf('@');
  const local = address.slice(0, at);
  const domain = address.slice(at + 1);
  const asciiDomain = domainToASCII(domain);
  if (!asciiDomain) return undefined;
  return { address, local, domain, asciiDomain };
}

/** A quoted local part (`"a+b"@x.com`) is opaque: its `+` and dots are literal characters. */
const isQuoted = (local: string): boolean => local.startsWith('"');

/**
 * Plus-addressing (sub-addressing, RFC 5233): `alice+news@x.com` is delivered to `alice@x.com`.
 * Returns the base address and the tag, or undefined when the local part has no `+tag` after a
 * non-empty base.
 */
export function plusAddressing(parsed: ParsedAddress): { base: string; tag: string } | undefined {
  if (isQuoted(parsed.local)) return undefined;
  const plus = parsed.local.indexOf('+');
  if (plus <= 0) return undefined;
  return { base: `${parsed.local.slice(0, plus)}@${parsed.domain}`, tag: parsed.local.slice(plus + 1) };
}

/**
 * Domains that are other names of one provider's mailboxes: `user@alias` is delivered to
 * `user@canonical`. Only documented, unconditional equivalences belong here.
 */
export const ALIAS_DOMAINS: Readonly<Record<string, string>> = {
  'googlemail.com': 'gmail.com',
  'me.com': 'icloud.com',
  'mac.com': 'icloud.com',
  'protonmail.ch': 'protonmail.com',
  'ya.ru': 'yandex.ru',
  'yandex.com': 'yandex.ru',
  'yandex.by': 'yandex.ru',
  'yandex.kz': 'yandex.ru',
  'yandex.ua': 'yandex.ru',
};

/** Providers that ignore dots in the local part (`a.l.i.c.e@gmail.com` is `alice@gmail.com`). */
export const DOTS_IGNORED_DOMAINS: ReadonlySet<string> = new Set(['gmail.com']);

export interface CanonicalMailbox {
  /** The mailbox's canonical address: alias domain replaced, provider local-part rules applied, `+tag` removed. */
  address: string;
  /** Why the address is an alias (empty when it is already canonical apart from a `+tag`). */
  rules: string[];
}

/**
 * The canonical address of the mailbox `parsed` is delivered to. `isAlias` is `rules.length > 0`:
 * the address (ignoring any `+tag`, which has its own flag) is another spelling of that mailbox.
 */
export function canonicalMailbox(parsed: ParsedAddress): CanonicalMailbox {
  const rules: string[] = [];
  let local = parsed.local;
  const plus = plusAddressing(parsed);
  if (plus) local = local.slice(0, local.indexOf('+'));
  let domain = parsed.domain;
  const aliasOf = ALIAS_DOMAINS[parsed.asciiDomain];
  if (aliasOf) {
    rules.push(`${parsed.domain} is an alias domain of ${aliasOf}`);
    domain = aliasOf;
  }
  if (DOTS_IGNORED_DOMAINS.has(domain) && !isQuoted(local) && local.includes('.')) {
    rules.push(`${domain} ignores dots in the local part`);
    local = local.replaceAll('.', '');
  }
  return { address: `${local}@${domain}`, rules };
}

/**
 * The listed disposable domain `asciiDomain` belongs to: itself, or the nearest listed parent
 * (`x.mailinator.com` → `mailinator.com`). A bare TLD is never matched.
 */
export function disposableDomainOf(
  asciiDomain: string,
  list: ReadonlySet<string> = disposableDomains,
): string | undefined {
  const labels = asciiDomain.split('.');
  for (let i = 0; i < labels.length - 1; i++) {
    const candidate = labels.slice(i).join('.');
    if (list.has(candidate)) return candidate;
  }
  return undefined;
}

/**
 * Damerau-Levenshtein distance (optimal string alignment): insertions, deletions, substitutions and
 * transpositions of adjacent characters (gmial → gmail is 1).
 */
export function editDistance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        best = Math.min(best, d[i - 2]![j - 2]! + 1);
      d[i]![j] = best;
    }
  }
  return d[a.length]![b.length]!;
}

/**
 * Domains that are never misspellings and the only ones a misspelling is corrected to: the
 * well-ranked providers of `email-providers` common.json, the spell checker's own popular domains,
 * and both sides of ALIAS_DOMAINS. mail.com is left out as a target: it is the suffix of hundreds
 * of other providers (10mail.com, mailcity.com) that the checker would all send there.
 */
export const wellKnownProviderDomains: ReadonlySet<string> = new Set([
  ...commonProviderDomains,
  ...spellChecker.POPULAR_DOMAINS,
  ...Object.keys(ALIAS_DOMAINS),
  ...Object.values(ALIAS_DOMAINS),
]);
const NOT_A_TYPO_TARGET = new Set(['mail.com']);

/**
 * A corrected address when the domain looks like a misspelling of a well-known provider's domain
 * (`gmial.com`, `gmail.con`, `hotmial.com`, and `alice@gmail` without its TLD). Works on addresses
 * that fail the syntax check too. The suggestion of `@zootools/email-spell-checker` is kept only when
 * - the written domain is not itself a well-known provider (the checker alone turns mac.com into
 *   mail.com and gmx.net into cox.net);
 * - it names a well-known provider (no guesses at company domains: acme.cm → acme.co);
 * - it is a small edit of the written domain: edit distance 1, or 2 when the domain's first label is
 *   longer than 5 characters (so yahoo.com.mx and outlook.com.br are not "corrected" to the .com,
 *   nor dog.com to aol.com), or the written domain is one label that the suggestion completes;
 * - the corrected address is valid.
 */
export function suggestCorrection(
  address: string,
  known: ReadonlySet<string> = wellKnownProviderDomains,
): string | undefined {
  if (address.length > MAX_EMAIL_LENGTH || LONE_SURROGATE.test(address)) return undefined;
  const at = address.lastIndexOf('@');
  if (at <= 0 || at === address.length - 1) return undefined;
  const local = address.slice(0, at);
  const domain = address.slice(at + 1);
  if (known.has(domainToASCII(domain) || domain)) return undefined;
  const suggested = spellChecker.run({ email: address })?.domain;
  if (!suggested || suggested === domain || !known.has(suggested) || NOT_A_TYPO_TARGET.has(suggested)) return undefined;
  const firstLabel = domain.split('.')[0]!;
  const completesTld = !domain.includes('.') && suggested.startsWith(`${domain}.`);
  const distance = editDistance(domain, suggested);
  if (!completesTld && distance > (firstLabel.length > 5 ? 2 : 1)) return undefined;
  // the checker percent-encodes the local part; keep the one the caller wrote
  const corrected = `${local}@${suggested}`;
  return isValidEmail(corrected) ? corrected : undefined;
}

/**
 * A free/personal mailbox provider's own domain (exact match: subdomains are not mailboxes): listed
 * in `email-providers` all.json. The caller excludes disposable domains and domains reported as
 * misspellings, which that list also contains (mailinator.com, gamil.com).
 */
export function isPersonalProviderDomain(
  asciiDomain: string,
  list: ReadonlySet<string> = personalProviderDomains,
): boolean {
  return list.has(asciiDomain);
}

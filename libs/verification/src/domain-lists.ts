// The third-party domain lists /v1/verify consults, loaded once per process. All three packages ship
// CommonJS or bare JSON files; createRequire reads them the same way under Node ESM, Jest ESM and
// TypeScript NodeNext.
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

type SpellChecker = typeof import('@zootools/email-spell-checker');

/** Domains of disposable (temporary) mailbox services: `disposable-email-domains-js`. */
export const disposableDomains: ReadonlySet<string> = new Set(
  (require('disposable-email-domains-js') as typeof import('disposable-email-domains-js')).disposableEmailBlocklist(),
);

/**
 * RFC 2606 / RFC 6761 names reserved for documentation and testing. `email-providers` lists
 * example.com; an address there is nobody's personal mailbox.
 */
const RESERVED_DOMAINS = new Set(['example.com', 'example.net', 'example.org']);

/**
 * Domains of free/personal mailbox providers: the `all.json` list of `email-providers` (~8,700
 * domains; its `common.json` keeps only ~350 by web rank and misses e.g. googlemail.com,
 * hotmail.co.uk, ymail.com, outlook.de). The list also names many disposable services; the
 * verifier reports those as disposable, not personal.
 */
export const personalProviderDomains: ReadonlySet<string> = new Set(
  (require('email-providers/all.json') as string[]).map((d) => d.toLowerCase()).filter((d) => !RESERVED_DOMAINS.has(d)),
);

/**
 * The ~350 providers of `email-providers` `common.json` (ranked < 100,000 by Majestic): real,
 * well-known mailbox domains. all.json also lists typo domains (gamil.com, hotmail.con); this one
 * does not, so it is the list of domains never reported as misspellings.
 */
export const commonProviderDomains: ReadonlySet<string> = new Set(
  (require('email-providers/common.json') as string[])
    .map((d) => d.toLowerCase())
    .filter((d) => !RESERVED_DOMAINS.has(d)),
);

/** `@zootools/email-spell-checker`: suggests a popular domain for a misspelt one (gmial.com → gmail.com). */
export const spellChecker: SpellChecker = require('@zootools/email-spell-checker') as SpellChecker;

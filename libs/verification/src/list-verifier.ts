// Verifying a whole list (an import's rows) with the checks of /v1/verify: what depends only on the
// domain (its DNS answers, disposable, typo) is worked out once per domain and kept for the list.
import { isValidEmail, normaliseEmail } from '@herald/contact-data';
import { Inject, Injectable } from '@nestjs/common';
import { disposableDomainOf, parseAddress, suggestCorrection } from './address-checks.js';
import { lookUpDomain, mailDeliverability, type DomainDns, type MailDeliverability } from './domain-dns.js';
import { listVerdict, type AddressVerdict } from './list-verdicts.js';
import { isRoleAddress } from './role-addresses.js';
import {
  DNS_RESOLVER_FACTORY,
  VERIFY_SETTINGS,
  type DnsResolverFactory,
  type VerifySettings,
} from './verify.settings.js';

/** The DNS answers of one domain (in ASCII), under the verification deadline. */
export type DomainLookup = (asciiDomain: string) => Promise<DomainDns>;

/** What is known of a domain as written (lower-case, maybe Unicode). */
interface DomainFacts {
  mail: MailDeliverability;
  disposable: boolean;
  /** The well-known provider's domain this one looks like a misspelling of. */
  correctedDomain: string | undefined;
}

/**
 * The verification of one list: `learn` the domains of a batch of addresses (each domain's DNS
 * looked up once for the whole list, at most `concurrency` domains at a time), then ask each
 * address's `verdictOf`. Not shared between lists: a list's answers are as fresh as the list.
 */
export class ListVerification {
  private readonly facts = new Map<string, DomainFacts>();
  private readonly dns = new Map<string, Promise<MailDeliverability>>();

  constructor(
    private readonly lookup: DomainLookup,
    private readonly concurrency: number,
  ) {}

  /** Domains whose DNS was looked up so far. */
  get domainsLookedUp(): number {
    return this.dns.size;
  }

  /**
   * Learns the domains of `emails` not seen before (addresses that do not parse are left to
   * `verdictOf`). Once `signal` aborts, no further lookup starts and the call rejects with its reason.
   */
  async learn(emails: Iterable<string>, signal?: AbortSignal): Promise<void> {
    const fresh = new Map<string, string>(); // domain as written → ASCII
    for (const email of emails) {
      const parsed = parseAddress(normaliseEmail(email));
      if (parsed && !this.facts.has(parsed.domain)) fresh.set(parsed.domain, parsed.asciiDomain);
    }
    await eachLimited([...fresh], this.concurrency, signal, async ([domain, asciiDomain]) => {
      this.facts.set(domain, {
        mail: await this.mailOf(asciiDomain),
        disposable: disposableDomainOf(asciiDomain) !== undefined,
        correctedDomain: correctedDomainOf(domain),
      });
    });
  }

  /**
   * The verdict on an address (syntax already checked) whose domain was learnt; undefined when
   * there is nothing to report. An address that does not parse has no domain to deliver to.
   */
  verdictOf(email: string): AddressVerdict | undefined {
    const parsed = parseAddress(normaliseEmail(email));
    if (!parsed) return { verdict: 'invalid_domain' };
    const facts = this.facts.get(parsed.domain);
    if (!facts) throw new Error(`verdictOf(${email}): its domain was not learnt`);
    return listVerdict({
      mail: facts.mail,
      disposable: facts.disposable,
      suggestion: facts.correctedDomain ? correctedAddress(parsed.local, facts.correctedDomain) : undefined,
      role: isRoleAddress(parsed),
    });
  }

  private mailOf(asciiDomain: string): Promise<MailDeliverability> {
    let mail = this.dns.get(asciiDomain);
    if (!mail) this.dns.set(asciiDomain, (mail = this.lookup(asciiDomain).then(mailDeliverability)));
    return mail;
  }
}

/**
 * /v1/verify's typo rule (`suggestCorrection`) for a domain: its suggestion depends on the domain
 * alone for an address whose local part holds no `@`, which every valid address is.
 */
function correctedDomainOf(domain: string): string | undefined {
  const corrected = suggestCorrection(`x@${domain}`);
  return corrected?.slice(corrected.lastIndexOf('@') + 1);
}

/** `local@domain` when that is a valid address (the last check of `suggestCorrection`). */
function correctedAddress(local: string, domain: string): string | undefined {
  const address = `${local}@${domain}`;
  return isValidEmail(address) ? address : undefined;
}

/** Runs `fn` over `items` with at most `limit` calls in flight; none starts once `signal` aborted. */
async function eachLimited<T>(
  items: T[],
  limit: number,
  signal: AbortSignal | undefined,
  fn: (item: T) => Promise<void>,
): Promise<void> {
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      signal?.throwIfAborted();
      await fn(items[next++]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(Math.max(1, limit), items.length) }, worker));
}

/** Starts list verifications with the settings of /v1/verify (DNS_SERVERS, VERIFY_TIMEOUT_MS) and IMPORT_VERIFY_CONCURRENCY. */
@Injectable()
export class ListVerifier {
  constructor(
    @Inject(VERIFY_SETTINGS) private readonly settings: VerifySettings,
    @Inject(DNS_RESOLVER_FACTORY) private readonly resolvers: DnsResolverFactory,
  ) {}

  start(): ListVerification {
    const deadlineMs = this.settings.VERIFY_TIMEOUT_MS;
    return new ListVerification(
      (asciiDomain) => lookUpDomain(this.resolvers(), asciiDomain, deadlineMs),
      this.settings.IMPORT_VERIFY_CONCURRENCY,
    );
  }
}

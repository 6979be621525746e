import { normaliseEmail } from '@herald/contact-data';
import { Inject, Injectable } from '@nestjs/common';
import {
  canonicalMailbox,
  disposableDomainOf,
  isPersonalProviderDomain,
  parseAddress,
  plusAddressing,
  suggestCorrection,
} from './address-checks.js';
import { assessDomainDns, lookUpDomain } from './domain-dns.js';
import {
  DNS_RESOLVER_FACTORY,
  VERIFY_SETTINGS,
  type DnsResolverFactory,
  type VerifySettings,
} from './verify.settings.js';

/** The data of POST /v1/verify (spec: "Email verification result"). */
export interface EmailVerification {
  email: string;
  valid: boolean;
  isDisposable: boolean;
  isAlias: boolean;
  isTypo: boolean;
  isPlusAddressed: boolean;
  isPersonalEmail: boolean;
  domainExists: boolean;
  hasWebsite: boolean;
  hasMxRecords: boolean;
  reasons: string[];
}

/**
 * Verifies one address: syntax, then (for a valid syntax) the offline checks and the DNS lookups of
 * its domain under VERIFY_TIMEOUT_MS. `valid` = syntax ok AND the domain accepts mail (MX, or
 * implicit MX through A/AAAA) AND the domain is not disposable. See docs/verify.md.
 */
@Injectable()
export class EmailVerifier {
  constructor(
    @Inject(VERIFY_SETTINGS) private readonly settings: VerifySettings,
    @Inject(DNS_RESOLVER_FACTORY) private readonly resolvers: DnsResolverFactory,
  ) {}

  async verify(input: string): Promise<EmailVerification> {
    const email = normaliseEmail(input);
    const result: EmailVerification = {
      email,
      valid: false,
      isDisposable: false,
      isAlias: false,
      isTypo: false,
      isPlusAddressed: false,
      isPersonalEmail: false,
      domainExists: false,
      hasWebsite: false,
      hasMxRecords: false,
      reasons: [],
    };
    const { reasons } = result;

    const correction = suggestCorrection(email);
    const parsed = parseAddress(email);
    if (!parsed) {
      reasons.push('The address is not a syntactically valid email address.');
      if (correction) {
        result.isTypo = true;
        reasons.push(`Did you mean ${correction}?`);
      }
      return result;
    }
    const { domain, asciiDomain } = parsed;

    if (correction) {
      result.isTypo = true;
      reasons.push(`Did you mean ${correction}?`);
    }

    const plus = plusAddressing(parsed);
    if (plus) {
      result.isPlusAddressed = true;
      reasons.push(`The address uses plus-addressing (tag "${plus.tag}"); the base address is ${plus.base}.`);
    }

    const canonical = canonicalMailbox(parsed);
    if (canonical.rules.length > 0) {
      result.isAlias = true;
      reasons.push(`The address is an alias of the mailbox ${canonical.address} (${canonical.rules.join('; ')}).`);
    }

    const disposable = disposableDomainOf(asciiDomain);
    if (disposable) {
      result.isDisposable = true;
      reasons.push(
        disposable === asciiDomain
          ? `${domain} is a disposable (temporary) email provider.`
          : `${domain} belongs to the disposable (temporary) email provider ${disposable}.`,
      );
    } else if (!correction && isPersonalProviderDomain(asciiDomain)) {
      result.isPersonalEmail = true;
      reasons.push(`${domain} is a free personal email provider, not a company domain.`);
    }

    const deadlineMs = this.settings.VERIFY_TIMEOUT_MS;
    const dns = assessDomainDns(domain, await lookUpDomain(this.resolvers(), asciiDomain, deadlineMs), deadlineMs);
    result.domainExists = dns.domainExists;
    result.hasWebsite = dns.hasWebsite;
    result.hasMxRecords = dns.hasMxRecords;
    reasons.push(...dns.reasons);

    result.valid = dns.acceptsMail && !result.isDisposable;
    return result;
  }
}

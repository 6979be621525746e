// The DNS half of /v1/verify: ask for a domain's MX, A, AAAA, NS and SOA records in parallel under one
// deadline (lookUpDomain), then judge the answers (assessDomainDns, pure).
import type { MxRecord } from 'node:dns';
import type { Resolver } from 'node:dns/promises';

/** What the verifier needs of `dns.promises.Resolver` (`createResolver` from @herald/core gives one). */
export type DnsResolver = Pick<Resolver, 'resolveMx' | 'resolve4' | 'resolve6' | 'resolveNs' | 'resolveSoa' | 'cancel'>;

export type LookupOutcome<T> =
  /** Records of the type exist. */
  | { status: 'found'; records: T }
  /** NOERROR without records of the type (NODATA): the name exists (RFC 2308). */
  | { status: 'nodata' }
  /** NXDOMAIN: the name does not exist. */
  | { status: 'nxdomain' }
  /** No answer before the per-try timeout or the overall deadline. */
  | { status: 'timeout' }
  /** Any other failure (SERVFAIL, REFUSED, connection refused...): the answer is unknown. */
  | { status: 'error'; code: string };

export interface DomainDns {
  MX: LookupOutcome<MxRecord[]>;
  A: LookupOutcome<string[]>;
  AAAA: LookupOutcome<string[]>;
  NS: LookupOutcome<string[]>;
  SOA: LookupOutcome<unknown>;
}

export type DnsRecordType = keyof DomainDns;

const RECORD_TYPES: DnsRecordType[] = ['MX', 'A', 'AAAA', 'NS', 'SOA'];

/** Maps a rejected `dns.promises` lookup to an outcome. */
export function classifyDnsError(err: unknown): LookupOutcome<never> {
  const code = String((err as { code?: unknown } | null)?.code ?? 'UNKNOWN');
  switch (code) {
    case 'ENODATA':
      return { status: 'nodata' };
    case 'ENOTFOUND':
    case 'NXDOMAIN':
      return { status: 'nxdomain' };
    case 'ETIMEOUT':
    case 'ECANCELLED':
      return { status: 'timeout' };
    default:
      return { status: 'error', code };
  }
}

async function settle<T>(lookup: () => Promise<T>): Promise<LookupOutcome<T>> {
  try {
    const records = await lookup();
    // an empty answer list is NODATA too (c-ares normally reports that as ENODATA)
    if (Array.isArray(records) && records.length === 0) return { status: 'nodata' };
    return { status: 'found', records };
  } catch (err) {
    return classifyDnsError(err);
  }
}

/**
 * Looks up every record type of `asciiDomain` in parallel. Resolves within `deadlineMs` whatever the
 * servers do: a lookup still running then counts as timed out, and the resolver's outstanding queries
 * are cancelled (give each call its own resolver: `cancel()` aborts every query of that resolver).
 */
export async function lookUpDomain(resolver: DnsResolver, asciiDomain: string, deadlineMs: number): Promise<DomainDns> {
  const lookups: { [K in DnsRecordType]: () => Promise<unknown> } = {
    MX: () => resolver.resolveMx(asciiDomain),
    A: () => resolver.resolve4(asciiDomain),
    AAAA: () => resolver.resolve6(asciiDomain),
    NS: () => resolver.resolveNs(asciiDomain),
    SOA: () => resolver.resolveSoa(asciiDomain),
  };
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<LookupOutcome<never>>((resolve) => {
    timer = setTimeout(() => resolve({ status: 'timeout' }), deadlineMs);
  });
  try {
    const outcomes = await Promise.all(RECORD_TYPES.map((type) => Promise.race([settle(lookups[type]), deadline])));
    return Object.fromEntries(RECORD_TYPES.map((type, i) => [type, outcomes[i]])) as unknown as DomainDns;
  } finally {
    clearTimeout(timer);
    resolver.cancel();
  }
}

export interface DomainAssessment {
  /** The name exists: some lookup found records or answered NODATA. */
  domainExists: boolean;
  /** MX records naming a mail host exist (a null MX does not count). */
  hasMxRecords: boolean;
  /** A or AAAA records of the domain itself exist. */
  hasWebsite: boolean;
  /** Mail can be delivered: MX hosts, or no MX at all but A/AAAA (implicit MX, RFC 5321 §5.1). */
  acceptsMail: boolean;
  reasons: string[];
}

/** RFC 7505 null MX: a single MX record whose exchange is the root (`.`; c-ares reports ""). */
export function isNullMx(records: MxRecord[]): boolean {
  return records.length === 1 && (records[0]!.exchange === '' || records[0]!.exchange === '.');
}

const found = <T>(o: LookupOutcome<T>): o is { status: 'found'; records: T } => o.status === 'found';
const incomplete = (o: LookupOutcome<unknown>): boolean => o.status === 'timeout' || o.status === 'error';

/** Judges the lookups of `domain` (as the caller wrote it, for the reasons). Pure. */
export function assessDomainDns(domain: string, dns: DomainDns, deadlineMs: number): DomainAssessment {
  const reasons: string[] = [];
  const outcomes = RECORD_TYPES.map((type) => dns[type]);

  const timedOut = RECORD_TYPES.filter((type) => dns[type].status === 'timeout');
  if (timedOut.length > 0) {
    reasons.push(
      `The DNS lookup of ${timedOut.join(', ')} records for ${domain} timed out (deadline ${deadlineMs} ms); those results are unknown and count as false.`,
    );
  }
  for (const type of RECORD_TYPES) {
    const o = dns[type];
    if (o.status === 'error')
      reasons.push(
        `The DNS lookup of ${type} records for ${domain} failed (${o.code}); the result is unknown and counts as false.`,
      );
  }

  const domainExists = outcomes.some((o) => o.status === 'found' || o.status === 'nodata');
  if (!domainExists) {
    if (outcomes.some((o) => o.status === 'nxdomain')) reasons.push(`The domain ${domain} does not exist (NXDOMAIN).`);
    else reasons.push(`Whether the domain ${domain} exists is unknown: no DNS lookup completed.`);
    return { domainExists: false, hasMxRecords: false, hasWebsite: false, acceptsMail: false, reasons };
  }

  const hasWebsite = found(dns.A) || found(dns.AAAA);
  const websiteUnknown = !hasWebsite && (incomplete(dns.A) || incomplete(dns.AAAA));
  if (!hasWebsite && !websiteUnknown) reasons.push(`${domain} has no A or AAAA records, so it has no website.`);

  const mx = dns.MX;
  const nullMx = found(mx) && isNullMx(mx.records);
  const mailHosts = found(mx) ? mx.records.filter((r) => r.exchange !== '' && r.exchange !== '.') : [];
  const hasMxRecords = !nullMx && mailHosts.length > 0;
  let acceptsMail = false;
  if (nullMx) {
    reasons.push(`${domain} publishes a null MX record (RFC 7505): it accepts no email.`);
  } else if (hasMxRecords) {
    acceptsMail = true;
  } else if (incomplete(mx)) {
    reasons.push(`Whether ${domain} can receive email is unknown: its MX lookup did not complete.`);
  } else if (hasWebsite) {
    acceptsMail = true;
    reasons.push(`${domain} has no MX records; mail is delivered to its A/AAAA address (implicit MX, RFC 5321).`);
  } else if (websiteUnknown) {
    reasons.push(
      `${domain} has no MX records and its A/AAAA lookups did not complete, so whether it can receive email is unknown.`,
    );
  } else {
    reasons.push(`${domain} has no MX, A or AAAA records, so it cannot receive email.`);
  }

  return { domainExists, hasMxRecords, hasWebsite, acceptsMail, reasons };
}

/** Whether a domain takes mail, as far as its DNS answers tell: `unknown` when a lookup that decides it did not complete. */
export type MailDeliverability = 'accepts' | 'refuses' | 'unknown';

/**
 * The same judgement as `acceptsMail` of {@link assessDomainDns}, telling a definite "no" (NXDOMAIN,
 * null MX, neither MX nor A/AAAA) from an unknown answer (a timeout or failure where it decides). Pure.
 */
export function mailDeliverability(dns: DomainDns): MailDeliverability {
  const outcomes = RECORD_TYPES.map((type) => dns[type]);
  if (!outcomes.some((o) => o.status === 'found' || o.status === 'nodata'))
    return outcomes.some((o) => o.status === 'nxdomain') ? 'refuses' : 'unknown';
  const mx = dns.MX;
  if (found(mx) && isNullMx(mx.records)) return 'refuses';
  if (found(mx) && mx.records.some((r) => r.exchange !== '' && r.exchange !== '.')) return 'accepts';
  if (incomplete(mx)) return 'unknown';
  if (found(dns.A) || found(dns.AAAA)) return 'accepts';
  if (incomplete(dns.A) || incomplete(dns.AAAA)) return 'unknown';
  return 'refuses';
}

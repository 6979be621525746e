/**
 * The DNS records a sender domain needs and how a lookup's answer is judged against them. Pure
 * functions: no DNS, no database (the lookups are in DnsRecordChecker).
 */

export type RecordPurpose = 'ownership' | 'dkim' | 'spf' | 'dmarc';

/**
 * What a lookup showed for one record:
 * - `found`: the record is there with the expected value;
 * - `missing`: the name has no such record (NXDOMAIN or no TXT data);
 * - `wrong_value`: TXT records are there, but not the expected one (`found` lists them);
 * - `lookup_failed`: the DNS could not be asked (timeout, SERVFAIL): nothing is known.
 */
export type RecordStatus = 'found' | 'missing' | 'wrong_value' | 'lookup_failed';

export interface ExpectedRecord {
  type: 'TXT';
  name: string;
  value: string;
  purpose: RecordPurpose;
  /** Part of the verification: the domain is verified iff every required record is found. */
  required: boolean;
}

export interface RecordCheck {
  purpose: RecordPurpose;
  status: RecordStatus;
  /** The relevant TXT values seen (chunks joined), for `found` and `wrong_value`. */
  found?: string[];
  /** What is wrong, in words, for `wrong_value` and `lookup_failed`. */
  problem?: string;
}

/** The answer of one TXT lookup: the records (each a list of character-strings), or why there are none. */
export type TxtAnswer = { records: string[][] } | { error: 'no_data' } | { error: 'failed'; code: string };

/** What a domain's records are made of (stored with the domain, except the configured SPF record). */
export interface DomainRecordInputs {
  domain: string;
  verificationToken: string;
  dkimSelector: string;
  /** base64 SubjectPublicKeyInfo (DER) of the DKIM key: the `p=` of the record. */
  dkimPublicKey: string;
  /** SPF_RECORD, e.g. `v=spf1 a mx ~all`. */
  spfRecord: string;
}

export const OWNERSHIP_PREFIX = 'herald-verification=';
export const DMARC_RECOMMENDED = 'v=DMARC1; p=none;';

/** The four records to publish, in the order shown to the user. */
export function expectedRecords(d: DomainRecordInputs): ExpectedRecord[] {
  return [
    {
      type: 'TXT',
      name: `_herald.${d.domain}`,
      value: `${OWNERSHIP_PREFIX}${d.verificationToken}`,
      purpose: 'ownership',
      required: true,
    },
    {
      type: 'TXT',
      name: `${d.dkimSelector}._domainkey.${d.domain}`,
      value: `v=DKIM1; k=rsa; p=${d.dkimPublicKey}`,
      purpose: 'dkim',
      required: true,
    },
    { type: 'TXT', name: d.domain, value: d.spfRecord, purpose: 'spf', required: false },
    { type: 'TXT', name: `_dmarc.${d.domain}`, value: DMARC_RECOMMENDED, purpose: 'dmarc', required: false },
  ];
}

/**
 * A TXT record longer than 255 bytes comes back from DNS as several character-strings; a record's
 * value is their concatenation, with nothing in between (RFC 7208 §3.3, RFC 6376 §3.6.2.2).
 */
export function joinTxtChunks(records: string[][]): string[] {
  return records.map((chunks) => chunks.join(''));
}

/** Judges one lookup's answer against the record it was for. */
export function checkRecord(expected: ExpectedRecord, answer: TxtAnswer): RecordCheck {
  const purpose = expected.purpose;
  if ('error' in answer) {
    return answer.error === 'no_data'
      ? { purpose, status: 'missing' }
      : { purpose, status: 'lookup_failed', problem: `DNS lookup failed (${answer.code})` };
  }
  const values = joinTxtChunks(answer.records);
  switch (purpose) {
    case 'ownership':
      return checkOwnership(expected.value, values);
    case 'dkim':
      return checkDkim(expected.value, values);
    case 'spf':
      return checkSpf(expected.value, values);
    case 'dmarc':
      return checkDmarc(values);
  }
}

/** `_herald.<domain>`: one of the TXT values is exactly `herald-verification=<token>`. */
export function checkOwnership(expected: string, values: string[]): RecordCheck {
  if (values.length === 0) return { purpose: 'ownership', status: 'missing' };
  if (values.some((v) => v.trim() === expected)) return { purpose: 'ownership', status: 'found', found: values };
  return { purpose: 'ownership', status: 'wrong_value', found: values, problem: `no TXT value is ${expected}` };
}

/** `tag=value` pairs of a DKIM or DMARC record (names lower-cased, values trimmed). */
export function parseTags(value: string): Map<string, string> {
  const tags = new Map<string, string>();
  for (const part of value.split(';')) {
    const eq = part.indexOf('=');
    if (eq <= 0) continue;
    const name = part.slice(0, eq).trim().toLowerCase();
    if (name && !tags.has(name)) tags.set(name, part.slice(eq + 1).trim());
  }
  return tags;
}

/**
 * `<selector>._domainkey.<domain>`: exactly one TXT record, a DKIM key record whose `p=` is our
 * public key (whitespace inside the base64 ignored, as DNS consoles often insert it), `k=` rsa or
 * absent, `v=` DKIM1 or absent.
 */
export function checkDkim(expected: string, values: string[]): RecordCheck {
  if (values.length === 0) return { purpose: 'dkim', status: 'missing' };
  const wrong = (problem: string): RecordCheck => ({ purpose: 'dkim', status: 'wrong_value', found: values, problem });
  if (values.length > 1) return wrong(`${values.length} TXT records at the selector; publish exactly one`);
  const want = parseTags(expected).get('p')!;
  const tags = parseTags(values[0]!);
  const v = tags.get('v');
  if (v !== undefined && v.toUpperCase() !== 'DKIM1') return wrong(`v=${v}: expected v=DKIM1`);
  const k = tags.get('k');
  if (k !== undefined && k.toLowerCase() !== 'rsa') return wrong(`k=${k}: expected k=rsa`);
  const p = tags.get('p');
  if (p === undefined) return wrong('no p= tag (public key)');
  const key = p.replace(/\s+/g, '');
  if (key === '') return wrong('p= is empty: the key is revoked');
  if (key !== want) return wrong('p= is not the public key Herald generated for this domain');
  return { purpose: 'dkim', status: 'found', found: values };
}

/** An SPF term normalised for comparison: lower case, the default `+` qualifier dropped. */
const spfTerm = (term: string): string => term.toLowerCase().replace(/^\+/, '');
const isAll = (term: string): boolean => /^[+\-~?]?all$/i.test(term);
const isSpf = (value: string): boolean => /^v=spf1(\s|$)/i.test(value.trim());

/**
 * `<domain>`: exactly one SPF record (a TXT value starting `v=spf1`; two is a permanent error for
 * receivers, RFC 7208 §4.5), and it contains every mechanism of SPF_RECORD before its `all` term
 * (terms after `all` are never evaluated). The `all` term itself is not compared: a stricter `-all`
 * is as good as `~all`. Other TXT values at the name (site verifications) are ignored.
 */
export function checkSpf(configured: string, values: string[]): RecordCheck {
  const spf = values.filter(isSpf);
  if (spf.length === 0) return { purpose: 'spf', status: 'missing' };
  if (spf.length > 1)
    return {
      purpose: 'spf',
      status: 'wrong_value',
      found: spf,
      problem: `${spf.length} SPF records; a domain must publish exactly one`,
    };
  const wanted = configured
    .trim()
    .split(/\s+/)
    .slice(1)
    .filter((t) => !isAll(t))
    .map(spfTerm);
  const terms = spf[0]!.trim().split(/\s+/).slice(1);
  const allAt = terms.findIndex(isAll);
  const effective = new Set((allAt < 0 ? terms : terms.slice(0, allAt + 1)).map(spfTerm));
  const absent = wanted.filter((t) => !effective.has(t));
  if (absent.length > 0)
    return { purpose: 'spf', status: 'wrong_value', found: spf, problem: `the SPF record lacks ${absent.join(' ')}` };
  return { purpose: 'spf', status: 'found', found: spf };
}

/**
 * `_dmarc.<domain>`: exactly one TXT value starting `v=DMARC1` with a policy (`p=none`,
 * `quarantine` or `reject`). Any policy counts; `p=none` is what we recommend to start with.
 */
export function checkDmarc(values: string[]): RecordCheck {
  if (values.length === 0) return { purpose: 'dmarc', status: 'missing' };
  const dmarc = values.filter((v) => /^v\s*=\s*DMARC1\s*(;|$)/i.test(v.trim()));
  if (dmarc.length === 0)
    return { purpose: 'dmarc', status: 'wrong_value', found: values, problem: 'no TXT value starts with v=DMARC1' };
  if (dmarc.length > 1)
    return {
      purpose: 'dmarc',
      status: 'wrong_value',
      found: dmarc,
      problem: `${dmarc.length} DMARC records; receivers ignore them all`,
    };
  const policy = parseTags(dmarc[0]!).get('p')?.toLowerCase();
  if (!policy || !['none', 'quarantine', 'reject'].includes(policy)) {
    return {
      purpose: 'dmarc',
      status: 'wrong_value',
      found: dmarc,
      problem: 'the DMARC record needs p=none, p=quarantine or p=reject',
    };
  }
  return { purpose: 'dmarc', status: 'found', found: dmarc };
}

/**
 * What a check says about verification:
 * - `verified`: every required record is found;
 * - `pending`: a required record is missing or has a wrong value;
 * - `inconclusive`: no required record is known to be bad, but at least one lookup failed. The
 *   domain keeps its state: a DNS outage never unverifies a domain (nor verifies one).
 */
export type Verdict = 'verified' | 'pending' | 'inconclusive';

export function verdictOf(expected: ExpectedRecord[], checks: RecordCheck[]): Verdict {
  const required = expected.filter((r) => r.required).map((r) => checks.find((c) => c.purpose === r.purpose));
  if (required.every((c) => c?.status === 'found')) return 'verified';
  if (required.some((c) => c?.status === 'missing' || c?.status === 'wrong_value')) return 'pending';
  return 'inconclusive';
}

/** Why a check leaves (or keeps) a domain pending, e.g. `dkim record missing`. */
export function pendingReason(expected: ExpectedRecord[], checks: RecordCheck[]): string {
  const bad = expected
    .filter((r) => r.required)
    .map((r) => checks.find((c) => c.purpose === r.purpose))
    .filter((c): c is RecordCheck => c !== undefined && (c.status === 'missing' || c.status === 'wrong_value'))
    .map((c) => `${c.purpose} record ${c.status === 'missing' ? 'missing' : 'has a wrong value'}`);
  return bad.join('; ') || 'records not verified';
}

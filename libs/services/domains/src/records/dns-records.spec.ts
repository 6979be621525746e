import {
  checkDkim,
  checkDmarc,
  checkOwnership,
  checkRecord,
  checkSpf,
  expectedRecords,
  joinTxtChunks,
  pendingReason,
  verdictOf,
  type RecordCheck,
  type RecordPurpose,
  type RecordStatus,
} from './dns-records.js';

const KEY = 'MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEA' + 'x'.repeat(340) + 'IDAQAB';
const records = expectedRecords({
  domain: 'mail.example.test',
  verificationToken: 'tok123',
  dkimSelector: 'heraldab12cd34',
  dkimPublicKey: KEY,
  spfRecord: 'v=spf1 a mx ~all',
});
const record = (purpose: RecordPurpose) => records.find((r) => r.purpose === purpose)!;
/** A TXT value as DNS hands it back: character-strings of at most 255 bytes. */
const chunked = (value: string): string[] => value.match(/.{1,255}/gs)!;

describe('the records a domain must publish', () => {
  it('are ownership and DKIM (required), SPF and DMARC (recommended), all TXT', () => {
    expect(records).toEqual([
      {
        type: 'TXT',
        name: '_herald.mail.example.test',
        value: 'herald-verification=tok123',
        purpose: 'ownership',
        required: true,
      },
      {
        type: 'TXT',
        name: 'heraldab12cd34._domainkey.mail.example.test',
        value: `v=DKIM1; k=rsa; p=${KEY}`,
        purpose: 'dkim',
        required: true,
      },
      { type: 'TXT', name: 'mail.example.test', value: 'v=spf1 a mx ~all', purpose: 'spf', required: false },
      { type: 'TXT', name: '_dmarc.mail.example.test', value: 'v=DMARC1; p=none;', purpose: 'dmarc', required: false },
    ]);
  });
});

describe('TXT chunk joining', () => {
  it('joins the character-strings of one record with nothing in between', () => {
    expect(joinTxtChunks([['v=DKIM1; k=rsa; p=AAAA', 'BBBB'], ['other']])).toEqual([
      'v=DKIM1; k=rsa; p=AAAABBBB',
      'other',
    ]);
  });

  it('a DKIM record longer than 255 bytes, split in chunks, is found', () => {
    const value = record('dkim').value;
    expect(value.length).toBeGreaterThan(255);
    expect(checkRecord(record('dkim'), { records: [chunked(value)] })).toMatchObject({ status: 'found' });
  });

  it('an SPF record split in chunks mid-mechanism is found', () => {
    expect(checkRecord(record('spf'), { records: [['v=spf1 include:_spf.example.test a m', 'x ~all']] })).toMatchObject(
      { status: 'found' },
    );
  });
});

describe('ownership record', () => {
  it('is found when one TXT value is herald-verification=<token>, among others', () => {
    expect(checkOwnership(record('ownership').value, ['something-else', 'herald-verification=tok123'])).toMatchObject({
      status: 'found',
    });
  });

  it('is a wrong value when the token differs, reporting the values found', () => {
    expect(checkOwnership(record('ownership').value, ['herald-verification=old'])).toMatchObject({
      status: 'wrong_value',
      found: ['herald-verification=old'],
    });
  });
});

describe('DKIM record', () => {
  const expected = record('dkim').value;
  const wrong = (values: string[], problem: RegExp) =>
    expect(checkDkim(expected, values)).toMatchObject({
      status: 'wrong_value',
      found: values,
      problem: expect.stringMatching(problem),
    });

  it('is found with the exact value, or with whitespace inside the key, or without the optional k= and v=', () => {
    expect(checkDkim(expected, [expected]).status).toBe('found');
    expect(checkDkim(expected, [`v=DKIM1; k=rsa; p=${KEY.slice(0, 100)} ${KEY.slice(100)}`]).status).toBe('found');
    expect(checkDkim(expected, [`p=${KEY}`]).status).toBe('found');
  });

  it('is a wrong value when p= is another key, with the value found reported', () => {
    wrong([`v=DKIM1; k=rsa; p=${KEY.replace('x', 'y')}`], /not the public key/);
  });

  it('is a wrong value when p= is empty (a revoked key)', () => {
    wrong(['v=DKIM1; k=rsa; p='], /revoked/);
  });

  it('is a wrong value for another key type or version', () => {
    wrong([`v=DKIM1; k=ed25519; p=${KEY}`], /k=rsa/);
    wrong([`v=DKIM2; p=${KEY}`], /DKIM1/);
  });

  it('is a wrong value when the selector has two TXT records, even if one matches', () => {
    wrong([expected, 'v=DKIM1; p=OTHER'], /exactly one/);
  });
});

describe('SPF record', () => {
  const spf = (values: string[], configured = 'v=spf1 a mx ~all') => checkSpf(configured, values);

  it('counts as found when it contains the configured mechanisms, with others around them', () => {
    expect(spf(['v=spf1 include:_spf.google.com a mx ~all'])).toMatchObject({
      status: 'found',
      found: ['v=spf1 include:_spf.google.com a mx ~all'],
    });
  });

  it('counts as found with a stricter all qualifier, in any case, and with explicit + qualifiers', () => {
    expect(spf(['v=spf1 mx a -all']).status).toBe('found');
    expect(spf(['V=SPF1 +A +MX ~ALL']).status).toBe('found');
  });

  it('is a wrong value when a configured mechanism is absent, naming it', () => {
    expect(spf(['v=spf1 mx ~all'])).toMatchObject({ status: 'wrong_value', problem: 'the SPF record lacks a' });
    expect(spf(['v=spf1 a ~all'], 'v=spf1 include:spf.herald.test ~all')).toMatchObject({
      status: 'wrong_value',
      problem: 'the SPF record lacks include:spf.herald.test',
    });
  });

  it('is a wrong value when the mechanisms come after all (never evaluated)', () => {
    expect(spf(['v=spf1 ~all a mx']).status).toBe('wrong_value');
  });

  it('is a wrong value when two SPF records are published', () => {
    expect(spf(['v=spf1 a mx ~all', 'v=spf1 include:x.test ~all'])).toMatchObject({
      status: 'wrong_value',
      problem: expect.stringMatching(/exactly one/),
    });
  });

  it('is missing when the name has TXT records but none is SPF (they are not reported)', () => {
    expect(spf(['google-site-verification=abc', 'v=spf10 nonsense'])).toEqual({ purpose: 'spf', status: 'missing' });
  });
});

describe('DMARC record', () => {
  it('is found with any policy', () => {
    expect(checkDmarc(['v=DMARC1; p=none;']).status).toBe('found');
    expect(checkDmarc(['v=DMARC1; p=reject; rua=mailto:d@example.test']).status).toBe('found');
  });

  it('is a wrong value without v=DMARC1, without a valid policy, or when there are two', () => {
    expect(checkDmarc(['p=none'])).toMatchObject({ status: 'wrong_value', found: ['p=none'] });
    expect(checkDmarc(['v=DMARC1; rua=mailto:d@example.test']).status).toBe('wrong_value');
    expect(checkDmarc(['v=DMARC1; p=none', 'v=DMARC1; p=reject']).status).toBe('wrong_value');
  });
});

describe('lookup answers', () => {
  it('no data (NXDOMAIN or no TXT) is missing', () => {
    expect(checkRecord(record('dkim'), { error: 'no_data' })).toEqual({ purpose: 'dkim', status: 'missing' });
  });

  it('a failed lookup is lookup_failed with its code, not missing', () => {
    expect(checkRecord(record('ownership'), { error: 'failed', code: 'ETIMEOUT' })).toEqual({
      purpose: 'ownership',
      status: 'lookup_failed',
      problem: 'DNS lookup failed (ETIMEOUT)',
    });
  });
});

describe('verification verdict', () => {
  const checks = (statuses: Partial<Record<RecordPurpose, RecordStatus>>): RecordCheck[] =>
    (['ownership', 'dkim', 'spf', 'dmarc'] as const).map((purpose) => ({
      purpose,
      status: statuses[purpose] ?? 'found',
    }));

  it('is verified iff every required record is found; SPF and DMARC do not matter', () => {
    expect(verdictOf(records, checks({ spf: 'missing', dmarc: 'wrong_value' }))).toBe('verified');
  });

  it('is pending when a required record is missing or has a wrong value', () => {
    expect(verdictOf(records, checks({ dkim: 'missing' }))).toBe('pending');
    expect(verdictOf(records, checks({ ownership: 'wrong_value' }))).toBe('pending');
    expect(verdictOf(records, checks({ dkim: 'lookup_failed', ownership: 'missing' }))).toBe('pending');
  });

  it('is inconclusive when a required lookup failed and nothing required is known bad', () => {
    expect(verdictOf(records, checks({ dkim: 'lookup_failed' }))).toBe('inconclusive');
  });

  it('names the required records at fault as the reason', () => {
    expect(pendingReason(records, checks({ dkim: 'missing' }))).toBe('dkim record missing');
    expect(pendingReason(records, checks({ ownership: 'wrong_value', dkim: 'missing', spf: 'missing' }))).toBe(
      'ownership record has a wrong value; dkim record missing',
    );
  });
});

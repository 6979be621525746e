import {
  INVALID_VERDICTS,
  isInvalidVerdict,
  LIST_VERDICTS,
  listVerdict,
  type AddressFindings,
} from './list-verdicts.js';

/** A deliverable personal address with nothing to report; override per rule. */
const findings = (overrides: Partial<AddressFindings> = {}): AddressFindings => ({
  mail: 'accepts',
  disposable: false,
  role: false,
  ...overrides,
});

describe('listVerdict: one verdict per address, the first that applies', () => {
  it('nothing to report for a deliverable address that is neither disposable, misspelt nor a role', () => {
    expect(listVerdict(findings())).toBeUndefined();
  });

  it.each<[string, Partial<AddressFindings>, string]>([
    ['a domain that takes no mail is invalid_domain', { mail: 'refuses' }, 'invalid_domain'],
    ['a disposable provider is disposable', { disposable: true }, 'disposable'],
    ['a misspelt provider is typo', { suggestion: 'bob@gmail.com' }, 'typo'],
    ['a role mailbox is role_address', { role: true }, 'role_address'],
    ['DNS that did not answer is unverified', { mail: 'unknown' }, 'unverified'],
  ])('%s', (_rule, overrides, verdict) => {
    expect(listVerdict(findings(overrides))?.verdict).toBe(verdict);
  });

  it('invalid_domain comes before disposable, typo and role', () => {
    const all = { mail: 'refuses', disposable: true, suggestion: 'x@gmail.com', role: true } as const;
    expect(listVerdict(findings(all))).toEqual({ verdict: 'invalid_domain', suggestion: 'x@gmail.com' });
  });

  it('disposable comes before typo (gmial.com is both) and keeps the suggestion', () => {
    expect(listVerdict(findings({ disposable: true, suggestion: 'bob@gmail.com' }))).toEqual({
      verdict: 'disposable',
      suggestion: 'bob@gmail.com',
    });
  });

  it('typo comes before role_address; role_address before unverified', () => {
    expect(listVerdict(findings({ suggestion: 'info@gmail.com', role: true }))?.verdict).toBe('typo');
    expect(listVerdict(findings({ role: true, mail: 'unknown' }))?.verdict).toBe('role_address');
  });

  it('the suggestion goes with the verdict only when there is one', () => {
    expect(listVerdict(findings({ role: true }))).toEqual({ verdict: 'role_address' });
  });
});

describe('which verdicts keep a row out of an import with skipInvalid=true', () => {
  it('invalid_domain and disposable only; typo, role_address and unverified are warnings', () => {
    expect(LIST_VERDICTS.filter(isInvalidVerdict)).toEqual(['invalid_domain', 'disposable']);
    expect([...INVALID_VERDICTS].sort()).toEqual(['disposable', 'invalid_domain']);
  });
});

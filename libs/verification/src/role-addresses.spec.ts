import { parseAddress, type ParsedAddress } from './address-checks.js';
import { isRoleAddress, roleLocalParts } from './role-addresses.js';

const parsed = (address: string): ParsedAddress => {
  const p = parseAddress(address);
  if (!p) throw new Error(`expected ${address} to parse`);
  return p;
};

describe('isRoleAddress: the mailbox of a function, not of a person', () => {
  it.each([
    'info@acme.test',
    'admin@acme.test',
    'support@acme.test',
    'sales@acme.test',
    'noreply@acme.test',
    'postmaster@acme.test',
  ])('%s is a role address', (address) => {
    expect(isRoleAddress(parsed(address))).toBe(true);
  });

  it('a +tag does not hide the role: info+news@ is info@', () => {
    expect(isRoleAddress(parsed('info+news@acme.test'))).toBe(true);
  });

  it.each(['alice@acme.test', 'info.desk@acme.test', 'jinfo@acme.test', 'alice+info@acme.test'])(
    '%s is not: the local part must match exactly',
    (address) => {
      expect(isRoleAddress(parsed(address))).toBe(false);
    },
  );

  it('a quoted local part never is', () => {
    const quoted = { address: '"info"@acme.test', local: '"info"', domain: 'acme.test', asciiDomain: 'acme.test' };
    expect(isRoleAddress(quoted, new Set(['info', '"info"']))).toBe(false);
  });

  it('reads the package list (about a thousand local parts), lower-case', () => {
    expect(roleLocalParts.size).toBeGreaterThan(900);
    expect([...roleLocalParts].every((local) => local === local.toLowerCase())).toBe(true);
  });
});

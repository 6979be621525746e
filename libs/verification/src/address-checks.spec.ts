import {
  canonicalMailbox,
  disposableDomainOf,
  editDistance,
  isPersonalProviderDomain,
  parseAddress,
  plusAddressing,
  suggestCorrection,
  type ParsedAddress,
} from './address-checks.js';

const parsed = (address: string): ParsedAddress => {
  const p = parseAddress(address);
  if (!p) throw new Error(`expected ${address} to parse`);
  return p;
};

describe('syntax: one definition of a valid address (isValidEmail of @herald/contact-data)', () => {
  it.each([
    'not an email',
    'alice@',
    '@example.com',
    'alice@localhost',
    'alice@example',
    'a..b@example.com',
    'alice@exa_mple.com',
    ' alice@example.com',
  ])('rejects %p', (address) => {
    expect(parseAddress(address)).toBeUndefined();
  });

  it('a lone surrogate is not an address (and does not reach isEmail, which would throw)', () => {
    expect(parseAddress('\uD800a@example.com')).toBeUndefined();
  });

  it('splits at the last @ and gives the ASCII (punycode) domain for DNS', () => {
    expect(parseAddress('müller@bücher.de')).toEqual({
      address: 'müller@bücher.de',
      local: 'müller',
      domain: 'bücher.de',
      asciiDomain: 'xn--bcher-kva.de',
    });
    expect(parseAddress('"a+b"@example.com')).toMatchObject({ local: '"a+b"', domain: 'example.com' });
    // the one email rule (edge and event contracts): one @ and no whitespace, even quoted
    expect(parseAddress('"a@b"@example.com')).toBeUndefined();
    expect(parseAddress('"a b"@example.com')).toBeUndefined();
  });
});

describe('isPlusAddressed: the local part has a +tag after a non-empty base', () => {
  it('reports the base address and the tag', () => {
    expect(plusAddressing(parsed('alice+news@example.com'))).toEqual({ base: 'alice@example.com', tag: 'news' });
    expect(plusAddressing(parsed('alice+a+b@example.com'))).toEqual({ base: 'alice@example.com', tag: 'a+b' });
  });

  it('is not plus-addressing without a base, without a +, or inside a quoted local part', () => {
    expect(plusAddressing(parsed('+news@example.com'))).toBeUndefined();
    expect(plusAddressing(parsed('alice@example.com'))).toBeUndefined();
    expect(plusAddressing(parsed('"alice+news"@example.com'))).toBeUndefined();
  });
});

describe('isAlias: another spelling of a canonical mailbox at its provider', () => {
  it('maps alias domains to the canonical domain', () => {
    expect(canonicalMailbox(parsed('alice@googlemail.com'))).toEqual({
      address: 'alice@gmail.com',
      rules: ['googlemail.com is an alias domain of gmail.com'],
    });
    expect(canonicalMailbox(parsed('bob@me.com')).address).toBe('bob@icloud.com');
    expect(canonicalMailbox(parsed('bob@protonmail.ch')).address).toBe('bob@protonmail.com');
  });

  it('drops dots in a Gmail local part, also after an alias domain', () => {
    expect(canonicalMailbox(parsed('a.l.i.c.e@gmail.com'))).toEqual({
      address: 'alice@gmail.com',
      rules: ['gmail.com ignores dots in the local part'],
    });
    expect(canonicalMailbox(parsed('a.lice@googlemail.com')).rules).toHaveLength(2);
    expect(canonicalMailbox(parsed('a.lice@googlemail.com')).address).toBe('alice@gmail.com');
  });

  it('keeps dots where the provider does not ignore them', () => {
    expect(canonicalMailbox(parsed('a.lice@outlook.com'))).toEqual({ address: 'a.lice@outlook.com', rules: [] });
  });

  it('plus-addressing alone is not an alias, but the canonical address drops the tag', () => {
    expect(canonicalMailbox(parsed('alice+x@gmail.com'))).toEqual({ address: 'alice@gmail.com', rules: [] });
    expect(canonicalMailbox(parsed('a.lice+x@gmail.com'))).toEqual({
      address: 'alice@gmail.com',
      rules: ['gmail.com ignores dots in the local part'],
    });
  });
});

describe('isDisposable: the domain or a parent domain is on the disposable list', () => {
  it('finds listed domains and their subdomains (disposable-email-domains-js)', () => {
    expect(disposableDomainOf('mailinator.com')).toBe('mailinator.com');
    expect(disposableDomainOf('inbox.team.mailinator.com')).toBe('mailinator.com');
    expect(disposableDomainOf('gmail.com')).toBeUndefined();
  });

  it('never matches a bare TLD', () => {
    expect(disposableDomainOf('example.com', new Set(['com']))).toBeUndefined();
  });
});

describe('isPersonalEmail: the domain is a free mailbox provider (email-providers all.json)', () => {
  it.each(['gmail.com', 'googlemail.com', 'outlook.com', 'hotmail.co.uk', 'yahoo.com', 'icloud.com', 'gmx.de'])(
    '%s is personal',
    (domain) => {
      expect(isPersonalProviderDomain(domain)).toBe(true);
    },
  );

  it('a company domain, a provider subdomain and the RFC 2606 example.com are not', () => {
    expect(isPersonalProviderDomain('herald-mail.dev')).toBe(false);
    expect(isPersonalProviderDomain('mail.gmail.com')).toBe(false);
    expect(isPersonalProviderDomain('example.com')).toBe(false);
  });
});

describe('isTypo: a suggestion for a misspelt well-known provider domain', () => {
  it.each([
    ['alice@gmial.com', 'alice@gmail.com'],
    ['alice@gamil.com', 'alice@gmail.com'],
    ['alice@gmail.con', 'alice@gmail.com'],
    ['alice@hotmial.com', 'alice@hotmail.com'],
    ['alice@outlok.com', 'alice@outlook.com'],
    ['alice@yaho.com', 'alice@yahoo.com'],
    ['alice@gmail', 'alice@gmail.com'],
  ])('%s → %s', (address, suggestion) => {
    expect(suggestCorrection(address)).toBe(suggestion);
  });

  it('keeps a non-ASCII local part as written (the checker percent-encodes it)', () => {
    expect(suggestCorrection('müller@gmial.com')).toBe('müller@gmail.com');
  });

  it("never 'corrects' a well-known provider's own domain", () => {
    expect(suggestCorrection('alice@mac.com')).toBeUndefined(); // the checker alone says mail.com
    expect(suggestCorrection('alice@gmx.net')).toBeUndefined(); // the checker alone says cox.net
    expect(suggestCorrection('alice@protonmail.ch')).toBeUndefined();
    expect(suggestCorrection('alice@gmail.com')).toBeUndefined();
  });

  it('never guesses at company domains, country variants or distant look-alikes', () => {
    expect(suggestCorrection('bob@acme.cm')).toBeUndefined(); // the checker alone says acme.co
    expect(suggestCorrection('bob@herald-mail.dev')).toBeUndefined();
    expect(suggestCorrection('bob@yahoo.com.mx')).toBeUndefined(); // the checker alone says yahoo.com
    expect(suggestCorrection('bob@outlook.com.br')).toBeUndefined();
    expect(suggestCorrection('bob@dog.com')).toBeUndefined(); // the checker alone says aol.com
    expect(suggestCorrection('bob@mailcity.com')).toBeUndefined(); // the checker alone says mail.com
  });

  it('no suggestion when the corrected address would still be invalid', () => {
    expect(suggestCorrection('a@b@gmial.com')).toBeUndefined();
    expect(suggestCorrection('@gmial.com')).toBeUndefined();
  });

  it('never throws on malformed Unicode (the checker and isEmail would throw URIError)', () => {
    expect(suggestCorrection('\uD800a@gmial.com')).toBeUndefined();
  });
});

describe('editDistance (Damerau-Levenshtein, optimal string alignment)', () => {
  it.each([
    ['gmail.com', 'gmail.com', 0],
    ['gmial.com', 'gmail.com', 1],
    ['gmail.con', 'gmail.com', 1],
    ['gmai.com', 'gmail.com', 1],
    ['yahoo.com.mx', 'yahoo.com', 3],
    ['', 'abc', 3],
  ])('%s ↔ %s = %i', (a, b, d) => {
    expect(editDistance(a, b)).toBe(d);
    expect(editDistance(b, a)).toBe(d);
  });
});

import { isValidEmail, MAX_EMAIL_LENGTH, normaliseEmail } from './email.js';

describe('email addresses are normalised (trimmed, lower-cased) before upsert', () => {
  it.each([
    ['ada@example.com', 'ada@example.com'],
    ['  Ada@Example.COM ', 'ada@example.com'],
    ['\tBOB@EXAMPLE.ORG\n', 'bob@example.org'],
  ])('normaliseEmail(%p) is %p', (raw, expected) => {
    expect(normaliseEmail(raw)).toBe(expected);
  });
});

describe('email addresses must be valid (email format, at most 320 characters)', () => {
  it.each([
    'ada@example.com',
    'first.last+tag@sub.example.co.uk',
    'x@example.io',
    "o'brien@example.com",
    'jösé@example.de',
  ])('accepts %p', (email) => {
    expect(isValidEmail(email)).toBe(true);
  });

  it.each<[string, unknown]>([
    ['an empty string', ''],
    ['no at sign', 'ada.example.com'],
    ['no domain', 'ada@'],
    ['no local part', '@example.com'],
    ['no TLD', 'ada@localhost'],
    ['two at signs', 'ada@@example.com'],
    ['a space inside', 'ada lovelace@example.com'],
    ['surrounding whitespace (normalise first)', ' ada@example.com '],
    ['a display name', 'Ada <ada@example.com>'],
    ['a quoted local part with a space (the event contract refuses it)', '"a b"@example.com'],
    ['a quoted local part with an at sign', '"a@b"@example.com'],
    ['a right-to-left override (U+202E)', 'ada\u202e@example.com'],
    ['a zero-width space', 'ada\u200b@example.com'],
    ['a NUL', 'ada\u0000@example.com'],
    ['a lone surrogate', 'ada\ud800@example.com'],
    ['a local part over 64 characters', `${'a'.repeat(65)}@example.com`],
    ['more than 320 characters', `${'a'.repeat(64)}@${'b'.repeat(250)}.com`.padEnd(MAX_EMAIL_LENGTH + 1, 'm')],
    ['a non-string', 42],
    ['null', null],
  ])('rejects %s', (_label, email) => {
    expect(isValidEmail(email)).toBe(false);
  });

  it('is capped at 320 characters', () => {
    expect(MAX_EMAIL_LENGTH).toBe(320);
  });
});

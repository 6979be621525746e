import { API_KEY_PATTERN, generateApiKey, hashApiKey } from './api-keys.js';

describe('API keys: live and test pairs (docs/test-mode.md)', () => {
  it.each([
    ['secret', false, /^sk_[0-9a-f]{48}$/, 10],
    ['public', false, /^pk_[0-9a-f]{48}$/, 10],
    ['secret', true, /^sk_test_[0-9a-f]{48}$/, 15],
    ['public', true, /^pk_test_[0-9a-f]{48}$/, 15],
  ] as const)(
    'a %s key (test mode %s) has its format, its hash and a prefix of its head and 7 characters',
    (kind, testMode, format, prefixLength) => {
      const k = generateApiKey(kind, testMode);
      expect(k.key).toMatch(format);
      expect(API_KEY_PATTERN.test(k.key)).toBe(true);
      expect(k.hash).toBe(hashApiKey(k.key));
      expect(k.prefix).toBe(k.key.slice(0, prefixLength));
    },
  );

  it('the pattern refuses what is no key: another head, a misspelt test mark, the wrong length', () => {
    for (const bad of [
      `xk_${'a'.repeat(48)}`,
      `sk_tst_${'a'.repeat(48)}`,
      `sk_test_${'a'.repeat(47)}`,
      `sk_${'A'.repeat(48)}`,
    ])
      expect(API_KEY_PATTERN.test(bad)).toBe(false);
  });
});

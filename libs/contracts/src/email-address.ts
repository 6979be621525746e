import { ValidateBy, type ValidationOptions } from 'class-validator';
// validator ships CommonJS (`module.exports = isEmail; module.exports.default = isEmail`). Under Node
// ESM, Jest ESM and TypeScript NodeNext alike, the namespace's `default` is that function.
import * as isEmailModule from 'validator/lib/isEmail.js';

const isEmail = (isEmailModule as unknown as { default: (s: string) => boolean }).default;

/** RFC 3696 errata / RFC 5321 practical maximum. */
export const MAX_EMAIL_LENGTH = 320;

/** One `@`, no whitespace anywhere (a quoted local part such as `"a b"@example.com` is refused). */
const SHAPE = /^[^\s@]+@[^\s@]+$/;
/** Control and format characters (NUL, bidi overrides such as U+202E, zero-width joiners) and lone surrogates. */
const INVISIBLE = /[\p{Cc}\p{Cf}\p{Cs}\p{Zl}\p{Zp}]/u;

/**
 * THE email rule, the same where an address enters Herald (DTOs, CSV rows, /v1/send) and in every
 * event contract that carries one: at most MAX_EMAIL_LENGTH characters, one `@` and no whitespace,
 * no control or format character (a U+202E would reverse how the address is displayed), and
 * validator's isEmail with its defaults (a TLD is required, no display name, no IP-literal domain,
 * UTF-8 local parts allowed). Surrounding whitespace makes it invalid: normalise first.
 */
export function isValidEmail(s: unknown): s is string {
  return (
    typeof s === 'string' &&
    s.length > 0 &&
    s.length <= MAX_EMAIL_LENGTH &&
    SHAPE.test(s) &&
    !INVISIBLE.test(s) &&
    isEmail(s)
  );
}

/**
 * A property holding an email address by {@link isValidEmail}: on API DTOs and on event contracts
 * alike, so an address the edge accepted never fails a contract later.
 */
export const IsEmailAddress = (options?: ValidationOptions): PropertyDecorator =>
  ValidateBy(
    {
      name: 'isEmailAddress',
      validator: {
        validate: (value: unknown) => isValidEmail(value),
        defaultMessage: () => '$property must be a valid email address',
      },
    },
    options,
  );

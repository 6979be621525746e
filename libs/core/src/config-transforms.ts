/** class-transformer `@Transform` functions for environment variables (always strings) in config classes. */

/** `"42"` → 42; anything else passes through to the validators. */
export const toInt = ({ value }: { value: unknown }): unknown => (typeof value === 'string' ? Number(value) : value);

/** `1`, `true`, `yes` (any case) → true; other strings → false. */
export const toBool = ({ value }: { value: unknown }): unknown =>
  typeof value === 'string' ? ['1', 'true', 'yes'].includes(value.toLowerCase()) : value;

/** `"0.003"` → 0.003; anything else passes through to the validators. */
export const toFloat = ({ value }: { value: unknown }): unknown =>
  typeof value === 'string' && value.trim() !== '' ? Number(value) : value;

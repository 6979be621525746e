/**
 * Splits changes into rounds where each contact appears at most once, keeping each contact's
 * changes in their order: applying the rounds one statement after another is applying the changes
 * one by one (one statement cannot change a row twice).
 */
export function rounds<T>(items: T[], contactOf: (t: T) => string, projectOf: (t: T) => string): T[][] {
  const out: T[][] = [];
  const seen = new Map<string, number>();
  for (const item of items) {
    const key = `${projectOf(item)}\u0000${contactOf(item)}`;
    const n = seen.get(key) ?? 0;
    seen.set(key, n + 1);
    (out[n] ??= []).push(item);
  }
  return out;
}

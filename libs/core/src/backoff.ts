/**
 * How a retry's wait is spread: `none` waits the exponential delay itself; `equal` waits half of it
 * plus a random part of the other half (never less than half: a floor under the schedule);
 * `full` waits a random part of all of it (the widest spread, for many clients hitting one thing).
 */
export type Jitter = 'none' | 'equal' | 'full';

export interface BackoffOptions {
  /** The wait after the first failure (before jitter). */
  baseMs: number;
  /** The longest wait (before jitter). */
  maxMs: number;
  /** Growth per attempt: 2 doubles the wait each time. */
  factor?: number;
  /** Default `equal`. */
  jitter?: Jitter;
  /** A number in [0, 1); `Math.random` unless a test pins it. */
  random?: () => number;
}

/**
 * The one retry schedule of the codebase: the wait after failed attempt `attempt` (counting from 1)
 * is `baseMs × factor^(attempt − 1)`, at most `maxMs`, spread by `jitter` so that workers that failed
 * together do not all come back at the same instant. Attempts below 1 count as the first.
 */
export function backoffDelay(attempt: number, options: BackoffOptions): number {
  const { baseMs, maxMs, factor = 2, jitter = 'equal', random = Math.random } = options;
  const exponent = Math.max(0, Math.floor(attempt) - 1);
  const ceiling = Math.max(0, Math.min(maxMs, baseMs * factor ** exponent));
  const r = Math.min(Math.max(random(), 0), 1);
  switch (jitter) {
    case 'none':
      return Math.round(ceiling);
    case 'full':
      return Math.round(ceiling * r);
    case 'equal':
      return Math.round(ceiling / 2 + (ceiling / 2) * r);
  }
}

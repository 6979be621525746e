import { backoffDelay } from '@herald/core';

/** `5s,5m,30m,2h`: durations in ms, s, m or h, comma-separated (spaces allowed). */
export const RETRY_SCHEDULE_PATTERN = /^\s*\d+\s*(ms|s|m|h)\s*(,\s*\d+\s*(ms|s|m|h)\s*)*$/;

const UNIT_MS = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 } as const;

/** The waits of a `WEBHOOKS_RETRY_SCHEDULE`, in milliseconds (throws on a value the setting refuses). */
export function parseRetrySchedule(text: string): number[] {
  if (!RETRY_SCHEDULE_PATTERN.test(text)) throw new Error(`not a retry schedule: ${JSON.stringify(text)}`);
  return text.split(',').map((part) => {
    const [, n, unit] = /^\s*(\d+)\s*(ms|s|m|h)\s*$/.exec(part)!;
    return Number(n) * UNIT_MS[unit as keyof typeof UNIT_MS];
  });
}

/**
 * The wait after failed attempt `attempt` (counting from 1) of a delivery: the schedule's entry,
 * jittered between half of it and all of it (`backoffDelay`'s equal jitter, so that deliveries that
 * failed together do not come back at the same instant); undefined once the schedule is spent (the
 * delivery is dead after `schedule.length + 1` attempts).
 */
export function retryDelay(schedule: readonly number[], attempt: number, random: () => number = Math.random) {
  const wait = schedule[attempt - 1];
  if (wait === undefined) return undefined;
  return backoffDelay(1, { baseMs: wait, maxMs: wait, jitter: 'equal', random });
}

/** The shortest time from a first attempt to the last retry (every wait at its floor, half its entry). */
export function shortestSpanMs(schedule: readonly number[]): number {
  return schedule.reduce((sum, wait) => sum + wait / 2, 0);
}

/** What becomes of a delivery after an attempt. */
export type AttemptVerdict = { status: 'delivered' } | { status: 'pending'; retryInMs: number } | { status: 'dead' };

/**
 * A delivery's state after its attempt number `attempt`: a 2xx answer delivered it; anything else (an
 * error status, a timeout, a refused or failed connection) is retried on the schedule, and after the
 * schedule's last retry the delivery is dead.
 */
export function verdictOf(
  ok: boolean,
  attempt: number,
  schedule: readonly number[],
  random: () => number = Math.random,
): AttemptVerdict {
  if (ok) return { status: 'delivered' };
  const retryInMs = retryDelay(schedule, attempt, random);
  return retryInMs === undefined ? { status: 'dead' } : { status: 'pending', retryInMs };
}

/** Whether an HTTP status delivers: 2xx only (a redirect is not followed, so it is a failure). */
export const deliversWith = (status: number): boolean => status >= 200 && status < 300;

import {
  LATEST,
  mergePositions,
  positionsContext,
  RequestPositions,
  type MicroBatcherOptions,
  type Observed,
} from '@herald/core';

/** How /v1/send's batches are sized (tests pin them; the defaults suit a service process). */
export interface SendBatching {
  lookups?: MicroBatcherOptions;
  writes?: MicroBatcherOptions;
}

/** Optional provider of `SendBatching` for SendEmailUseCase. */
export const SEND_BATCHING = Symbol('SEND_BATCHING');

/** What every /v1/send handed to a batch carries besides its own work: its project, request id and positions. */
export interface BatchedRequest {
  projectId: string;
  requestId?: string | undefined;
  /**
   * The request's read-your-writes context, taken when it joined the batch: a batch runs in the
   * async context of whichever request started it, so each request's positions travel with it.
   */
  positions: RequestPositions | undefined;
}

/** The current request's positions (none outside a request), for a `BatchedRequest`. */
export const currentPositions = (): RequestPositions | undefined => positionsContext.getStore();

/**
 * Runs `call` (internal calls of `projectId`) on behalf of every request of `requests`, in a
 * positions context of its own: the callee observes what each of them must observe (the larger of
 * each position, `latest` if any must), and each request then records what the call wrote as its
 * own write, as if it had made the call alone (read-your-writes: its next request reads it).
 */
export async function callFor<T>(projectId: string, requests: BatchedRequest[], call: () => Promise<T>): Promise<T> {
  const shared = new RequestPositions();
  shared.projectId = projectId;
  shared.observed = requests.reduce<Observed>((observed, r) => {
    const own = r.positions?.forCallee(projectId) ?? {};
    return observed === LATEST || own === LATEST ? LATEST : mergePositions(observed, own);
  }, {});
  try {
    return await positionsContext.run(shared, call);
  } finally {
    for (const r of requests) r.positions?.absorb(shared.written);
  }
}

/** The request id a call made for `requests` carries: theirs when they are one request, none when several. */
export function requestIdOf(requests: BatchedRequest[]): string | undefined {
  const first = requests[0]?.requestId;
  return requests.every((r) => r.requestId === first) ? first : undefined;
}

/** Items grouped by project, each group in submission order, with their indexes in `items`. */
export function byProject<T extends { projectId: string }>(items: T[]): Map<string, { item: T; index: number }[]> {
  const groups = new Map<string, { item: T; index: number }[]>();
  items.forEach((item, index) => {
    const group = groups.get(item.projectId);
    if (group) group.push({ item, index });
    else groups.set(item.projectId, [{ item, index }]);
  });
  return groups;
}

/** Consecutive runs of `items` whose `size` adds up to at most `max` (an item larger than `max` alone). */
export function chunksOf<T>(items: T[], size: (item: T) => number, max: number): T[][] {
  const chunks: T[][] = [];
  let current: T[] = [];
  let total = 0;
  for (const item of items) {
    const n = size(item);
    if (current.length > 0 && total + n > max) {
      chunks.push(current);
      current = [];
      total = 0;
    }
    current.push(item);
    total += n;
  }
  if (current.length > 0) chunks.push(current);
  return chunks;
}

/** How many JSON values `value` holds, itself included (objects and arrays count, as a body's limits count them). */
export function jsonValues(value: unknown): number {
  if (value === undefined) return 0;
  let n = 0;
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const v = stack.pop();
    n++;
    if (v !== null && typeof v === 'object') stack.push(...Object.values(v));
  }
  return n;
}

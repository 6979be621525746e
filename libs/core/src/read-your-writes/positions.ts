import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * Read-your-writes (docs/consistency.md, ADR 0014). A **position** is an id of a producing service's
 * outbox: every event that service published for a project up to that id. A write answers the
 * positions it wrote (per project); the edge (the gateway, or standalone's one process) keeps each
 * project's latest, and every later request of the project carries them, so that a service answering
 * from a copy fed by those events first waits until the copy has applied them.
 */
export type Positions = Record<string, number>;

/** A position meaning "whatever the producer has committed when asked" (jobs: a campaign's audience at its time). */
export const LATEST = 'latest' as const;

/** What a request must observe: positions per producer, or the latest of every producer. */
export type Observed = Positions | typeof LATEST;

/** Positions the edge passes to a service with each request of a project (`contacts=12,segments=4`, or `latest`). */
export const POSITIONS_HEADER = 'x-herald-positions';

/** Positions a service's answer wrote, per project, for the edge to keep (JSON: `{"<projectId>": {"contacts": 12}}`). */
export const WRITTEN_HEADER = 'x-herald-written';

const SERVICE_NAME = /^[a-z][a-z0-9-]{0,39}$/;

/** The larger of each producer's position (neither argument changes). */
export function mergePositions(a: Positions, b: Positions): Positions {
  const out: Positions = { ...a };
  for (const [service, id] of Object.entries(b)) if (!(id <= (out[service] ?? 0))) out[service] = id;
  return out;
}

export function encodePositions(observed: Observed): string {
  if (observed === LATEST) return LATEST;
  return Object.entries(observed)
    .map(([service, id]) => `${service}=${id}`)
    .join(',');
}

/** The header's positions; anything malformed is dropped (the header comes from Herald's own edge). */
export function decodePositions(header: string | string[] | undefined): Observed {
  const text = Array.isArray(header) ? header.join(',') : (header ?? '');
  if (text.trim() === LATEST) return LATEST;
  const out: Positions = {};
  for (const part of text.split(',')) {
    const [service, raw] = part.trim().split('=');
    const id = Number(raw);
    if (service && SERVICE_NAME.test(service) && Number.isSafeInteger(id) && id > 0)
      out[service] = Math.max(out[service] ?? 0, id);
  }
  return out;
}

/** Positions written per project. */
export type WrittenPositions = Map<string, Positions>;

export function encodeWritten(written: WrittenPositions): string {
  return JSON.stringify(Object.fromEntries(written));
}

export function decodeWritten(header: string | string[] | undefined): WrittenPositions {
  const out: WrittenPositions = new Map();
  if (typeof header !== 'string' || header.length === 0 || header.length > 64 * 1024) return out;
  let parsed: unknown;
  try {
    parsed = JSON.parse(header);
  } catch {
    return out;
  }
  if (!parsed || typeof parsed !== 'object') return out;
  for (const [projectId, positions] of Object.entries(parsed as Record<string, unknown>)) {
    if (!positions || typeof positions !== 'object') continue;
    const clean = decodePositions(
      Object.entries(positions as Record<string, unknown>)
        .map(([s, id]) => `${s}=${String(id)}`)
        .join(','),
    );
    if (clean !== LATEST && Object.keys(clean).length > 0) out.set(projectId, clean);
  }
  return out;
}

/**
 * What one request (or one internal call) knows of positions, kept in its async context: what it
 * must observe (for its project, once the edge or the caller named them) and what its writes wrote.
 */
export class RequestPositions {
  /** Positions of the request's project it must observe (set by the read-your-writes gate). */
  observed: Observed = {};
  /** The request's project, once known. */
  projectId?: string;
  /** Positions written by this request, per project: outbox inserts and the answers of internal calls. */
  readonly written: WrittenPositions = new Map();

  /** Records that `service` published events of each project up to `id` in this request. */
  wrote(projectIds: Iterable<string>, service: string, id: number): void {
    for (const projectId of projectIds) {
      const known = this.written.get(projectId);
      if (!known) this.written.set(projectId, { [service]: id });
      else if (!(id <= (known[service] ?? 0))) known[service] = id;
    }
  }

  /** Merges what another service's answer wrote (an internal call's `x-herald-written`). */
  absorb(written: WrittenPositions): void {
    for (const [projectId, positions] of written)
      for (const [service, id] of Object.entries(positions)) this.wrote([projectId], service, id);
  }

  /**
   * What an internal call made now for `projectId` must observe: the request's own positions and
   * what it wrote so far (a callee may read a copy of what this request just wrote).
   */
  forCallee(projectId: string): Observed {
    if (this.observed === LATEST) return LATEST;
    const own = projectId === this.projectId ? this.observed : {};
    return mergePositions(own, this.written.get(projectId) ?? {});
  }
}

/** The positions of the request being handled (none outside a request: jobs, consumers). */
export const positionsContext = new AsyncLocalStorage<RequestPositions>();

/** Records a write of `service`'s outbox in the current request, if any (the outbox calls it). */
export function recordWrite(projectIds: Iterable<string>, service: string, id: number): void {
  positionsContext.getStore()?.wrote(projectIds, service, id);
}

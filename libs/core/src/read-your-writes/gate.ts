import { SetMetadata, type ExecutionContext } from '@nestjs/common';
import type { Positions, WrittenPositions } from './positions.js';

/**
 * The read-your-writes gate (implemented by @herald/messaging): the process's authentication guard
 * calls it once it knows the request's project, so that the route runs only once every copy it reads
 * has applied the project's earlier writes (docs/consistency.md). A port here so that the guards of
 * @herald/auth and the gateway call it without depending on the messaging library.
 */
export interface ReadYourWritesGate {
  /** Waits (bounded) for the copies the route reads; throws the 503 `CONSISTENCY_TIMEOUT` when they stay behind. */
  pass(context: ExecutionContext, projectId: string | undefined): Promise<void>;
}

export const READ_YOUR_WRITES_GATE = Symbol('READ_YOUR_WRITES_GATE');

/** The code of the 503 a route answers when a copy it reads stays behind its project's writes. */
export const CONSISTENCY_TIMEOUT = 'CONSISTENCY_TIMEOUT';

export const OBSERVES_WRITES_OF = 'herald:observes-writes-of';

/**
 * Which services' writes a route must observe: it answers from copies fed by their events only.
 * Without it, a route observes every service whose events its own service consumes (the safe
 * default: every copy the service keeps). `@ObservesWritesOf()` (none) for routes that read only
 * their service's own tables, or that are not a project's (health, internal plumbing).
 */
export const ObservesWritesOf = (...services: string[]): ClassDecorator & MethodDecorator =>
  SetMetadata(OBSERVES_WRITES_OF, services);

/**
 * Where the edge of a deployment keeps each project's latest positions: in memory in standalone
 * mode, in Redis behind the gateway (its replicas share them). Written before a write's answer
 * leaves, read for each later request of the project.
 */
export interface ProjectPositionsStore {
  /** The project's latest positions: what its next request must observe. */
  get(projectId: string): Promise<Positions>;
  /** Keeps what a request wrote, per project (each producer's position only ever grows). */
  record(written: WrittenPositions): Promise<void>;
}

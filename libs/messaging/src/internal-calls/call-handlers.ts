import type { CallContract, CallGroup } from '@herald/internal-contracts';
import { positionsContext, READ_YOUR_WRITES_GATE, RequestPositions, type Observed } from '@herald/core';
import { Inject, Injectable } from '@nestjs/common';
import type { ReadYourWrites } from '../read-your-writes/read-your-writes.gate.js';
import { asCallerSees, callUnavailable } from './call-errors.filter.js';
import { checkCallRequest } from './call-request.pipe.js';

/** What a handler knows of the call besides its project and request. */
export interface CallContext {
  /** The request id of the call's origin (for logs and correlation ids). */
  requestId?: string;
  /**
   * In process only (standalone mode: the caller and the owner on one PostgreSQL), never over HTTP:
   * the caller commits durably on that server after this call and before it answers anyone, so the
   * owner's commits may return without waiting for the disk (`NO_FLUSH_WAIT`). `CallOptions`.
   */
  durableCommitFollows?: boolean;
}

/** An owner's answer to one call. */
export type CallHandler<Req extends object, Res> = (
  projectId: string,
  request: Req,
  context: CallContext,
) => Promise<Res>;

/** An owner's answer to each call of its group: the compiler names a missing one. */
export type HandlersOf<G extends CallGroup> = {
  [K in keyof G['calls']]: G['calls'][K] extends CallContract<infer Req, infer Res> ? CallHandler<Req, Res> : never;
};

/**
 * The calls this process answers, registered by their owners (each service's `*.calls.ts` provider at
 * module init), and the one path every call takes into its owner, in process (standalone) as over
 * HTTP (distributed, `InternalCallsController`): the request checked against the contract, the
 * owner's copies brought up to what the caller must observe (read-your-writes), the handler run in a
 * positions context of its own whose writes join the caller's, and any failure turned into the
 * domain error the caller sees in both modes.
 */
@Injectable()
export class CallHandlers {
  private readonly handlers = new Map<
    string,
    { contract: CallContract<object, unknown>; handler: CallHandler<object, unknown> }
  >();

  constructor(@Inject(READ_YOUR_WRITES_GATE) private readonly gate: Pick<ReadYourWrites, 'observe'>) {}

  /** Registers `owner`'s answers to every call of its group. */
  serve<G extends CallGroup>(group: G, handlers: HandlersOf<G>): void {
    const entries = (Object.entries(group.calls) as [string, CallContract<object, unknown>][]).map(
      ([short, contract]) => {
        const handler = (handlers as Record<string, CallHandler<object, unknown> | undefined>)[short];
        if (!handler) throw new Error(`${contract.name} has no handler`);
        if (this.handlers.has(contract.name)) throw new Error(`${contract.name} is answered twice`);
        return { contract, handler };
      },
    );
    for (const entry of entries) this.handlers.set(entry.contract.name, entry);
  }

  answers(name: string): boolean {
    return this.handlers.has(name);
  }

  /**
   * Runs a call in its owner. `checked`: the caller's end already checked the request against the
   * contract (in process, one check serves both ends). Throws a domain error only.
   */
  async dispatch<Req extends object, Res>(
    contract: CallContract<Req, Res>,
    projectId: string,
    request: unknown,
    observed: Observed,
    context: CallContext,
    checked = false,
  ): Promise<Res> {
    const entry = this.handlers.get(contract.name);
    if (!entry) throw callUnavailable(contract.owner, `${contract.name} is not answered by this process`);
    const value = checked ? (request as Req) : await checkCallRequest(contract, request);
    const caller = positionsContext.getStore();
    const callee = new RequestPositions();
    callee.projectId = projectId;
    callee.observed = observed;
    try {
      return await positionsContext.run(callee, async () => {
        await this.gate.observe(contract.owner, projectId, observed, contract.observes);
        return jsonShaped((await entry.handler(projectId, value, context)) as Res);
      });
    } catch (err) {
      throw asCallerSees(contract.owner, err);
    } finally {
      caller?.absorb(callee.written);
    }
  }
}

/**
 * The answer as JSON would carry it: the same object when it holds only JSON values (the common case,
 * no copy), else its JSON round trip (a `Date` becomes its ISO string, as over HTTP), so that a caller
 * sees the same answer in both modes.
 */
export function jsonShaped<T>(value: T): T {
  return isJsonValue(value, 0) ? value : (JSON.parse(JSON.stringify(value) ?? 'null') as T);
}

function isJsonValue(value: unknown, depth: number): boolean {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return true;
  if (typeof value === 'number') return Number.isFinite(value);
  if (typeof value !== 'object' || depth > 64) return false;
  if (Array.isArray(value)) return value.every((v) => isJsonValue(v, depth + 1));
  const proto = Object.getPrototypeOf(value) as unknown;
  if (proto !== Object.prototype && proto !== null) return false;
  for (const key in value) {
    const v = (value as Record<string, unknown>)[key];
    if (v !== undefined && !isJsonValue(v, depth + 1)) return false;
  }
  return true;
}

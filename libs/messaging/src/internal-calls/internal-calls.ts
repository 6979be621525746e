import { InternalClient } from '@herald/auth';
import type { CallContract, CallGroup } from '@herald/internal-contracts';
import { HERALD_RUNTIME, positionsContext, SpanKind, withSpan, type HeraldRuntime, type Observed } from '@herald/core';
import { Inject, Injectable } from '@nestjs/common';
import { CallHandlers } from './call-handlers.js';
import { checkCallRequest } from './call-request.pipe.js';

/** The HTTP route of a call in distributed mode. */
export const callPath = (contract: CallContract<object, unknown>): string => `/internal/calls/${contract.name}`;

export interface CallOptions {
  /** The request id of the call's origin. */
  requestId?: string;
  /** What the owner must observe (default: the current request's positions and writes, if any). */
  observe?: Observed;
  /** Over HTTP: this call's deadline (default 10 s). */
  timeoutMs?: number;
  /**
   * The caller's promise that it commits durably on its PostgreSQL after this call, before it answers
   * anyone (/v1/send: its emails' insert). In standalone mode, where every service shares that
   * server, the owner's commits then skip their own wait for the disk (`CallContext`); over HTTP the
   * owner may be on another server and commits as always.
   */
  durableCommitFollows?: boolean;
}

/** One owner's calls as its callers use them: `client.upsert(projectId, request, options)`. */
export type CallClient<G extends CallGroup> = {
  readonly [K in keyof G['calls']]: G['calls'][K] extends CallContract<infer Req, infer Res>
    ? (projectId: string, request: Req, options?: CallOptions) => Promise<Res>
    : never;
};

/**
 * Synchronous calls between services (ADR 0016), built from their contracts in
 * `@herald/internal-contracts`. Standalone: the owner's handler runs in this process (no HTTP, no
 * serialisation; the request checked once for both ends). Distributed: the request is checked here,
 * then sent to the owner's `POST /internal/calls/<name>` at its `<NAME>_URL` with a short-lived
 * service principal, the positions the owner must observe and what it wrote coming back.
 * Each call is a span (`call <name>`; ADR 0019): in-process, the owner's handler runs in it;
 * over HTTP, its `traceparent` header makes the owner's server span its child.
 */
@Injectable()
export class InternalCalls {
  private readonly http = new Map<string, InternalClient>();

  constructor(
    @Inject(HERALD_RUNTIME) private readonly runtime: HeraldRuntime,
    private readonly handlers: CallHandlers,
  ) {}

  /** The client of `group`'s owner for `caller` (the service named in the principal it signs). */
  client<G extends CallGroup>(group: G, caller: string): CallClient<G> {
    const client: Record<string, unknown> = {};
    for (const [short, contract] of Object.entries(group.calls) as [string, CallContract<object, unknown>][])
      client[short] = (projectId: string, request: object, options?: CallOptions) =>
        this.call(caller, contract, projectId, request, options);
    return client as CallClient<G>;
  }

  async call<Req extends object, Res>(
    caller: string,
    contract: CallContract<Req, Res>,
    projectId: string,
    request: Req,
    options: CallOptions = {},
  ): Promise<Res> {
    const checked = await checkCallRequest(contract, request);
    const observe = options.observe ?? positionsContext.getStore()?.forCallee(projectId) ?? {};
    const standalone = this.runtime.mode === 'standalone';
    return withSpan(
      `call ${contract.name}`,
      {
        kind: standalone ? SpanKind.INTERNAL : SpanKind.CLIENT,
        attributes: { 'herald.call': contract.name, 'herald.caller': caller, 'herald.callee': contract.owner },
      },
      () =>
        standalone
          ? this.handlers.dispatch(
              contract,
              projectId,
              checked,
              observe,
              { requestId: options.requestId, durableCommitFollows: options.durableCommitFollows === true },
              true,
            )
          : this.over(caller, contract.owner).post<Res>(projectId, callPath(contract), checked, options.requestId, {
              observe,
              ...((options.timeoutMs ?? contract.timeoutMs)
                ? { timeoutMs: options.timeoutMs ?? contract.timeoutMs }
                : {}),
            }),
    );
  }

  private over(caller: string, owner: string): InternalClient {
    const key = `${caller}\u0000${owner}`;
    let client = this.http.get(key);
    if (!client) {
      const variable = owner === 'gateway' ? 'GATEWAY_URL (or APP_URL)' : `${owner.toUpperCase()}_URL`;
      client = new InternalClient(
        caller,
        owner,
        () => this.runtime.peerUrls?.[owner] ?? Promise.reject(new Error(`${variable} is not configured`)),
        this.runtime.internalJwtSecret,
      );
      this.http.set(key, client);
    }
    return client;
  }
}

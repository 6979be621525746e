import {
  decodeWritten,
  encodeWritten,
  HERALD_RUNTIME,
  positionsContext,
  RequestPositions,
  WRITTEN_HEADER,
  type HeraldRuntime,
  type Positions,
  type ProjectPositionsStore,
  type WrittenPositions,
} from '@herald/core';
import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

const POSITIONS = Symbol('herald.positions');
type WithPositions = FastifyRequest & { [POSITIONS]?: RequestPositions };

/**
 * Where a request's written positions go, and where its observed ones come from. Every request runs
 * in a {@link RequestPositions} context that the outbox (and internal calls' answers) fill. At the
 * edge, the process that keeps the projects' positions (standalone, or the gateway: it attaches its
 * store), what a request wrote, and what a proxied service's answer says it wrote (`x-herald-written`,
 * then removed), is kept before the answer leaves; in a service behind the gateway it goes back in
 * `x-herald-written`. Off with READ_YOUR_WRITES=false: no context, no header, nothing kept.
 */
@Injectable()
export class PositionsEdge implements OnModuleInit {
  private store?: ProjectPositionsStore;
  private readonly enabled: boolean;

  constructor(
    @Inject(HERALD_RUNTIME) runtime: HeraldRuntime,
    private readonly host: HttpAdapterHost,
  ) {
    this.enabled = runtime.readYourWrites?.enabled ?? true;
  }

  /** This process is the edge: it keeps the projects' positions in `store`. */
  attach(store: ProjectPositionsStore): void {
    this.store = store;
  }

  get isEdge(): boolean {
    return this.store !== undefined;
  }

  /** The project's positions as the edge keeps them (none behind the gateway). */
  observed(projectId: string): Promise<Positions> {
    return this.store ? this.store.get(projectId) : Promise.resolve({});
  }

  onModuleInit(): void {
    if (!this.enabled) return;
    const fastify = this.host.httpAdapter?.getInstance<FastifyInstance>();
    if (!fastify) return;
    fastify.addHook('preHandler', (req, _reply, done) => {
      const ctx = new RequestPositions();
      (req as WithPositions)[POSITIONS] = ctx;
      positionsContext.run(ctx, done);
    });
    fastify.addHook('onSend', async (req, reply, payload) => {
      await this.answered(req as WithPositions, reply);
      return payload;
    });
  }

  private async answered(req: WithPositions, reply: FastifyReply): Promise<void> {
    const written: WrittenPositions = req[POSITIONS]?.written ?? new Map();
    if (!this.store) {
      if (written.size > 0) void reply.header(WRITTEN_HEADER, encodeWritten(written));
      return;
    }
    const upstream = reply.getHeader(WRITTEN_HEADER);
    if (upstream !== undefined) {
      reply.removeHeader(WRITTEN_HEADER);
      const proxied = decodeWritten(typeof upstream === 'string' ? upstream : undefined);
      const mine = new RequestPositions();
      mine.absorb(written);
      mine.absorb(proxied);
      if (mine.written.size > 0) await this.store.record(mine.written);
    } else if (written.size > 0) await this.store.record(written);
  }
}

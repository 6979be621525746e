import { producersOf, type Principal } from '@herald/contracts';
import {
  CONSISTENCY_TIMEOUT,
  decodePositions,
  DomainError,
  HERALD_RUNTIME,
  LATEST,
  OBSERVES_WRITES_OF,
  POSITIONS_HEADER,
  positionsContext,
  type HeraldRuntime,
  type Observed,
  type ReadYourWritesGate,
} from '@herald/core';
import { Inject, Injectable, Optional, type ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { FastifyRequest } from 'fastify';
import { ConsumerRegistry } from '../consumer/consumer-registry.js';
import { messagingMetrics } from '../metrics.js';
import { KafkaCatchUp } from '../kafka/kafka-catch-up.js';
import { HOSTED_CONTROLLERS, type HostedControllers } from './hosted-controllers.js';
import { LocalRelays } from './local-relays.js';
import { PositionsEdge } from './positions-edge.js';
import { ProducerPositionsClient } from './producer-positions-client.js';

/** Confirmed positions kept per reader, project and producer (the oldest are forgotten past this). */
const MAX_CONFIRMED = 100_000;

/**
 * The 503 of a copy that did not apply the project's earlier writes in time (nothing is lost: they
 * are applied later), or, without `reader`, of a producer that did not publish them in time.
 */
export function copyBehind(reader: string | null, producer: string): DomainError {
  return new DomainError(
    'unavailable',
    CONSISTENCY_TIMEOUT,
    reader
      ? `The ${reader} service has not yet applied this project's latest changes from ${producer}`
      : `The ${producer} service has not yet published this project's latest changes`,
    {
      retryAfterSeconds: 1,
      suggestion: 'Your earlier request was accepted; retry this one shortly to see its effect.',
    },
  );
}

/**
 * Read-your-writes (docs/consistency.md, ADR 0014), called by the process's authentication guard
 * once the request's project is known. A route answers from copies its service keeps, fed by other
 * services' events; before it runs, each copy must have applied the project's writes the request
 * carries positions of (the edge's, or an internal caller's):
 * 1. the producer's relay has published every event of its outbox up to that position (asked of the
 *    relay when it runs in this process, else of the producer over internal HTTP). In standalone
 *    mode that is the whole wait: the in-process bus returns once every consumer applied them.
 * 2. distributed mode: the reader's consumer group has applied each partition of the producer's
 *    topics it consumes up to the end offsets read after that (KafkaCatchUp).
 * A confirmed position is remembered per reader, project and producer, so a request whose copies
 * are already current does not wait at all. Bounded by READ_YOUR_WRITES_TIMEOUT_MS, then a 503
 * `CONSISTENCY_TIMEOUT` with Retry-After: never a stale answer.
 */
@Injectable()
export class ReadYourWrites implements ReadYourWritesGate {
  private readonly enabled: boolean;
  private readonly timeoutMs: number;
  private readonly confirmed = new Map<string, number>();
  private readonly inFlight = new Map<string, { wanted: number | typeof LATEST; done: Promise<number> }>();
  private readonly defaults = new Map<string, readonly string[]>();

  constructor(
    @Inject(HERALD_RUNTIME) private readonly runtime: HeraldRuntime,
    private readonly reflector: Reflector,
    private readonly registry: ConsumerRegistry,
    private readonly relays: LocalRelays,
    private readonly edge: PositionsEdge,
    private readonly producers: ProducerPositionsClient,
    @Inject(HOSTED_CONTROLLERS) private readonly controllers: HostedControllers,
    @Optional() @Inject(KafkaCatchUp) private readonly kafka?: KafkaCatchUp | null,
  ) {
    this.enabled = runtime.readYourWrites?.enabled ?? true;
    this.timeoutMs = runtime.readYourWrites?.timeoutMs ?? 5000;
  }

  async pass(context: ExecutionContext, projectId: string | undefined): Promise<void> {
    if (!this.enabled || context.getType() !== 'http' || !projectId) return;
    const reader = this.controllers.get(context.getClass());
    if (!reader) return;
    const req = context.switchToHttp().getRequest<FastifyRequest & { principal?: Principal }>();
    const observed = await this.observedBy(req, projectId);
    const request = positionsContext.getStore();
    if (request) {
      request.projectId = projectId;
      request.observed = observed;
    }
    const declared = this.reflector.getAllAndOverride<string[] | undefined>(OBSERVES_WRITES_OF, [
      context.getHandler(),
      context.getClass(),
    ]);
    await this.observe(reader, projectId, observed, declared ?? this.producersFor(reader));
  }

  /**
   * Waits until `reader`'s copies fed by each of `producers` have applied the positions of `observed`
   * (throws `CONSISTENCY_TIMEOUT` at the deadline). For jobs as well as requests.
   */
  async observe(reader: string, projectId: string, observed: Observed, producers: readonly string[]): Promise<void> {
    if (!this.enabled || producers.length === 0) return;
    const deadline = Date.now() + this.timeoutMs;
    await Promise.all(
      producers.map(async (producer) => {
        const wanted = observed === LATEST ? LATEST : observed[producer];
        if (wanted === undefined) return;
        const key = `${reader}\u0000${projectId}\u0000${producer}`;
        if (wanted !== LATEST && (this.confirmed.get(key) ?? 0) >= wanted) return;
        this.remember(
          key,
          await this.once(key, wanted, () => this.catchUp(reader, projectId, producer, wanted, deadline)),
        );
      }),
    );
  }

  /**
   * For a decision that asks the owner rather than wait for its copy (a verified sender: the owner
   * answers in one call, and the copy may be held back): whether `reader`'s copy fed by `producer`
   * is known to hold every write the current request's project made there (always, outside a
   * request). When it is not, the copy's confirmation is started in the background, so that the
   * project's later requests find it current.
   */
  copyIsCurrent(reader: string, producer: string): boolean {
    const request = positionsContext.getStore();
    if (!this.enabled || !request?.projectId) return true;
    const wanted = request.observed === LATEST ? LATEST : request.observed[producer];
    if (wanted === undefined) return true;
    const key = `${reader}\u0000${request.projectId}\u0000${producer}`;
    if (wanted !== LATEST && (this.confirmed.get(key) ?? 0) >= wanted) return true;
    const projectId = request.projectId;
    void this.once(key, wanted, () => this.catchUp(reader, projectId, producer, wanted, Date.now() + this.timeoutMs))
      .then((position) => this.remember(key, position))
      .catch(() => undefined);
    return false;
  }

  /** Every producer of the topics `reader` consumes: what its copies are fed by. */
  producersFor(reader: string): readonly string[] {
    const known = this.defaults.get(reader);
    if (known) return known;
    const topics = this.registry.topicsOf(reader);
    const producers = [...new Set(topics.flatMap((t) => producersOf(t)))].sort();
    if (topics.length > 0) this.defaults.set(reader, producers);
    return producers;
  }

  /**
   * What the request must observe: at the edge (standalone, or the gateway's own routes) the
   * project's positions the edge keeps; behind it, or on an internal call, what the caller sent.
   * A client's own header is never believed at the edge.
   */
  private async observedBy(req: FastifyRequest & { principal?: Principal }, projectId: string): Promise<Observed> {
    if (this.edge.isEdge && req.principal?.kind !== 'service') return this.edge.observed(projectId);
    return decodePositions(req.headers[POSITIONS_HEADER]);
  }

  private async catchUp(
    reader: string,
    projectId: string,
    producer: string,
    wanted: number | typeof LATEST,
    deadline: number,
  ): Promise<number> {
    const timer = messagingMetrics.copyWaits.startTimer({ reader, producer });
    try {
      const position = await this.waitFor(reader, projectId, producer, wanted, deadline);
      timer({ outcome: 'current' });
      return position;
    } catch (err) {
      timer({ outcome: DomainError.is(err, CONSISTENCY_TIMEOUT) ? 'timeout' : 'error' });
      throw err;
    }
  }

  private async waitFor(
    reader: string,
    projectId: string,
    producer: string,
    wanted: number | typeof LATEST,
    deadline: number,
  ): Promise<number> {
    const relay = this.relays.get(producer);
    let position: number;
    if (relay) {
      position = wanted === LATEST ? await relay.latestId() : wanted;
      if (!(await relay.awaitPublished(position, deadline))) throw copyBehind(reader, producer);
    } else if (this.runtime.mode === 'distributed') {
      position = await this.producers.confirm(projectId, producer, wanted, deadline);
    } else {
      return wanted === LATEST ? 0 : wanted; // standalone hosts every producer: this one publishes nothing
    }
    if (this.runtime.mode === 'distributed' && this.kafka) {
      const topics = this.registry.topicsOf(reader).filter((t) => producersOf(t).includes(producer));
      if (!(await this.kafka.await(reader, topics, deadline))) throw copyBehind(reader, producer);
    }
    return position;
  }

  /**
   * One wait per reader, project and producer at a time: later requests wanting no more share it
   * (never a "latest": one asked later may want events committed after the first was asked).
   */
  private once(key: string, wanted: number | typeof LATEST, run: () => Promise<number>): Promise<number> {
    const current = this.inFlight.get(key);
    if (current && current.wanted !== LATEST && wanted !== LATEST && wanted <= current.wanted) return current.done;
    const done = run().finally(() => {
      if (this.inFlight.get(key)?.done === done) this.inFlight.delete(key);
    });
    this.inFlight.set(key, { wanted, done });
    return done;
  }

  private remember(key: string, position: number): void {
    if (!(position > (this.confirmed.get(key) ?? 0))) return;
    this.confirmed.delete(key);
    this.confirmed.set(key, position);
    if (this.confirmed.size > MAX_CONFIRMED) this.confirmed.delete(this.confirmed.keys().next().value!);
  }
}

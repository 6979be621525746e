import type { Principal } from '@herald/contracts';
import {
  DomainError,
  LATEST,
  ObservesWritesOf,
  POSITIONS_HEADER,
  positionsContext,
  RequestPositions,
  type HeraldRuntime,
  type Positions,
} from '@herald/core';
import type { ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { ConsumerRegistry } from '../consumer/consumer-registry.js';
import type { KafkaCatchUp } from '../kafka/kafka-catch-up.js';
import type { OutboxRelay } from '../outbox/outbox-relay.js';
import { LocalRelays } from './local-relays.js';
import type { PositionsEdge } from './positions-edge.js';
import type { ProducerPositionsClient } from './producer-positions-client.js';
import { ReadYourWrites } from './read-your-writes.gate.js';

class SegmentsController {
  list(): void {}
  @ObservesWritesOf('gateway')
  own(): void {}
}

/**
 * A relay whose outbox is published up to `published` (moved by the test): a wait ends as soon as
 * the test publishes far enough, or at its deadline; `asked` records what it was asked, and
 * `waiting` resolves once a wait is in flight.
 */
class FakeRelay {
  latest = 0;
  readonly asked: number[] = [];
  private position = 0;
  private readonly waiters = new Set<() => void>();
  private inFlight!: () => void;
  readonly waiting = new Promise<void>((resolve) => (this.inFlight = resolve));

  get published(): number {
    return this.position;
  }

  set published(position: number) {
    this.position = position;
    for (const wake of this.waiters) wake();
  }

  latestId = async () => this.latest;

  awaitPublished = async (upTo: number, deadline: number): Promise<boolean> => {
    this.asked.push(upTo);
    if (this.position >= upTo) return true;
    return new Promise<boolean>((resolve) => {
      const done = (ok: boolean) => {
        clearTimeout(timer);
        this.waiters.delete(check);
        resolve(ok);
      };
      const check = () => {
        if (this.position >= upTo) done(true);
      };
      const timer = setTimeout(() => done(this.position >= upTo), Math.max(0, deadline - Date.now()));
      this.waiters.add(check);
      this.inFlight();
    });
  };
}

/** Lets the promise callbacks queued so far run (one turn of the event loop; no clock involved). */
const settle = () => new Promise((resolve) => setImmediate(resolve));

interface Setup {
  mode?: 'standalone' | 'distributed';
  edge?: Positions;
  timeoutMs?: number;
}

function setup({ mode = 'standalone', edge, timeoutMs = 300 }: Setup = {}) {
  const runtime = { mode, readYourWrites: { enabled: true, timeoutMs } } as HeraldRuntime;
  const registry = new ConsumerRegistry();
  registry.subscribe('segments', [
    'contact.created',
    'contact.updated',
    'resource.references.changed',
    'project.reset',
  ]);
  const relays = new LocalRelays();
  const contacts = new FakeRelay();
  const gateway = new FakeRelay();
  if (mode === 'standalone') {
    relays.register('contacts', contacts as unknown as OutboxRelay);
    relays.register('gateway', gateway as unknown as OutboxRelay);
  }
  const positionsEdge = {
    isEdge: edge !== undefined,
    observed: async () => ({ ...edge }),
  } as unknown as PositionsEdge;
  const confirmed: [string, number | string][] = [];
  const producers = {
    confirm: async (_p: string, producer: string, wanted: number | string) => {
      confirmed.push([producer, wanted]);
      return wanted === LATEST ? 77 : (wanted as number);
    },
  } as unknown as ProducerPositionsClient;
  const caughtUp: [string, readonly string[]][] = [];
  let kafkaCurrent = true;
  const kafka = {
    await: async (consumer: string, topics: readonly string[]) => {
      caughtUp.push([consumer, topics]);
      return kafkaCurrent;
    },
  } as unknown as KafkaCatchUp;
  const gate = new ReadYourWrites(
    runtime,
    new Reflector(),
    registry,
    relays,
    positionsEdge,
    producers,
    new Map([[SegmentsController, 'segments']]),
    mode === 'distributed' ? kafka : null,
  );
  const context = (
    handler: 'list' | 'own',
    headers: Record<string, string> = {},
    principal: Principal = { kind: 'api-key', projectId: 'prj_a', keyType: 'secret' },
  ): ExecutionContext =>
    ({
      getType: () => 'http',
      getClass: () => SegmentsController,
      getHandler: () => SegmentsController.prototype[handler],
      switchToHttp: () => ({ getRequest: () => ({ headers, principal }) }),
    }) as unknown as ExecutionContext;
  return {
    gate,
    contacts,
    gateway,
    confirmed,
    caughtUp,
    context,
    behindKafka: () => (kafkaCurrent = false),
  };
}

describe('ReadYourWrites, the gate of routes answering from copies', () => {
  it('lets a route through at once when its project has written nothing its copies are fed by', async () => {
    const { gate, contacts, context } = setup();
    await gate.pass(context('list', { [POSITIONS_HEADER]: 'domains=4' }), 'prj_a');
    expect(contacts.asked).toEqual([]);
  });

  it("waits until the producer's relay has published the project's position, then remembers it: the next request does not wait", async () => {
    const { gate, contacts, context } = setup({ timeoutMs: 60_000 });
    let passed = false;
    const first = gate
      .pass(context('list', { [POSITIONS_HEADER]: 'contacts=12' }), 'prj_a')
      .then(() => (passed = true));
    await contacts.waiting;
    await settle();
    expect(passed).toBe(false); // held while the relay has not published 12
    contacts.published = 12;
    await first;
    await gate.pass(context('list', { [POSITIONS_HEADER]: 'contacts=12' }), 'prj_a');
    await gate.pass(context('list', { [POSITIONS_HEADER]: 'contacts=9' }), 'prj_a');
    expect(contacts.asked).toEqual([12]);
  });

  it('observes only the producers a route declares', async () => {
    const { gate, contacts, gateway, context } = setup();
    gateway.published = 3;
    await gate.pass(context('own', { [POSITIONS_HEADER]: 'contacts=12,gateway=3' }), 'prj_a');
    expect([contacts.asked, gateway.asked]).toEqual([[], [3]]);
  });

  it('answers 503 CONSISTENCY_TIMEOUT with Retry-After when the copy stays behind past the deadline', async () => {
    const { gate, context } = setup({ timeoutMs: 50 });
    const failure = gate.pass(context('list', { [POSITIONS_HEADER]: 'contacts=12' }), 'prj_a');
    await expect(failure).rejects.toBeInstanceOf(DomainError);
    await expect(failure).rejects.toMatchObject({
      kind: 'unavailable',
      code: 'CONSISTENCY_TIMEOUT',
      details: { retryAfterSeconds: 1 },
    });
  });

  it('shares one wait between concurrent requests wanting no more than it waits for', async () => {
    const { gate, contacts, context } = setup({ timeoutMs: 60_000 });
    const passes = Promise.all([
      gate.pass(context('list', { [POSITIONS_HEADER]: 'contacts=20' }), 'prj_a'),
      gate.pass(context('list', { [POSITIONS_HEADER]: 'contacts=15' }), 'prj_a'),
      gate.pass(context('list', { [POSITIONS_HEADER]: 'contacts=20' }), 'prj_a'),
    ]);
    await contacts.waiting;
    await settle();
    contacts.published = 20;
    await passes;
    expect(contacts.asked).toEqual([20]);
  });

  it('keeps projects apart: a position confirmed for one project is not for another', async () => {
    const { gate, contacts, context } = setup();
    contacts.published = 5;
    await gate.pass(context('list', { [POSITIONS_HEADER]: 'contacts=5' }), 'prj_a');
    await gate.pass(context('list', { [POSITIONS_HEADER]: 'contacts=5' }), 'prj_b');
    expect(contacts.asked).toEqual([5, 5]);
  });

  it('resolves "latest" at the producer each time it is asked', async () => {
    const { gate, contacts, context } = setup();
    contacts.latest = 30;
    contacts.published = 30;
    await gate.pass(context('list', { [POSITIONS_HEADER]: 'latest' }), 'prj_a');
    contacts.latest = 31;
    contacts.published = 31;
    await gate.pass(context('list', { [POSITIONS_HEADER]: 'latest' }), 'prj_a');
    expect(contacts.asked).toEqual([30, 31]);
  });

  it("at the edge, uses the project's positions it keeps and never a client's own header", async () => {
    const { gate, contacts, context } = setup({ edge: { contacts: 8 } });
    contacts.published = 8;
    await gate.pass(context('list', { [POSITIONS_HEADER]: 'latest' }), 'prj_a');
    expect(contacts.asked).toEqual([8]);
    // an internal call (a service principal) carries its caller's positions
    await gate
      .pass(
        context(
          'list',
          { [POSITIONS_HEADER]: 'contacts=8,gateway=2' },
          { kind: 'service', service: 'campaigns', projectId: 'prj_b' },
        ),
        'prj_b',
      )
      .catch(() => undefined);
    expect(contacts.asked).toEqual([8, 8]);
  });

  it("distributed: asks the remote producer, then waits for the reader's group on that producer's topics only", async () => {
    const { gate, confirmed, caughtUp, context } = setup({ mode: 'distributed' });
    await gate.pass(context('list', { [POSITIONS_HEADER]: 'contacts=12,gateway=4' }), 'prj_a');
    expect(confirmed.sort()).toEqual([
      ['contacts', 12],
      ['gateway', 4],
    ]);
    expect(caughtUp.sort()).toEqual([
      ['segments', ['contact.created', 'contact.updated']],
      ['segments', ['project.reset']],
    ]);
  });

  it('distributed: a group that does not catch up in time is a 503 too', async () => {
    const { gate, context, behindKafka } = setup({ mode: 'distributed' });
    behindKafka();
    await expect(gate.pass(context('list', { [POSITIONS_HEADER]: 'contacts=12' }), 'prj_a')).rejects.toMatchObject({
      code: 'CONSISTENCY_TIMEOUT',
    });
  });

  it('derives what a service observes by default from the producers of the topics it consumes', () => {
    const { gate } = setup();
    expect(gate.producersFor('segments')).toEqual(['campaigns', 'contacts', 'gateway', 'segments', 'workflows']);
    expect(gate.producersFor('nobody')).toEqual([]);
  });

  it("tells a decision that can ask the owner whether its copy holds the request's writes, and confirms it in the background", async () => {
    const { gate, contacts } = setup();
    const request = new RequestPositions();
    request.projectId = 'prj_a';
    request.observed = { contacts: 6 };
    expect(gate.copyIsCurrent('segments', 'contacts')).toBe(true); // outside a request
    expect(positionsContext.run(request, () => gate.copyIsCurrent('segments', 'contacts'))).toBe(false);
    expect(positionsContext.run(request, () => gate.copyIsCurrent('segments', 'domains'))).toBe(true);
    contacts.published = 6;
    await settle(); // the background confirmation's callbacks
    expect(positionsContext.run(request, () => gate.copyIsCurrent('segments', 'contacts'))).toBe(true);
  });
});

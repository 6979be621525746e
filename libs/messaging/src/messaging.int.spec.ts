import { ContactCreated, EventTracked, Topics, type EventEnvelope } from '@herald/contracts';
import { createServiceDataSource, SingleStatementWrite } from '@herald/persistence';
import { createTestDatabase, eventually, type TestDatabase } from '@herald/testing';
import type { DataSource } from 'typeorm';
import type { MessageHandler } from '@nestjs/microservices';
import { ConsumerRegistry } from './consumer/consumer-registry.js';
import type { EventContext } from './consumer/event-context.js';
import { EventProcessor, type EventBatchHandler, type EventHandlerFn } from './consumer/event-processor.js';
import { InProcessBus } from './in-process/in-process-bus.js';
import { InProcessEventServer } from './in-process/in-process-event.server.js';
import { messagingEntities } from './entities/index.js';
import type { EventPublisher } from './event-publisher.js';
import { Outbox } from './outbox/outbox.js';
import { OutboxRelay, pendingRowsRead } from './outbox/outbox-relay.js';

const quiet = { info: () => undefined, warn: () => undefined, error: () => undefined };

/** Records what the relay hands to the transport (the real transports are proven end to end). */
class RecordingPublisher implements EventPublisher {
  published: EventEnvelope[] = [];
  failNext = 0;
  async publish(envelopes: EventEnvelope[]) {
    if (this.failNext > 0) {
      this.failNext--;
      throw new Error('broker unavailable');
    }
    this.published.push(...envelopes);
  }
  async check() {}
  async close() {}
}

const tracked = (n: number, contactId = 'cnt_1') =>
  EventTracked.create({
    projectId: 'prj_1',
    source: 'test',
    payload: { eventRecordId: `evt_${n}`, contactId, email: 'a@example.com', name: `e${n}`, data: { n } },
  });

describe('transactional outbox, relay and idempotent consumer on PostgreSQL', () => {
  let db: TestDatabase;
  let ds: DataSource;
  let outbox: Outbox;

  beforeAll(async () => {
    db = await createTestDatabase();
    ds = await createServiceDataSource(
      { service: 'msgtest', entities: messagingEntities, migrations: [] },
      db.url,
      4,
    ).initialize();
    await ds.query('CREATE SCHEMA msgtest');
    await ds.synchronize();
    await ds.query('CREATE TABLE msgtest.effects (event_id uuid, n int)');
    outbox = new Outbox('msgtest', ds);
  });
  afterAll(async () => {
    await ds.destroy();
    await db.drop();
  });
  beforeEach(async () => {
    await ds.query('TRUNCATE msgtest.outbox, msgtest.inbox, msgtest.dead_letters, msgtest.effects');
  });

  it('never publishes an event whose transaction rolled back, and publishes committed ones once, in order', async () => {
    const publisher = new RecordingPublisher();
    const relay = new OutboxRelay('msgtest', db.url, ds, publisher, quiet, { pollIntervalMs: 50 });
    await ds
      .transaction(async (m) => {
        await outbox.add(m, tracked(0));
        throw new Error('business write failed');
      })
      .catch(() => undefined);
    const committed = [tracked(1), tracked(2), tracked(3)];
    await ds.transaction((m) => outbox.add(m, committed[0]!, committed[1]!));
    await ds.transaction((m) => outbox.add(m, committed[2]!));
    relay.start();
    try {
      await eventually(() => publisher.published.length >= 3);
      // a later event published proves the relay has read again since: a duplicate would be there by now
      const marker = tracked(4);
      await ds.transaction((m) => outbox.add(m, marker));
      await eventually(() => publisher.published.some((e) => e.eventId === marker.eventId));
      expect(publisher.published.map((e) => e.eventId)).toEqual([...committed, marker].map((e) => e.eventId));
      expect(await relay.pending()).toBe(0);
    } finally {
      await relay.stop();
    }
  });

  it('a single-statement write wakes the relay leading in this process directly (no NOTIFY); NOTIFY is used while it does not lead', async () => {
    await ds.query(
      `CREATE OR REPLACE FUNCTION msgtest.write_guard(ok boolean) RETURNS boolean LANGUAGE sql AS 'SELECT ok'`,
    );
    const publisher = new RecordingPublisher();
    // a poll interval far beyond the test: only a wake publishes in time
    const relay = new OutboxRelay('msgtest', db.url, ds, publisher, quiet, { pollIntervalMs: 600_000, lingerMs: 0 });
    const local = new Outbox('msgtest', ds);
    local.relayedBy(relay);
    const write = (e: EventEnvelope) => {
      const w = new SingleStatementWrite('msgtest.write_guard');
      local.addTo(w, [e]);
      return w;
    };
    expect(write(tracked(0)).toSql()).toContain('pg_notify'); // not started: not the leader
    // a row written without NOTIFY before the start: once it is published, the relay's first read is
    // over, and with its poll far away only a wake can make it read again
    const before = tracked(0);
    await ds.query('INSERT INTO msgtest.outbox (event_id, topic, message_key, envelope) VALUES ($1, $2, $3, $4)', [
      before.eventId,
      before.type,
      before.key,
      JSON.stringify(before),
    ]);
    relay.start();
    try {
      await eventually(() => relay.isLeader, { timeoutMs: 10_000 });
      await eventually(() => publisher.published.length === 1, { timeoutMs: 10_000 });
      const first = write(tracked(1));
      expect(first.toSql()).not.toContain('pg_notify');
      await first.run(ds);
      await eventually(() => publisher.published.length === 2, {
        timeoutMs: 60_000, // the poll is 600 s away: only the wake can meet this deadline
        message: 'the local wake did not reach the relay',
      });
      await write(tracked(2)).run(ds);
      await write(tracked(3)).run(ds);
      await eventually(() => publisher.published.length === 4, { timeoutMs: 5_000 });
      expect(publisher.published.map((e) => e.payload)).toEqual(
        [0, 1, 2, 3].map((n) => expect.objectContaining({ name: `e${n}` })),
      );
    } finally {
      await relay.stop();
    }
  });

  it('refuses to write to the outbox outside a transaction', async () => {
    await expect(outbox.add(ds.manager, tracked(1))).rejects.toThrow(/inside the transaction/);
  });

  it('keeps events in the outbox while the transport is down and publishes them when it is back', async () => {
    const publisher = new RecordingPublisher();
    publisher.failNext = 2;
    const relay = new OutboxRelay('msgtest', db.url, ds, publisher, quiet, { pollIntervalMs: 50 });
    await ds.transaction((m) => outbox.add(m, tracked(1)));
    relay.start();
    try {
      await eventually(() => publisher.published.length === 1, { timeoutMs: 10_000 });
      // the relay marks rows published after the transport accepted them: a moment later
      await eventually(async () => (await relay.pending()) === 0, { timeoutMs: 5_000 });
      expect(publisher.published).toHaveLength(1);
    } finally {
      await relay.stop();
    }
  });

  it('reads the next rows to publish at a cost set by those rows, not by the rows published since the last VACUUM', async () => {
    // ANALYZE (autovacuum's included) holds a snapshot in this database while it runs: as long as one
    // is older than the marks, PostgreSQL may not mark the published rows' index entries dead. The
    // outbox's own autovacuum is off here; other sessions are waited out below.
    await ds.query('ALTER TABLE msgtest.outbox SET (autovacuum_enabled = off)');
    const publisher = new RecordingPublisher();
    const relay = new OutboxRelay('msgtest', db.url, ds, publisher, quiet, { pollIntervalMs: 20, lingerMs: 0 });
    relay.start();
    try {
      // 4,000 events published (and marked) by the relay: the index of unpublished rows keeps an entry for each until VACUUM
      for (let batch = 0; batch < 8; batch++)
        await ds.transaction((m) => outbox.add(m, ...Array.from({ length: 500 }, (_, i) => tracked(batch * 500 + i))));
      await eventually(async () => (await relay.pending()) === 0, { timeoutMs: 30_000 });
    } finally {
      await relay.stop();
    }
    await ds.transaction((m) => outbox.add(m, tracked(-1), tracked(-2), tracked(-3)));
    const [plan, read] = pendingRowsRead('msgtest.outbox', 500);
    type PlanNode = {
      'Node Type': string;
      'Index Name'?: string;
      'Actual Rows'?: number;
      'Shared Hit Blocks'?: number;
      'Shared Read Blocks'?: number;
      Plans?: PlanNode[];
    };
    const explain = (options: string) =>
      ds.transaction(async (m) => {
        await m.query(plan);
        const [
          {
            'QUERY PLAN': [explained],
          },
        ] = (await m.query(`EXPLAIN (${options}) ${read}`)) as [{ 'QUERY PLAN': [{ Plan: PlanNode }] }];
        return explained.Plan;
      });
    const nodes = (n: PlanNode): PlanNode[] => [n, ...(n.Plans ?? []).flatMap(nodes)];
    const scan = (root: PlanNode) => nodes(root).find((n) => /Scan/.test(n['Node Type']))!;

    // what the relay controls: it walks the unpublished-rows index in id order, never a bitmap or a sequential scan
    const shape = await explain('FORMAT JSON');
    expect(nodes(shape).map((n) => n['Node Type'])).toEqual(['Limit', 'LockRows', 'Index Scan']);
    expect(scan(shape)['Index Name']).toBe('outbox_unpublished_idx');

    // what it buys: once a read has met the published rows' entries with no older snapshot open in the
    // database, later reads skip them: pages touched (hit or read, so the cache does not matter) stay
    // few where a bitmap scan visits the heap page of each of the 4,000 published rows at every read.
    // Sessions of other test databases do not hold back this database's horizon.
    const olderSnapshots = async () =>
      Number(
        (
          await ds.query(
            `SELECT count(*) AS n FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid() AND backend_xmin IS NOT NULL`,
          )
        )[0].n,
      );
    let last: { rows?: number; pages: number; olderSnapshots: number } | undefined;
    const steady = await eventually(
      async () => {
        const analyzed = scan(await explain('ANALYZE, BUFFERS, FORMAT JSON'));
        last = {
          rows: analyzed['Actual Rows'],
          pages: (analyzed['Shared Hit Blocks'] ?? 0) + (analyzed['Shared Read Blocks'] ?? 0),
          olderSnapshots: await olderSnapshots(),
        };
        return last.pages < 40 && last;
      },
      { timeoutMs: 20_000, intervalMs: 50, message: 'the read of the next rows did not get cheap' },
    ).catch((err: Error) => {
      throw new Error(`${err.message}; last read ${JSON.stringify(last)}`);
    });
    expect(steady.rows).toBe(3);
  });

  it('lets only one relay of a service publish at a time, so order holds across replicas', async () => {
    const publisher = new RecordingPublisher();
    const a = new OutboxRelay('msgtest', db.url, ds, publisher, quiet, { pollIntervalMs: 20 });
    const b = new OutboxRelay('msgtest', db.url, ds, publisher, quiet, { pollIntervalMs: 20 });
    a.start();
    b.start();
    try {
      const events = Array.from({ length: 30 }, (_, i) => tracked(i));
      for (const e of events) await ds.transaction((m) => outbox.add(m, e));
      await eventually(() => publisher.published.length >= 30);
      // a later event published proves a relay has read again since: a second leader's duplicates would be there by now
      const marker = tracked(30);
      await ds.transaction((m) => outbox.add(m, marker));
      await eventually(() => publisher.published.some((e) => e.eventId === marker.eventId));
      expect(publisher.published.map((e) => e.eventId)).toEqual([...events, marker].map((e) => e.eventId));
    } finally {
      await Promise.all([a.stop(), b.stop()]);
    }
  });

  const effectHandler: EventHandlerFn = async (e, ctx) => {
    await ctx.manager.query('INSERT INTO msgtest.effects (event_id, n) VALUES ($1, $2)', [
      e.eventId,
      (e.payload as { data: { n: number } }).data.n,
    ]);
  };
  const effects = async () => Number((await ds.query('SELECT count(*) AS n FROM msgtest.effects'))[0].n);

  it('applies a redelivered event once (processed-event inbox)', async () => {
    const processor = new EventProcessor('consumer-a', ds, outbox, quiet);
    const e = tracked(7);
    expect(await processor.process(e, [effectHandler])).toBe('processed');
    expect(await processor.process(e, [effectHandler])).toBe('duplicate');
    expect(await effects()).toBe(1);
    // another consumer of the same event has its own inbox entry
    expect(await new EventProcessor('consumer-b', ds, outbox, quiet).process(e, [effectHandler])).toBe('processed');
    expect(await effects()).toBe(2);
  });

  it('rolls back a failed attempt with its writes, retries with backoff, and applies once', async () => {
    const processor = new EventProcessor('consumer-a', ds, outbox, quiet, { baseDelayMs: 10 });
    let calls = 0;
    const flaky: EventHandlerFn = async (e, ctx) => {
      calls++;
      await effectHandler(e, ctx);
      if (calls < 3) throw new Error('transient');
    };
    expect(await processor.process(tracked(1), [flaky])).toBe('processed');
    expect(calls).toBe(3);
    expect(await effects()).toBe(1);
  });

  it('dead-letters a poison event after its retries, publishes it to <topic>.dlq, and moves on', async () => {
    const processor = new EventProcessor('consumer-a', ds, outbox, quiet, { maxAttempts: 3, baseDelayMs: 5 });
    const poison = tracked(1);
    let attempts = 0;
    const failing: EventHandlerFn = async () => {
      attempts++;
      throw new Error('cannot apply');
    };
    expect(await processor.process(poison, [failing])).toBe('dead_lettered');
    expect(attempts).toBe(3);
    const [dead] = await ds.query('SELECT consumer, topic, event_id, error, attempts FROM msgtest.dead_letters');
    expect(dead).toMatchObject({
      consumer: 'consumer-a',
      topic: 'event.tracked',
      event_id: poison.eventId,
      attempts: 3,
    });
    expect(dead.error).toMatch(/cannot apply/);
    const [dlq] = await ds.query(`SELECT topic, envelope FROM msgtest.outbox WHERE topic = 'event.tracked.dlq'`);
    expect(dlq.envelope.deadLetter).toMatchObject({
      consumer: 'consumer-a',
      originalEventId: poison.eventId,
      attempts: 3,
    });
    // redelivery of the same poison does not dead-letter it twice
    expect(await processor.process(poison, [failing])).toBe('duplicate');
    // the next event applies normally
    expect(await processor.process(tracked(2), [effectHandler])).toBe('processed');
  });

  it('dead-letters an event that breaks its contract without calling the handler', async () => {
    const processor = new EventProcessor('consumer-a', ds, outbox, quiet);
    const bad = { ...tracked(1), payload: { name: 'x' } } as EventEnvelope;
    let called = false;
    expect(await processor.process(bad, [async () => void (called = true)])).toBe('dead_lettered');
    expect(called).toBe(false);
    const [dead] = await ds.query('SELECT error, attempts FROM msgtest.dead_letters');
    expect(dead.attempts).toBe(0);
    expect(dead.error).toMatch(/payload\.email/);
  });

  it('in trusted delivery (the in-process bus) skips re-validating payloads but still refuses a topic without a contract', async () => {
    const processor = new EventProcessor('consumer-a', ds, outbox, quiet);
    const calls: string[] = [];
    const record: EventHandlerFn = async (e) => void calls.push(e.type);
    // a payload the contract refuses, as only another build could have written it: applied when trusted
    const odd = { ...tracked(1), payload: { name: 'x' } } as EventEnvelope;
    expect(await processor.process(odd, [record], { trusted: true })).toBe('processed');
    const unknown = { ...tracked(2), type: 'no.such.topic' } as EventEnvelope;
    expect(await processor.process(unknown, [record], { trusted: true })).toBe('dead_lettered');
    expect(calls).toEqual(['event.tracked']);
  });

  describe('batched consumption', () => {
    const record: EventHandlerFn = async (e, ctx) => {
      const n = (e.payload as { data: { n: number } }).data.n;
      if (n < 0) throw new Error('poison in the batch');
      await ctx.manager.query('INSERT INTO msgtest.effects (event_id, n) VALUES ($1, $2)', [e.eventId, n]);
    };
    const applied = async () =>
      ((await ds.query('SELECT n FROM msgtest.effects ORDER BY n')) as { n: number }[]).map((r) => r.n);

    it('applies a batch once, in order, skipping events already in the inbox and repeats within the batch', async () => {
      const processor = new EventProcessor('batcher', ds, outbox, quiet);
      const events = [1, 2, 3, 4].map((n) => tracked(n));
      await processor.process(events[1]!, [record]); // already applied before the batch
      await processor.processBatch([...events, events[0]!], () => [record]);
      await processor.processBatch(events, () => [record]); // redelivered whole
      expect(await applied()).toEqual([1, 2, 3, 4]);
    });

    it('commits a batch without waiting for the disk only when the publisher commits durably after it (in-process bus), never for a broker delivery', async () => {
      const processor = new EventProcessor('batcher', ds, outbox, quiet);
      const modes: string[] = [];
      const observe: EventHandlerFn = async (_e, ctx) => {
        modes.push(
          ((await ctx.manager.query('SHOW synchronous_commit')) as { synchronous_commit: string }[])[0]!
            .synchronous_commit,
        );
      };
      await processor.processBatch([tracked(40), tracked(41)], () => [observe], {
        trusted: true,
        durableWithPublisher: true,
      });
      await processor.processBatch([tracked(42), tracked(43)], () => [observe]);
      expect(modes).toEqual(['off', 'off', 'on', 'on']);
      // the setting was the transaction's own: the pool's connections are back to the server's default
      expect(
        ((await ds.query('SHOW synchronous_commit')) as { synchronous_commit: string }[])[0]!.synchronous_commit,
      ).toBe('on');
    });

    it('the in-process bus delivers in that commit mode (its relay commits durably after the consumers)', async () => {
      const registry = new ConsumerRegistry();
      registry.register(new EventProcessor('msgtest', ds, outbox, quiet));
      const bus = new InProcessBus();
      const server = new InProcessEventServer(registry, bus);
      const modes: string[] = [];
      const handler = async (_e: unknown, ctx: EventContext) => {
        modes.push(
          ((await ctx.manager.query('SHOW synchronous_commit')) as { synchronous_commit: string }[])[0]!
            .synchronous_commit,
        );
      };
      server.addHandler(`msgtest:${Topics.EventTracked}`, handler as unknown as MessageHandler, true, {
        consumer: 'msgtest',
        topic: Topics.EventTracked,
      });
      server.listen(() => undefined);
      await bus.publish([tracked(50), tracked(51)]);
      expect(modes).toEqual(['off', 'off']);
    });

    it('falls back to one by one when an event of the batch fails, dead-lettering only that one', async () => {
      const processor = new EventProcessor('batcher', ds, outbox, quiet, { maxAttempts: 2, baseDelayMs: 5 });
      await processor.processBatch([tracked(10), tracked(-1), tracked(11)], () => [record]);
      expect(await applied()).toEqual([10, 11]);
      expect(((await ds.query('SELECT count(*) AS n FROM msgtest.dead_letters')) as { n: string }[])[0]!.n).toBe('1');
    });

    const created = (n: number) =>
      ContactCreated.create({
        projectId: 'prj_1',
        source: 'test',
        payload: { contactId: `cnt_${n}`, email: `c${n}@example.com`, subscribed: true, data: {} },
      });
    const nOf = (e: EventEnvelope) =>
      e.type === Topics.EventTracked
        ? (e.payload as { data: { n: number } }).data.n
        : Number((e.payload as { contactId: string }).contactId.slice(4));

    it('hands a batch handler each run of consecutive events of its topic at once, in order, beside per-event handlers of other topics', async () => {
      const processor = new EventProcessor('batcher', ds, outbox, quiet);
      const calls: string[] = [];
      const batch: EventBatchHandler = {
        batch: async (events, ctx) => {
          calls.push(`tracked ${events.map(nOf).join(',')}`);
          await ctx.manager.query(
            'INSERT INTO msgtest.effects (event_id, n) SELECT * FROM unnest($1::uuid[], $2::int[])',
            [events.map((e) => e.eventId), events.map(nOf)],
          );
        },
      };
      const each: EventHandlerFn = async (e) => void calls.push(`created ${nOf(e)}`);
      const handlersFor = (topic: string) => (topic === Topics.EventTracked ? [batch] : [each]);
      const [t1, t2] = [tracked(1), tracked(2)];
      await processor.processBatch([t1, t2, created(3), created(4), tracked(5)], handlersFor);
      expect(calls).toEqual(['tracked 1,2', 'created 3', 'created 4', 'tracked 5']);
      // redelivered with a new one: only the new event reaches the handler
      calls.length = 0;
      await processor.processBatch([t1, t2, tracked(6)], handlersFor);
      expect(calls).toEqual(['tracked 6']);
      expect(await applied()).toEqual([1, 2, 5, 6]);
    });

    it('retries a failed batch event by event through the batch handler, dead-lettering only the poison', async () => {
      const processor = new EventProcessor('batcher', ds, outbox, quiet, { maxAttempts: 2, baseDelayMs: 5 });
      const runs: number[][] = [];
      const batch: EventBatchHandler = {
        batch: async (events, ctx) => {
          runs.push(events.map(nOf));
          if (events.some((e) => nOf(e) < 0)) throw new Error('poison in the run');
          await ctx.manager.query(
            'INSERT INTO msgtest.effects (event_id, n) SELECT * FROM unnest($1::uuid[], $2::int[])',
            [events.map((e) => e.eventId), events.map(nOf)],
          );
        },
      };
      await processor.processBatch([tracked(20), tracked(-1), tracked(21)], () => [batch]);
      expect(runs).toEqual([[20, -1, 21], [20], [-1], [-1], [21]]);
      expect(await applied()).toEqual([20, 21]);
      expect(((await ds.query('SELECT count(*) AS n FROM msgtest.dead_letters')) as { n: string }[])[0]!.n).toBe('1');
    });
  });
});

import { EventTracked, type EventEnvelope } from '@herald/contracts';
import { positionsContext, RequestPositions } from '@herald/core';
import { createServiceDataSource, SingleStatementWrite } from '@herald/persistence';
import { createTestDatabase, eventually, type TestDatabase } from '@herald/testing';
import type { DataSource } from 'typeorm';
import { messagingEntities } from '../entities/index.js';
import type { EventPublisher } from '../event-publisher.js';
import { Outbox } from '../outbox/outbox.js';
import { OutboxRelay } from '../outbox/outbox-relay.js';

const quiet = { info: () => undefined, warn: () => undefined, error: () => undefined };

/** A transport that accepts batches only while `open` (the test holds the relay back). */
class GatedPublisher implements EventPublisher {
  open = true;
  published: EventEnvelope[] = [];
  async publish(envelopes: EventEnvelope[]) {
    if (!this.open) throw new Error('held back');
    this.published.push(...envelopes);
  }
  async check() {}
  async close() {}
}

const tracked = (projectId: string, n: number) =>
  EventTracked.create({
    projectId,
    source: 'test',
    payload: { eventRecordId: `evt_${n}`, contactId: `cnt_${n}`, email: 'a@example.com', name: `e${n}`, data: {} },
  });

/**
 * The producer's half of read-your-writes on PostgreSQL (docs/consistency.md): the outbox records
 * the position each request wrote, per project; the relay answers whether its outbox is published up
 * to a position, and what its latest is.
 */
describe("read-your-writes: a producer's positions on PostgreSQL", () => {
  let db: TestDatabase;
  let ds: DataSource;
  let outbox: Outbox;

  beforeAll(async () => {
    db = await createTestDatabase();
    ds = await createServiceDataSource(
      { service: 'rywtest', entities: messagingEntities, migrations: [] },
      db.url,
      4,
    ).initialize();
    await ds.query('CREATE SCHEMA rywtest');
    await ds.synchronize();
    await ds.query(`CREATE FUNCTION rywtest.write_guard(ok boolean) RETURNS boolean LANGUAGE sql AS 'SELECT ok'`);
    outbox = new Outbox('rywtest', ds);
  });
  afterAll(async () => {
    await ds.destroy();
    await db.drop();
  });
  beforeEach(async () => {
    await ds.query('TRUNCATE rywtest.outbox');
  });

  const lastId = async (): Promise<number> =>
    Number((await ds.query('SELECT max(id) AS id FROM rywtest.outbox'))[0].id);

  it('records, per project, the last outbox id a request wrote in a transaction or a single statement, and nothing outside a request', async () => {
    await ds.transaction((m) => outbox.add(m, tracked('prj_none', 0)));
    const request = new RequestPositions();
    await positionsContext.run(request, async () => {
      await ds.transaction((m) => outbox.add(m, tracked('prj_a', 1), tracked('prj_b', 2)));
      expect(request.written).toEqual(
        new Map([
          ['prj_a', { rywtest: await lastId() }],
          ['prj_b', { rywtest: await lastId() }],
        ]),
      );
      const write = new SingleStatementWrite('rywtest.write_guard');
      outbox.addTo(write, [tracked('prj_a', 3)]);
      await write.run(ds);
    });
    expect(request.written.get('prj_a')).toEqual({ rywtest: await lastId() });
    expect(request.written.has('prj_none')).toBe(false);
  });

  it('answers published up to a position only once every committed row at or below it is, and not for rows still uncommitted', async () => {
    const publisher = new GatedPublisher();
    const relay = new OutboxRelay('rywtest', db.url, ds, publisher, quiet, { pollIntervalMs: 50, lingerMs: 0 });
    publisher.open = false;
    relay.start();
    try {
      // a transaction takes an id first and stays open; a later one commits
      const runner = ds.createQueryRunner();
      await runner.connect();
      await runner.startTransaction();
      await outbox.add(runner.manager, tracked('prj_a', 1));
      await ds.transaction((m) => outbox.add(m, tracked('prj_a', 2)));
      const position = await lastId();
      expect(await relay.awaitPublished(position, Date.now() + 100)).toBe(false); // held back
      publisher.open = true;
      expect(await relay.awaitPublished(position, Date.now() + 10_000)).toBe(true);
      // the open transaction's row (a lower id) is not waited for: its write was not acknowledged
      expect(publisher.published.map((e) => e.payload)).toEqual([expect.objectContaining({ name: 'e2' })]);
      await runner.commitTransaction();
      await runner.release();
      await eventually(() => publisher.published.length === 2, { timeoutMs: 10_000 });
      expect(await relay.awaitPublished(await lastId(), Date.now() + 1000)).toBe(true);
    } finally {
      await relay.stop();
    }
  });

  it("answers its latest id, and a finished job's answer exposes it to the project", async () => {
    await ds.transaction((m) => outbox.add(m, tracked('prj_a', 1), tracked('prj_a', 2)));
    const relay = new OutboxRelay('rywtest', db.url, ds, new GatedPublisher(), quiet);
    expect(await relay.latestId()).toBe(await lastId());
    const request = new RequestPositions();
    await positionsContext.run(request, () => outbox.exposeLatest('prj_a'));
    expect(request.written).toEqual(new Map([['prj_a', { rywtest: await lastId() }]]));
  });
});

import { EventTracked, type EventEnvelope } from '@herald/contracts';
import { createServiceDataSource } from '@herald/persistence';
import { createTestDatabase, eventually, type TestDatabase } from '@herald/testing';
import type { DataSource } from 'typeorm';
import { messagingEntities } from '../entities/index.js';
import type { EventPublisher } from '../event-publisher.js';
import { Outbox } from './outbox.js';
import { OutboxRelay } from './outbox-relay.js';

const quiet = { info: () => undefined, warn: () => undefined, error: () => undefined };

/** A transport whose first publish waits until `open()`: the relay's round holds its connection meanwhile. */
class GatedPublisher implements EventPublisher {
  published: EventEnvelope[] = [];
  calls = 0;
  open!: () => void;
  private readonly gate = new Promise<void>((resolve) => (this.open = resolve));
  async publish(envelopes: EventEnvelope[]) {
    if (++this.calls === 1) await this.gate;
    this.published.push(...envelopes);
  }
  async check() {}
  async close() {}
}

/**
 * PostgreSQL restarting (issue 44, the fault suite's "PostgreSQL restarted"): the server ends every
 * connection, also the one a relay round holds while the transport takes its rows. The round fails
 * and its rows are published again by the next one; the process does not die of the connection's
 * error (pg emits it on a checked-out client with no query running, where a pool attaches no listener).
 */
describe('the outbox relay when PostgreSQL ends its connection mid-round', () => {
  let db: TestDatabase;
  let ds: DataSource;

  beforeAll(async () => {
    db = await createTestDatabase();
    ds = await createServiceDataSource(
      { service: 'relayloss', entities: messagingEntities, migrations: [] },
      db.url,
      4,
    ).initialize();
    await ds.query('CREATE SCHEMA relayloss');
    await ds.synchronize();
  });
  afterAll(async () => {
    await ds.destroy();
    await db.drop();
  });

  it('survives the server ending the round connection while the transport holds its rows, and publishes them again', async () => {
    const publisher = new GatedPublisher();
    const relay = new OutboxRelay('relayloss', db.url, ds, publisher, quiet, { pollIntervalMs: 50, lingerMs: 0 });
    const event = EventTracked.create({
      projectId: 'prj_1',
      source: 'test',
      payload: { eventRecordId: 'evt_1', contactId: 'cnt_1', email: 'a@example.com', name: 'e', data: {} },
    });
    await ds.transaction((m) => new Outbox('relayloss', ds).add(m, event));
    relay.start();
    try {
      await eventually(() => publisher.calls === 1, { message: 'the relay never handed the row to the transport' });
      // the round's connection: the one idle in its transaction, holding the row's lock
      const idleInRound = `SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND state = 'idle in transaction' AND pid <> pg_backend_pid()`;
      const [round] = (await ds.query(idleInRound)) as { pid: number }[];
      expect(round).toBeDefined();
      await ds.query('SELECT pg_terminate_backend($1)', [round!.pid]);
      await eventually(async () => ((await ds.query(idleInRound)) as unknown[]).length === 0);
      publisher.open();
      await eventually(async () => (await relay.pending()) === 0, { message: 'the row was never marked published' });
      expect(publisher.published.map((e) => e.eventId)).toContain(event.eventId);
      expect(publisher.calls).toBeGreaterThanOrEqual(2);
    } finally {
      await relay.stop();
    }
  });
});

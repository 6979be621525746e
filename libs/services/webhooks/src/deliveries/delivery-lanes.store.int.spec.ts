import { createServiceDataSource, migrateServiceSchema } from '@herald/persistence';
import { createTestDatabase, eventually, type TestDatabase } from '@herald/testing';
import { randomUUID } from 'node:crypto';
import type { DataSource, EntityManager } from 'typeorm';
import { Endpoint } from '../endpoints/endpoint.entity.js';
import { EndpointsStore } from '../endpoints/endpoints.store.js';
import { webhooksSchema } from '../webhooks.module.js';
import { DeliveriesStore } from './deliveries.store.js';
import { DeliveryLanesStore, type LaneRef } from './delivery-lanes.store.js';

/** The stores of endpoints, deliveries and lanes on PostgreSQL: subscribers, the lanes' chain numbers and locks. */
describe('webhooks stores (PostgreSQL)', () => {
  let db: TestDatabase;
  let ds: DataSource;
  let lanes: DeliveryLanesStore;
  let deliveries: DeliveriesStore;
  let endpoints: EndpointsStore;

  beforeAll(async () => {
    db = await createTestDatabase();
    ds = await createServiceDataSource(webhooksSchema, db.url, 4).initialize();
    await migrateServiceSchema(ds);
    [lanes, deliveries, endpoints] = [new DeliveryLanesStore(ds), new DeliveriesStore(ds), new EndpointsStore(ds)];
  });
  afterEach(() => ds.query('TRUNCATE webhooks.endpoints, webhooks.deliveries, webhooks.lanes'));
  afterAll(async () => {
    await ds?.destroy();
    await db?.drop();
  });

  const anEndpoint = (over: Partial<Endpoint> = {}) => {
    const e = {
      id: `whe_${randomUUID().slice(0, 8)}`,
      projectId: 'prj_a',
      url: 'https://hooks.example.com/',
      description: null,
      eventTypes: ['contact.created'],
      enabled: true,
      status: 'active' as const,
      failingSince: null,
      secretSealed: 'sealed',
      previousSecretSealed: null,
      previousSecretUntil: null,
      ...over,
    };
    return ds
      .getRepository(Endpoint)
      .insert(e)
      .then(() => e);
  };
  const delivery = (m: EntityManager, ref: LaneRef) =>
    deliveries.insertMany(m, [
      {
        id: `whd_${randomUUID()}`,
        endpointId: ref.endpointId,
        projectId: ref.projectId,
        eventId: randomUUID(),
        eventType: 'contact.created',
        body: '{}',
        lane: ref.lane,
      },
    ]);
  const lane = async (ref: LaneRef) =>
    (
      (await ds.query('SELECT link_seq, due_at FROM webhooks.lanes WHERE endpoint_id = $1 AND lane = $2', [
        ref.endpointId,
        ref.lane,
      ])) as {
        link_seq: number;
        due_at: Date | null;
      }[]
    )[0];

  it('answers the enabled endpoints of the projects subscribed to any of the types, and moves their status', async () => {
    const a = await anEndpoint();
    await anEndpoint({ enabled: false });
    await anEndpoint({ eventTypes: ['email.sent'] });
    await anEndpoint({ projectId: 'prj_b' });
    const both = await anEndpoint({ eventTypes: ['email.sent', 'contact.created'] });
    const found = await endpoints.subscribers(ds.manager, ['prj_a'], ['contact.created']);
    expect(found.map((s) => s.id).sort()).toEqual([a.id, both.id].sort());
    await endpoints.markFailing(ds.manager, a.id);
    const failing = await ds.getRepository(Endpoint).findOneByOrFail({ id: a.id });
    expect([failing.status, failing.failingSince]).toEqual(['failing', expect.any(Date)]);
    await endpoints.markFailing(ds.manager, a.id);
    expect((await ds.getRepository(Endpoint).findOneByOrFail({ id: a.id })).failingSince).toEqual(failing.failingSince);
    await endpoints.markActive(ds.manager, a.id);
    expect(await ds.getRepository(Endpoint).findOneByOrFail({ id: a.id })).toMatchObject({
      status: 'active',
      failingSince: null,
    });
  });

  it('wakes an idle lane with a link due now, leaves a live one alone, and one waiting for a later retry gets a new link now', async () => {
    const ref = { endpointId: (await anEndpoint()).id, projectId: 'prj_a', lane: 1 };
    const first = await ds.transaction((m) => lanes.wake(m, [ref]));
    expect(first).toEqual([{ ...ref, seq: 1, dueAt: expect.any(Date) }]);
    expect(await ds.transaction((m) => lanes.wake(m, [ref]))).toEqual([]);
    await ds.query(`UPDATE webhooks.lanes SET due_at = now() + interval '1 hour'`);
    expect(await ds.transaction((m) => lanes.wake(m, [ref]))).toEqual([{ ...ref, seq: 2, dueAt: expect.any(Date) }]);
    expect(await lanes.isCurrent(ref.endpointId, 1, 2)).toBe(true);
    expect(await lanes.isCurrent(ref.endpointId, 1, 1)).toBe(false);
  });

  it("a link's end schedules the next link at the earliest pending delivery, or leaves the lane idle; a retired link decides nothing", async () => {
    const ref = { endpointId: (await anEndpoint()).id, projectId: 'prj_a', lane: 0 };
    await ds.transaction(async (m) => {
      await delivery(m, ref);
      await lanes.wake(m, [ref]);
    });
    expect(await ds.transaction((m) => lanes.advance(m, ref, 1, false))).toEqual({
      next: { ...ref, seq: 2, dueAt: expect.any(Date) },
    });
    expect(await ds.transaction((m) => lanes.advance(m, ref, 1, false))).toBeUndefined();
    await ds.query(`UPDATE webhooks.deliveries SET status = 'delivered'`);
    expect(await ds.transaction((m) => lanes.advance(m, ref, 2, false))).toEqual({});
    expect(await lane(ref)).toEqual({ link_seq: 3, due_at: null });
    // an idle link (a disabled endpoint) stops even with pending work
    await ds.transaction(async (m) => {
      await delivery(m, ref);
      await lanes.wake(m, [ref]);
    });
    expect(await ds.transaction((m) => lanes.advance(m, ref, 4, true))).toEqual({});
    expect(await lanes.lanesToRestart(new Set())).toEqual([ref]);
    expect(await lanes.lanesToRestart(new Set([`${ref.endpointId}:0`]))).toEqual([]);
  });

  it('a link deciding to stop waits for a transaction that wrote a delivery and holds the lane, then sees its delivery', async () => {
    const ref = { endpointId: (await anEndpoint()).id, projectId: 'prj_a', lane: 2 };
    await ds.transaction((m) => lanes.wake(m, [ref])); // link 1, running
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    let locked!: () => void;
    const isLocked = new Promise<void>((r) => (locked = r));
    const consumer = ds.transaction(async (m) => {
      await delivery(m, ref);
      expect(await lanes.wake(m, [ref])).toEqual([]); // live: the running link will read it
      locked();
      await held;
    });
    await isLocked;
    const ending = ds.transaction((m) => lanes.advance(m, ref, 1, false));
    // the link's decision waits on the lane's lock until the consumer commits
    await eventually(async () => {
      const [row] = (await ds.query(
        `SELECT count(*)::int AS n FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND datname = current_database()`,
      )) as { n: number }[];
      return row!.n > 0;
    });
    release();
    await consumer;
    expect(await ending).toEqual({ next: { ...ref, seq: 2, dueAt: expect.any(Date) } });
  });
});

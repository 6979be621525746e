import { randomUUID } from 'node:crypto';
import { newId } from '@herald/core';
import { CursorQueryDto } from '@herald/http';
import { createServiceDataSource, migrateServiceSchema, SingleStatementWrite } from '@herald/persistence';
import { createTestDatabase, type TestDatabase } from '@herald/testing';
import type { DataSource } from 'typeorm';
import { contactsSchema } from '../contacts.module.js';
import { TrackedEventsStore, type SystemRow } from './tracked-events.store.js';

/** The SQL of contacts' timelines, on PostgreSQL. */
describe('TrackedEventsStore (PostgreSQL)', () => {
  let db: TestDatabase;
  let ds: DataSource;
  const store = new TrackedEventsStore();
  let project = '';
  let n = 0;
  const ada = () => `cnt_ada_${n}`;

  beforeAll(async () => {
    db = await createTestDatabase();
    ds = await createServiceDataSource(contactsSchema, db.url, 4).initialize();
    await migrateServiceSchema(ds);
  });
  beforeEach(async () => {
    project = `prj_events_store_${++n}`;
    await ds.query(`INSERT INTO contacts.contacts (id, project_id, email) VALUES ($1, $2, 'ada@x.test')`, [
      ada(),
      project,
    ]);
  });
  afterAll(async () => {
    await ds?.destroy();
    await db?.drop();
  });

  const timeline = async () =>
    (await ds.query(
      `SELECT contact_id, name, data, system, created_at FROM contacts.tracked_events WHERE project_id = $1 ORDER BY created_at, name`,
      [project],
    )) as { contact_id: string; name: string; data: Record<string, unknown>; system: boolean; created_at: Date }[];
  const tracked = (name: string, data: Record<string, unknown> = {}) => ({
    id: newId('evt'),
    contactId: ada(),
    name,
    data,
  });
  const at = (s: number) => new Date(Date.UTC(2030, 0, 1, 0, 0, s));
  const system = (name: string, over: Partial<SystemRow> = {}): SystemRow => ({
    id: newId('evt'),
    projectId: project,
    sourceEventId: randomUUID(),
    contactId: ada(),
    email: 'ada@x.test',
    name: name as SystemRow['name'],
    data: {},
    occurredAt: at(1).toISOString(),
    ...over,
  });

  it("writes a /v1/track batch's events at one time, in a transaction or as a part of a single statement", async () => {
    await ds.transaction((m) => store.insertTracked(m, project, [tracked('signup', { plan: 'pro' })], at(1)));
    const write = new SingleStatementWrite('"contacts"."write_guard"');
    write.with(
      'tracked',
      store.insertTrackedSql(ds, write.param, project, [tracked('login'), tracked('logout')], at(2)),
    );
    await write.run(ds);
    await ds.transaction((m) =>
      store.insertOne(m, { ...tracked('upgrade', { to: 'gold' }), projectId: project, createdAt: at(3) }),
    );
    expect(await timeline()).toEqual([
      { contact_id: ada(), name: 'signup', data: { plan: 'pro' }, system: false, created_at: at(1) },
      { contact_id: ada(), name: 'login', data: {}, system: false, created_at: at(2) },
      { contact_id: ada(), name: 'logout', data: {}, system: false, created_at: at(2) },
      { contact_id: ada(), name: 'upgrade', data: { to: 'gold' }, system: false, created_at: at(3) },
    ]);
  });

  it('projects system events to the contact of their id, else of their address; drops one of no contact and a replay', async () => {
    const replayed = system('email.sent');
    const rows = [
      replayed,
      system('email.opened', { contactId: null, occurredAt: at(2).toISOString() }),
      system('email.clicked', { contactId: 'cnt_gone', email: 'nobody@x.test' }),
    ];
    expect(await ds.transaction((m) => store.insertSystem(m, rows))).toBe(2);
    expect(await ds.transaction((m) => store.insertSystem(m, [{ ...replayed, id: newId('evt') }]))).toBe(0);
    expect((await timeline()).map((e) => [e.contact_id, e.name, e.system])).toEqual([
      [ada(), 'email.sent', true],
      [ada(), 'email.opened', true],
    ]);
  });

  it('pages the timeline newest first, of the project or of one contact', async () => {
    await ds.query(`INSERT INTO contacts.contacts (id, project_id, email) VALUES ($1, $2, 'bob@x.test')`, [
      `cnt_bob_${n}`,
      project,
    ]);
    await ds.transaction(async (m) => {
      await store.insertTracked(m, project, [tracked('first')], at(1));
      await store.insertTracked(m, project, [{ ...tracked('bob'), contactId: `cnt_bob_${n}` }], at(2));
      await store.insertSystem(m, [system('email.sent', { occurredAt: at(3).toISOString() })]);
    });
    const q = Object.assign(new CursorQueryDto(), { limit: 10 });
    const all = await store.page(ds, project, q);
    expect(all.data.map((e) => [e.name, e.system])).toEqual([
      ['email.sent', true],
      ['bob', false],
      ['first', false],
    ]);
    expect(all.data[0]).toMatchObject({ contactId: ada(), createdAt: at(3).toISOString() });
    expect((await store.page(ds, project, q, ada())).data.map((e) => e.name)).toEqual(['email.sent', 'first']);
  });

  it('counts, names and deletes custom events only: a system event is none of them', async () => {
    const lastYear = new Date(Date.now() - 365 * 24 * 3600_000);
    await ds.transaction(async (m) => {
      await store.insertTracked(m, project, [tracked('signup'), tracked('signup')], new Date());
      await store.insertTracked(m, project, [tracked('login')], lastYear);
      await store.insertSystem(m, [system('email.sent')]);
    });
    const counts = await store.counts(ds, project);
    expect(counts.map((c) => [c.name, Number(c.count), Number(c.recent)])).toEqual([
      ['signup', 2, 2],
      ['login', 1, 0],
    ]);
    expect(counts[1]!.last).toEqual(lastYear);
    expect(await store.names(ds, project)).toEqual(['login', 'signup']);
    expect(await store.deleteByName(ds, project, 'signup')).toBe(2);
    expect(await store.deleteByName(ds, project, 'email.sent')).toBe(0);
    expect((await timeline()).map((e) => e.name)).toEqual(['login', 'email.sent']);
  });
});

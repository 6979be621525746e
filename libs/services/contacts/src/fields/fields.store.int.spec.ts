import { createServiceDataSource, migrateServiceSchema, SingleStatementWrite } from '@herald/persistence';
import { createTestDatabase, type TestDatabase } from '@herald/testing';
import type { DataSource } from 'typeorm';
import { contactsSchema } from '../contacts.module.js';
import { FieldsStore } from './fields.store.js';

/** The SQL of custom fields: registry, tombstones, counts and removal over the contacts' data, on PostgreSQL. */
describe('FieldsStore (PostgreSQL)', () => {
  let db: TestDatabase;
  let ds: DataSource;
  const store = new FieldsStore();
  let project = '';
  let n = 0;

  beforeAll(async () => {
    db = await createTestDatabase();
    ds = await createServiceDataSource(contactsSchema, db.url, 4).initialize();
    await migrateServiceSchema(ds);
  });
  beforeEach(() => {
    project = `prj_fields_store_${++n}`;
  });
  afterAll(async () => {
    await ds?.destroy();
    await db?.drop();
  });

  /** A contact holding `data`, written as if before any deletion (`deletions_applied` 0). */
  const seed = async (email: string, data: Record<string, unknown>) => {
    const id = `cnt_${email.split('@')[0]}_${n}`;
    await ds.query(`INSERT INTO contacts.contacts (id, project_id, email, data) VALUES ($1, $2, $3, $4::jsonb)`, [
      id,
      project,
      email,
      JSON.stringify(data),
    ]);
    return id;
  };
  const raw = async (id: string) =>
    ((await ds.query(`SELECT data FROM contacts.contacts WHERE id = $1`, [id])) as { data: unknown }[])[0]!.data;
  const types = async () => (await store.custom(ds, project)).map((f) => [f.path, f.type]);

  it('registers paths in a transaction or as a part of a single statement; a path keeps its first type', async () => {
    await ds.transaction((m) =>
      store.register(
        m,
        project,
        new Map([
          ['data.plan', 'string'],
          ['data.age', 'number'],
        ]),
      ),
    );
    const write = new SingleStatementWrite('"contacts"."write_guard"');
    write.with(
      'fields',
      store.registerSql(
        ds,
        project,
        new Map([
          ['data.plan', 'number'],
          ['data.vip', 'boolean'],
        ]),
        write.param,
      ),
    );
    await write.run(ds);
    expect(await types()).toEqual([
      ['data.age', 'number'],
      ['data.plan', 'string'],
      ['data.vip', 'boolean'],
    ]);
    expect([
      await store.isRegistered(ds, project, 'data.vip'),
      await store.isRegistered(ds, project, 'data.x'),
    ]).toEqual([true, false]);
  });

  it('unregisters a field with a tombstone, and a field never registered without one', async () => {
    await ds.transaction((m) => store.register(m, project, new Map([['data.plan', 'string']])));
    const seq = await ds.transaction((m) => store.unregister(m, project, 'data.plan'));
    expect(seq).toMatch(/^\d+$/);
    expect(await ds.transaction((m) => store.unregister(m, project, 'data.plan'))).toBeUndefined();
    expect(await types()).toEqual([]);
    expect(await store.tombstones(ds, project)).toEqual([{ path: 'data.plan', seq }]);
    await ds.transaction((m) => store.dropTombstone(m, project, seq!));
    expect(await store.tombstones(ds, project)).toEqual([]);
  });

  it('counts the contacts with a live value of each field: none in a row not written since the deletion covering it', async () => {
    await seed('a@x.test', { plan: 'gold', city: 'Oslo' });
    await seed('b@x.test', { plan: 'free' });
    await seed('c@x.test', {});
    expect(
      await store.coverage(ds, project, [
        { path: 'data.plan' },
        { path: 'data.city' },
        { path: 'data.plan', deletedAt: '1' },
      ]),
    ).toEqual({ total: 3, counts: [2, 1, 0] });
  });

  it('pages the distinct live values of a field, most common first, with how many there are', async () => {
    for (const [i, plan] of ['gold', 'free', 'free', 'pro', 'free', 'gold'].entries())
      await seed(`u${i}@x.test`, { plan });
    const { rows, total } = await store.values(ds, project, { path: 'data.plan' }, 2, 0);
    expect({ rows, total }).toEqual({
      rows: [
        { value: 'free', count: 3 },
        { value: 'gold', count: 2 },
      ],
      total: 3,
    });
    expect((await store.values(ds, project, { path: 'data.plan' }, 2, 2)).rows).toEqual([{ value: 'pro', count: 1 }]);
    expect(await store.values(ds, project, { path: 'data.plan', deletedAt: '1' }, 2, 0)).toEqual({
      rows: [],
      total: 0,
    });
  });

  it('removes a field from a batch of the rows below its tombstone, answering them with their live data', async () => {
    const a = await seed('a@x.test', { profile: { tier: 'vip', since: 2020 }, city: 'Oslo' });
    const b = await seed('b@x.test', { profile: { tier: 'basic' } });
    const written = await seed('c@x.test', { profile: { tier: 'new' } });
    await ds.query(`UPDATE contacts.contacts SET deletions_applied = 99 WHERE id = $1`, [written]);
    const first = await ds.transaction((m) => store.clearBatch(m, project, 'data.profile.tier', '99', 1));
    const second = await ds.transaction((m) => store.clearBatch(m, project, 'data.profile.tier', '99', 1));
    expect([...first, ...second].map((r) => r.id).sort()).toEqual([a, b].sort());
    expect(first.concat(second).find((r) => r.id === a)).toEqual({
      id: a,
      email: 'a@x.test',
      subscribed: true,
      data: { profile: { since: 2020 }, city: 'Oslo' },
    });
    expect(await ds.transaction((m) => store.clearBatch(m, project, 'data.profile.tier', '99', 1))).toEqual([]);
    expect(await raw(written)).toEqual({ profile: { tier: 'new' } });
    // a job queued before tombstones (no seq) clears every row
    expect((await ds.transaction((m) => store.clearBatch(m, project, 'data.profile.tier', undefined, 10))).length).toBe(
      1,
    );
    expect(await raw(written)).toEqual({ profile: {} });
  });
});

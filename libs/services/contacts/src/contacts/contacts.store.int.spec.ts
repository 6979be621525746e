import { newId } from '@herald/core';
import { createServiceDataSource, migrateServiceSchema, WriteConflict } from '@herald/persistence';
import { createTestDatabase, type TestDatabase } from '@herald/testing';
import type { DataSource } from 'typeorm';
import { contactsSchema } from '../contacts.module.js';
import { ListContactsQueryDto } from './contact.dto.js';
import type { Contact } from './contact.entity.js';
import { ContactStore } from './contacts.store.js';

/** The SQL of contacts, their timeline's deletion and their update keys, on PostgreSQL. */
describe('ContactStore (PostgreSQL)', () => {
  let db: TestDatabase;
  let ds: DataSource;
  const store = new ContactStore();
  let project = '';
  let n = 0;

  beforeAll(async () => {
    db = await createTestDatabase();
    ds = await createServiceDataSource(contactsSchema, db.url, 4).initialize();
    await migrateServiceSchema(ds);
  });
  beforeEach(() => {
    project = `prj_contact_store_${++n}`;
  });
  afterAll(async () => {
    await ds?.destroy();
    await db?.drop();
  });

  const contact = (email: string, over: Partial<Contact> = {}): Contact =>
    ({
      id: newId('cnt'),
      projectId: project,
      email,
      subscribed: true,
      data: {},
      deletionsApplied: '0',
      ...over,
    }) as Contact;
  const insert = (c: Contact) => ds.transaction((m) => store.insert(m, c));
  const events = async (contactId: string) =>
    (
      (await ds.query(`SELECT name FROM contacts.tracked_events WHERE contact_id = $1`, [contactId])) as {
        name: string;
      }[]
    ).map((r) => r.name);

  it('inserts a new contact and answers it as stored; a taken address or a taken id inserts nothing', async () => {
    const ada = contact('ada@x.test', { data: { plan: 'pro' } });
    const stored = await insert(ada);
    expect(stored).toMatchObject({ id: ada.id, email: 'ada@x.test', subscribed: true, data: { plan: 'pro' } });
    expect(stored!.createdAt).toBeInstanceOf(Date);
    expect(await insert(contact('ada@x.test'))).toBeUndefined();
    expect(await insert(contact('other@x.test', { id: ada.id }))).toBeUndefined();
    expect(await store.getByEmails(ds, project, ['ada@x.test', 'other@x.test'])).toHaveLength(1);
  });

  it('locks a contact by address, by id and by several addresses (in email order), and finds none of another project', async () => {
    const [b, a] = [contact('b@x.test'), contact('a@x.test')];
    await insert(b);
    await insert(a);
    await ds.transaction(async (m) => {
      expect((await store.lockByEmail(m, project, 'a@x.test'))?.id).toBe(a.id);
      expect((await store.lockById(m, project, b.id))?.email).toBe('b@x.test');
      expect((await store.lockByEmails(m, project, ['b@x.test', 'a@x.test', 'z@x.test'])).map((c) => c.id)).toEqual([
        a.id,
        b.id,
      ]);
      expect(await store.lockById(m, 'prj_other', b.id)).toBeUndefined();
    });
  });

  it('updates address, subscription and data; an address another contact has is CONTACT_EMAIL_TAKEN', async () => {
    const ada = (await insert(contact('ada@x.test')))!;
    await insert(contact('bob@x.test'));
    const changed = await ds.transaction((m) =>
      store.update(m, project, { ...ada, email: 'ada2@x.test', subscribed: false, data: { city: 'Oslo' } }),
    );
    expect(changed).toMatchObject({ id: ada.id, email: 'ada2@x.test', subscribed: false, data: { city: 'Oslo' } });
    await expect(
      ds.transaction((m) => store.update(m, project, { ...changed, email: 'bob@x.test' })),
    ).rejects.toMatchObject({ code: 'CONTACT_EMAIL_TAKEN' });
  });

  it('deletes the contact with its timeline, and answers what it deleted; nothing for an unknown id', async () => {
    const ada = (await insert(contact('ada@x.test')))!;
    const bob = (await insert(contact('bob@x.test')))!;
    for (const c of [ada, bob])
      await ds.query(
        `INSERT INTO contacts.tracked_events (id, project_id, contact_id, name) VALUES ($1, $2, $3, 'signup')`,
        [newId('evt'), project, c.id],
      );
    expect(await ds.transaction((m) => store.delete(m, project, ada.id))).toEqual({ id: ada.id, email: 'ada@x.test' });
    expect(await events(ada.id)).toEqual([]);
    expect(await events(bob.id)).toEqual(['signup']);
    expect(await ds.transaction((m) => store.delete(m, project, ada.id))).toBeUndefined();
  });

  it('writes new and changed contacts of a locked batch in one statement, counting the inserts at the write time', async () => {
    const known = (await insert(contact('known@x.test')))!;
    const taken = contact('taken@x.test');
    await insert(taken);
    const { inserted, at } = await ds.transaction((m) =>
      store.writeLocked(m, project, {
        inserts: [contact('new@x.test', { data: { a: 1 } }), contact('taken@x.test')],
        updates: [{ ...known, subscribed: false, data: { b: 2 } }],
      }),
    );
    expect(inserted).toBe(1);
    const [fresh, changed] = await store
      .getByEmails(ds, project, ['new@x.test', 'known@x.test'])
      .then((cs) => ['new@x.test', 'known@x.test'].map((e) => cs.find((c) => c.email === e)!));
    expect(fresh).toMatchObject({ data: { a: 1 }, createdAt: at });
    expect(changed).toMatchObject({ subscribed: false, data: { b: 2 }, updatedAt: at });
  });

  it('a guarded write keeps its contacts when the rows are as read, and nothing (WriteConflict) once one changed', async () => {
    const known = (await insert(contact('known@x.test')))!;
    const kept = (await insert(contact('kept@x.test')))!;
    const read = await store.readUnlocked(ds, project, ['known@x.test', 'kept@x.test']);
    expect(read.found.map((c) => c.email).sort()).toEqual(['kept@x.test', 'known@x.test']);
    expect(read.versions.get(known.id)).toMatch(/^\d+$/);
    const rows = (data: Record<string, unknown>) => ({
      inserts: [contact(`new${Object.keys(data).length}@x.test`)],
      updates: [{ ...known, data }],
      unchanged: [kept],
    });
    await store.guardedWrite(ds, project, rows({ a: 1 }), read.versions).run(ds);
    expect((await store.get(ds, project, known.id))!.data).toEqual({ a: 1 });
    // the row's version moved with that write: the same read no longer holds
    await expect(store.guardedWrite(ds, project, rows({ a: 1, b: 2 }), read.versions).run(ds)).rejects.toBeInstanceOf(
      WriteConflict,
    );
    expect((await store.get(ds, project, known.id))!.data).toEqual({ a: 1 });
    expect(await store.getByEmails(ds, project, ['new2@x.test'])).toEqual([]);
  });

  it('a guarded write fails when a contact it left unchanged was deleted meanwhile', async () => {
    const gone = (await insert(contact('gone@x.test')))!;
    await ds.transaction((m) => store.delete(m, project, gone.id));
    const write = store.guardedWrite(
      ds,
      project,
      { inserts: [contact('new@x.test')], updates: [], unchanged: [gone] },
      new Map(),
    );
    await expect(write.run(ds)).rejects.toBeInstanceOf(WriteConflict);
    expect(await store.getByEmails(ds, project, ['new@x.test'])).toEqual([]);
  });

  it('claims each idempotency key once per project', async () => {
    expect((await ds.transaction((m) => store.claimKeys(m, project, ['k1', 'k2']))).sort()).toEqual(['k1', 'k2']);
    expect(await ds.transaction((m) => store.claimKeys(m, project, ['k2', 'k3']))).toEqual(['k3']);
    expect(await ds.transaction((m) => store.claimKeys(m, `${project}_b`, ['k1']))).toEqual(['k1']);
  });

  it('reads a contact by id, by addresses, for a lookup, for existence, and by the id or address of an email event', async () => {
    const ada = (await insert(contact('ada@x.test', { subscribed: false })))!;
    expect(await store.get(ds, project, ada.id)).toMatchObject({ email: 'ada@x.test', deletionsApplied: '0' });
    expect(await store.get(ds, 'prj_other', ada.id)).toBeUndefined();
    expect(await store.lookup(ds, project, ['ada@x.test', 'no@x.test'])).toEqual([
      { id: ada.id, email: 'ada@x.test', subscribed: false },
    ]);
    expect([await store.exists(ds, project, ada.id), await store.exists(ds, project, 'cnt_none')]).toEqual([
      true,
      false,
    ]);
    await ds.transaction(async (m) => {
      expect(await store.idOf(m, project, ada.id, 'other@x.test')).toBe(ada.id);
      expect(await store.idOf(m, project, '', 'ada@x.test')).toBe(ada.id);
      expect(await store.idOf(m, project, '', 'no@x.test')).toBeUndefined();
    });
  });

  it('lists newest first with a literal substring search and a subscription filter, and counts past the probe in full', async () => {
    await ds.query(
      `INSERT INTO contacts.contacts (id, project_id, email, subscribed, created_at)
       SELECT 'cnt_bulk_' || i || '_' || $1, $1, 'user' || i || '@x.test', i % 2 = 0, now() - i * interval '1 second'
         FROM generate_series(1, 1001) AS i`,
      [project],
    );
    await insert(contact('per_cent%@x.test', { subscribed: false }));
    const list = (q: Partial<ListContactsQueryDto>) =>
      store.list(ds, project, Object.assign(new ListContactsQueryDto(), { limit: 2 }, q));
    const all = await list({});
    expect(all.data.map((c) => c.email)).toEqual(['per_cent%@x.test', 'user1@x.test']);
    expect(all.total).toBe(1002);
    // % and _ are the characters searched for, not patterns
    expect((await list({ search: 'T%' })).data.map((c) => c.email)).toEqual(['per_cent%@x.test']);
    expect((await list({ search: '_' })).total).toBe(1);
    // the odd users and per_cent
    expect((await list({ subscribed: false })).total).toBe(502);
  });

  it('exports contacts in id order after a cursor, each with its custom events in time order', async () => {
    const [a, b] = [contact('a@x.test', { id: 'cnt_export_a' }), contact('b@x.test', { id: 'cnt_export_b' })];
    await insert(a);
    await insert(b);
    await ds.query(
      `INSERT INTO contacts.tracked_events (id, project_id, contact_id, name, created_at, system) VALUES
         ('evt_x2', $1, 'cnt_export_a', 'second', '2030-01-02T00:00:00Z', false),
         ('evt_x1', $1, 'cnt_export_a', 'first', '2030-01-01T00:00:00Z', false),
         ('evt_x3', $1, 'cnt_export_a', 'email.sent', '2030-01-03T00:00:00Z', true)`,
      [project],
    );
    const [first] = await store.exportPage(ds, project, null, 1);
    expect(first).toMatchObject({ id: 'cnt_export_a', email: 'a@x.test', data: {} });
    expect(first!.events.map((e) => [e.id, e.name])).toEqual([
      ['evt_x1', 'first'],
      ['evt_x2', 'second'],
    ]);
    expect((await store.exportPage(ds, project, 'cnt_export_a', 10)).map((r) => [r.id, r.events])).toEqual([
      ['cnt_export_b', []],
    ]);
  });
});

import { jest } from '@jest/globals';
import type { EventEnvelope } from '@herald/contracts';
import type { Outbox } from '@herald/messaging';
import type { SingleStatementWrite } from '@herald/persistence';
import type { DataSource, EntityManager } from 'typeorm';
import type { WriteContext } from './contact-change.js';
import { ConcurrentCreate, ContactWriter } from './contact-writer.js';
import type { Contact } from './contact.entity.js';
import type { ContactStore } from './contacts.store.js';
import type { FieldTypeRecorder } from './field-type-recorder.js';

const m = {} as EntityManager;
const db = {} as DataSource;
const ctx: WriteContext = { projectId: 'prj_1', subscribedIfNew: true, reason: 'api', correlationId: 'req_1' };
const stored = (over: Partial<Contact> = {}): Contact =>
  ({
    id: 'cnt_ada',
    projectId: 'prj_1',
    email: 'ada@x.test',
    subscribed: true,
    data: { plan: 'free' },
    deletionsApplied: '0',
    createdAt: new Date(0),
    updatedAt: new Date(0),
    ...over,
  }) as Contact;

/** A ContactWriter over a store answering `answers` (each method a mock), with its outbox and field registry recorded. */
function writerWith(answers: Partial<Record<keyof ContactStore, (...args: never[]) => unknown>>) {
  const store = Object.fromEntries(Object.entries(answers).map(([k, f]) => [k, jest.fn(f)])) as Record<
    string,
    jest.Mock
  >;
  const published: EventEnvelope[] = [];
  const outbox = {
    add: jest.fn(async (_m: unknown, ...events: EventEnvelope[]) => void published.push(...events)),
    addTo: jest.fn((_w: unknown, events: EventEnvelope[]) => void published.push(...events)),
  };
  const fields = { register: jest.fn(async () => {}), registerMany: jest.fn(async () => {}), registerIn: jest.fn() };
  const writer = new ContactWriter(
    outbox as unknown as Outbox,
    fields as unknown as FieldTypeRecorder,
    store as unknown as ContactStore,
  );
  return { writer, store, fields, published, types: () => published.map((e) => e.type) };
}

describe('ContactWriter: the one write path over its store', () => {
  it('an upsert of a new address inserts the planned contact, records its field types and publishes contact.created', async () => {
    const { writer, store, fields, types } = writerWith({
      lockByEmail: async () => undefined,
      insert: async (_m: EntityManager, c: Contact) => ({ ...c, createdAt: new Date(1) }),
    });
    const write = await writer.upsert(m, ctx, { email: ' Ada@X.test', data: { plan: 'pro' } }, 'cnt_proposed');
    expect(store.lockByEmail).toHaveBeenCalledWith(m, 'prj_1', 'ada@x.test');
    expect(store.insert.mock.calls[0]![1]).toMatchObject({
      id: 'cnt_proposed',
      email: 'ada@x.test',
      data: { plan: 'pro' },
    });
    expect(write).toMatchObject({ created: true, contact: { id: 'cnt_proposed', createdAt: new Date(1) } });
    expect(fields.register).toHaveBeenCalledWith(m, 'prj_1', { plan: 'pro' });
    expect(types()).toEqual(['contact.created']);
  });

  it('an upsert whose address was created meanwhile applies the input to the contact that now has it', async () => {
    const existing = stored();
    const lockByEmail = jest.fn<() => Promise<Contact | undefined>>().mockResolvedValueOnce(undefined);
    lockByEmail.mockResolvedValueOnce(existing);
    const { writer, store, types } = writerWith({
      lockByEmail,
      insert: async () => undefined,
      update: async (_m: EntityManager, _p: string, c: Contact) => c,
    });
    const write = await writer.upsert(m, ctx, { email: 'ada@x.test', data: { plan: 'pro' } });
    expect(store.update.mock.calls[0]![2]).toMatchObject({ id: 'cnt_ada', data: { plan: 'pro' } });
    expect(write).toMatchObject({ created: false, changedKeys: ['data.plan'] });
    expect(types()).toEqual(['contact.updated']);
  });

  it('an upsert whose proposed id is taken by another contact creates the contact with a fresh id', async () => {
    const { writer, store } = writerWith({
      lockByEmail: async () => undefined,
      insert: async (_m: EntityManager, c: Contact) => (c.id === 'cnt_taken' ? undefined : c),
    });
    const write = await writer.upsert(m, ctx, { email: 'new@x.test' }, 'cnt_taken');
    expect(store.insert).toHaveBeenCalledTimes(2);
    expect(write.contact.id).toMatch(/^cnt_/);
    expect(write.contact.id).not.toBe('cnt_taken');
  });

  it('an update that changes nothing writes nothing and publishes nothing', async () => {
    const { writer, store, published } = writerWith({ lockById: async () => stored(), update: async () => stored() });
    const write = await writer.update(m, ctx, 'cnt_ada', { subscribed: true, data: { plan: 'free' } });
    expect(write).toMatchObject({ changedKeys: [], contact: stored() });
    expect(store.update).not.toHaveBeenCalled();
    expect(published).toEqual([]);
  });

  it('a subscription change records no field types and publishes contact.updated then contact.unsubscribed', async () => {
    const { writer, fields, types } = writerWith({
      lockById: async () => stored(),
      update: async (_m: EntityManager, _p: string, c: Contact) => c,
    });
    await writer.update(m, ctx, 'cnt_ada', { subscribed: false });
    expect(fields.register).not.toHaveBeenCalled();
    expect(types()).toEqual(['contact.updated', 'contact.unsubscribed']);
  });

  it('an update of an unknown contact is CONTACT_NOT_FOUND, or null for a bulk job', async () => {
    const { writer } = writerWith({ lockById: async () => undefined });
    await expect(writer.update(m, ctx, 'cnt_none', { subscribed: false })).rejects.toMatchObject({
      code: 'CONTACT_NOT_FOUND',
    });
    expect(await writer.updateIfExists(m, ctx, 'cnt_none', { subscribed: false })).toBeNull();
  });

  it('a delete publishes contact.deleted only when the store deleted a contact', async () => {
    const deleted = writerWith({ delete: async () => ({ id: 'cnt_ada', email: 'ada@x.test' }) });
    expect(await deleted.writer.delete(m, ctx, 'cnt_ada')).toBe(true);
    expect(deleted.published.map((e) => [e.type, e.payload])).toEqual([
      ['contact.deleted', { contactId: 'cnt_ada', email: 'ada@x.test' }],
    ]);
    const none = writerWith({ delete: async () => undefined });
    expect(await none.writer.delete(m, ctx, 'cnt_none')).toBe(false);
    expect(none.published).toEqual([]);
  });

  it('a locked batch that inserted fewer contacts than planned throws ConcurrentCreate before recording anything', async () => {
    const { writer, fields, published } = writerWith({
      lockByEmails: async () => [],
      writeLocked: async () => ({ inserted: 0, at: new Date() }),
    });
    await expect(writer.upsertMany(m, 'prj_1', [{ input: { email: 'a@x.test' }, ctx }])).rejects.toBeInstanceOf(
      ConcurrentCreate,
    );
    expect(fields.registerMany).not.toHaveBeenCalled();
    expect(published).toEqual([]);
  });

  it('a locked batch answers the database time, and publishes its contact events before what the caller adds', async () => {
    const at = new Date('2030-01-01T00:00:00Z');
    const { writer, types } = writerWith({
      lockByEmails: async () => [stored()],
      writeLocked: async () => ({ inserted: 1, at }),
    });
    const writes = await writer.upsertMany(
      m,
      'prj_1',
      [
        { input: { email: 'new@x.test' }, ctx },
        { input: { email: 'ada@x.test', data: { plan: 'pro' } }, ctx },
      ],
      (results) => results.map(() => ({ type: 'event.tracked' }) as EventEnvelope),
    );
    expect(writes.map((w) => [w.created, w.contact.updatedAt])).toEqual([
      [true, at],
      [false, at],
    ]);
    expect(types()).toEqual(['contact.created', 'contact.updated', 'event.tracked', 'event.tracked']);
  });

  it("the single statement takes the batch's field types, then the caller's part, then the outbox, and runs once", async () => {
    const order: string[] = [];
    const writtenAt = new Date('2026-03-04T05:06:07.089Z');
    const outputs: [string, (value: unknown) => void][] = [];
    const write = {
      output: jest.fn((expression: string, onCommit: (value: unknown) => void) => outputs.push([expression, onCommit])),
      run: jest.fn(async () => {
        order.push('run');
        for (const [, onCommit] of outputs) onCommit(writtenAt);
      }),
    } as unknown as SingleStatementWrite;
    const { writer, store, fields } = writerWith({
      readUnlocked: async () => ({ found: [], versions: new Map() }),
      guardedWrite: () => write,
    });
    fields.registerIn.mockImplementation(() => void order.push('fields'));
    const outbox = (writer as unknown as { outbox: { addTo: jest.Mock } }).outbox;
    outbox.addTo.mockImplementation(() => void order.push('outbox'));
    const [created] = await writer.upsertManyAtomically(
      db,
      'prj_1',
      [{ input: { email: 'a@x.test', data: { n: 1 } }, ctx }],
      {
        alsoWrite: () => {
          order.push('caller');
          return [];
        },
      },
    );
    expect(store.guardedWrite.mock.calls[0]![2]).toMatchObject({ inserts: [{ email: 'a@x.test' }], updates: [] });
    // the answer carries the database's write time (the statement's now()), as the locking path's does
    expect(outputs.map(([expression]) => expression)).toEqual(['now()']);
    expect([created!.contact.createdAt, created!.contact.updatedAt]).toEqual([writtenAt, writtenAt]);
    expect(fields.registerIn).toHaveBeenCalledWith(write, 'prj_1', [{ n: 1 }]);
    expect(order).toEqual(['fields', 'caller', 'outbox', 'run']);
  });
});

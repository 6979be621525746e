import { jest } from '@jest/globals';
import type { UpsertContactRequest } from '@herald/internal-contracts';
import { WriteConflict } from '@herald/persistence';
import type { DataSource, EntityManager } from 'typeorm';
import type { ContactWrite } from './contact-change.js';
import { ConcurrentCreate, type ContactWriter, type UpsertItem } from './contact-writer.js';
import type { Contact } from './contact.entity.js';
import { ContactsService } from './contacts.service.js';
import type { ContactStore } from './contacts.store.js';

const m = { transaction: 'the one of this call' } as unknown as EntityManager;
const contact = (email: string): Contact =>
  ({
    id: `cnt_${email[0]}`,
    projectId: 'prj_1',
    email,
    subscribed: true,
    data: {},
    createdAt: new Date(0),
    updatedAt: new Date(0),
  }) as Contact;
const written = (email: string, created = false): ContactWrite => ({
  contact: contact(email),
  created,
  changedKeys: created ? [] : ['data.plan'],
  transient: {},
});
const send = (email: string, more: Partial<UpsertContactRequest> = {}): UpsertContactRequest => ({
  email,
  subscribedIfNew: false,
  reason: 'send',
  ...more,
});

/** A ContactsService over mocks: a data source whose transactions run at once, the writer and the store. */
function serviceWith(store: Record<string, unknown>, writer: Record<string, unknown>) {
  const db = { transaction: jest.fn(async (fn: (m: EntityManager) => unknown) => fn(m)) };
  const service = new ContactsService(
    db as unknown as DataSource,
    writer as unknown as ContactWriter,
    store as unknown as ContactStore,
  );
  return { service, db };
}

describe('ContactsService: the contacts use cases over their store', () => {
  it('upsertManyFor of no input answers none and opens no transaction', async () => {
    const { service, db } = serviceWith({}, {});
    expect(await service.upsertManyFor('prj_1', [])).toEqual([]);
    expect(db.transaction).not.toHaveBeenCalled();
  });

  it('upsertManyFor claims each distinct key once, in order, and passes an input whose key was taken as a repeat', async () => {
    const claimKeys = jest.fn(async () => ['k1']);
    const upsertMany = jest.fn(async (_m: EntityManager, _p: string, items: UpsertItem[]) =>
      items.map((i) => written(i.input.email)),
    );
    const { service } = serviceWith({ claimKeys }, { upsertMany });
    const answers = await service.upsertManyFor('prj_1', [
      send('a@x.test', { idempotencyKey: 'k2' }),
      send('b@x.test', { idempotencyKey: 'k1' }),
      send('c@x.test', { idempotencyKey: 'k1' }),
      send('d@x.test'),
    ]);
    expect(claimKeys).toHaveBeenCalledWith(m, 'prj_1', ['k1', 'k2']);
    expect(upsertMany.mock.calls[0]![2].map((i) => i.repeat)).toEqual([true, false, true, false]);
    expect(answers.map((a) => a.duplicate)).toEqual([true, false, true, false]);
  });

  it('upsertManyFor writes the inputs again one by one, keys claimed anew, when the batch met a concurrent create', async () => {
    const claimKeys = jest.fn(async () => ['k1']);
    const upsertMany = jest.fn(async () => {
      throw new ConcurrentCreate();
    });
    const upsertInTurn = jest.fn(async () => [written('a@x.test', true)]);
    const { service, db } = serviceWith({ claimKeys }, { upsertMany, upsertInTurn });
    const [answer] = await service.upsertManyFor('prj_1', [send('a@x.test', { idempotencyKey: 'k1' })], 'req_1');
    expect(db.transaction).toHaveBeenCalledTimes(2);
    expect(claimKeys).toHaveBeenCalledTimes(2);
    expect(answer).toMatchObject({ created: true, duplicate: false, contact: { email: 'a@x.test' } });
  });

  it('upsertManyFor lets any other failure through, without a second attempt', async () => {
    const upsertMany = jest.fn(async () => {
      throw new Error('boom');
    });
    const { service, db } = serviceWith({ claimKeys: jest.fn(async () => ['k1']) }, { upsertMany });
    await expect(service.upsertManyFor('prj_1', [send('a@x.test', { idempotencyKey: 'k1' })])).rejects.toThrow('boom');
    expect(db.transaction).toHaveBeenCalledTimes(1);
  });

  it('upsertManyFor of inputs without keys writes them in one guarded statement, with no transaction', async () => {
    const upsertManyAtomically = jest.fn(async (_db: DataSource, _p: string, items: UpsertItem[]) =>
      items.map((i) => written(i.input.email, true)),
    );
    const { service, db } = serviceWith({}, { upsertManyAtomically });
    const answers = await service.upsertManyFor('prj_1', [send('a@x.test'), send('b@x.test', { idIfNew: 'cnt_b' })]);
    expect(db.transaction).not.toHaveBeenCalled();
    expect(upsertManyAtomically.mock.calls[0]![2]).toMatchObject([
      { input: { email: 'a@x.test' }, repeat: false },
      { input: { email: 'b@x.test' }, idIfNew: 'cnt_b', repeat: false },
    ]);
    expect(answers.map((a) => [a.contact.email, a.created, a.duplicate])).toEqual([
      ['a@x.test', true, false],
      ['b@x.test', true, false],
    ]);
  });

  it('upsertManyFor takes the locking path when a contact changed under the guarded statement (nothing was written)', async () => {
    const upsertManyAtomically = jest.fn(async () => {
      throw new WriteConflict('a guard did not hold');
    });
    const upsertMany = jest.fn(async (_m: EntityManager, _p: string, items: UpsertItem[]) =>
      items.map((i) => written(i.input.email)),
    );
    const { service, db } = serviceWith({}, { upsertManyAtomically, upsertMany });
    const [answer] = await service.upsertManyFor('prj_1', [send('a@x.test')]);
    expect(db.transaction).toHaveBeenCalledTimes(1);
    expect(upsertMany).toHaveBeenCalledTimes(1);
    expect(answer).toMatchObject({ created: false, contact: { email: 'a@x.test' } });
  });

  it('upsertManyFor lets a failure of the guarded statement other than a conflict through, without a second attempt', async () => {
    const upsertManyAtomically = jest.fn(async () => {
      throw new Error('boom');
    });
    const upsertMany = jest.fn();
    const { service, db } = serviceWith({}, { upsertManyAtomically, upsertMany });
    await expect(service.upsertManyFor('prj_1', [send('a@x.test')])).rejects.toThrow('boom');
    expect(db.transaction).not.toHaveBeenCalled();
    expect(upsertMany).not.toHaveBeenCalled();
  });

  it('upsertFor of a key applied before writes nothing and answers the contact as it is, as a duplicate', async () => {
    const upsert = jest.fn();
    const getByEmails = jest.fn(async () => [contact('ada@x.test')]);
    const { service } = serviceWith({ claimKeys: jest.fn(async () => []), getByEmails }, { upsert });
    const answer = await service.upsertFor('prj_1', send(' Ada@X.test', { idempotencyKey: 'k1' }));
    expect(upsert).not.toHaveBeenCalled();
    expect(getByEmails).toHaveBeenCalledWith(expect.anything(), 'prj_1', ['ada@x.test']);
    expect(answer).toMatchObject({
      duplicate: true,
      created: false,
      changedKeys: [],
      contact: { email: 'ada@x.test' },
    });
  });

  it('upsertFor of a key applied before to a contact deleted since is CONTACT_NOT_FOUND', async () => {
    const { service } = serviceWith({ claimKeys: jest.fn(async () => []), getByEmails: jest.fn(async () => []) }, {});
    await expect(service.upsertFor('prj_1', send('gone@x.test', { idempotencyKey: 'k1' }))).rejects.toMatchObject({
      code: 'CONTACT_NOT_FOUND',
    });
  });

  it('reads ask the store for each normalised address once; a lookup names the addresses it did not find', async () => {
    const lookup = jest.fn(async () => [{ id: 'cnt_a', email: 'a@x.test', subscribed: true }]);
    const getByEmails = jest.fn(async () => []);
    const { service } = serviceWith({ lookup, getByEmails }, {});
    expect(await service.lookup('prj_1', ['A@x.test ', 'a@x.test', 'B@x.test'])).toEqual({
      found: [{ id: 'cnt_a', email: 'a@x.test', subscribed: true }],
      notFound: ['b@x.test'],
    });
    expect(lookup).toHaveBeenCalledWith(expect.anything(), 'prj_1', ['a@x.test', 'b@x.test']);
    await service.getByEmails('prj_1', ['B@x.test', 'b@x.test']);
    expect(getByEmails).toHaveBeenCalledWith(expect.anything(), 'prj_1', ['b@x.test']);
  });

  it('a contact the store does not have is CONTACT_NOT_FOUND, for a read and for a delete', async () => {
    const { service } = serviceWith({ get: jest.fn(async () => undefined) }, { delete: jest.fn(async () => false) });
    await expect(service.get('prj_1', 'cnt_none')).rejects.toMatchObject({ code: 'CONTACT_NOT_FOUND' });
    await expect(service.delete('prj_1', 'cnt_none')).rejects.toMatchObject({ code: 'CONTACT_NOT_FOUND' });
  });
});

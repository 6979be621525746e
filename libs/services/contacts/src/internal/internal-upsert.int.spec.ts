import { newId } from '@herald/core';
import { Outbox } from '@herald/messaging';
import { createServiceDataSource, migrateServiceSchema } from '@herald/persistence';
import { createTestDatabase, type TestDatabase } from '@herald/testing';
import { plainToInstance } from 'class-transformer';
import { validate } from 'class-validator';
import type { DataSource } from 'typeorm';
import { CONTACTS } from '../consumer.js';
import { ContactWriter } from '../contacts/contact-writer.js';
import { ContactsService } from '../contacts/contacts.service.js';
import { contactsSchema } from '../contacts.module.js';
import { FieldRegistry } from '../fields/field-registry.js';
import { UpsertContactRequest as ServiceUpsertContactDto } from '@herald/internal-contracts';

/**
 * The internal upsert (`POST /internal/contacts/upsert`) with the id /v1/send proposes for a contact
 * it creates (`idIfNew`): sending renders every recipient's email before it writes anything, with
 * the id the contact will have. On PostgreSQL, through ContactsService.upsertFor as the route calls it.
 */
describe('internal upsert: the id proposed for a new contact (PostgreSQL)', () => {
  let db: TestDatabase;
  let ds: DataSource;
  let contacts: ContactsService;
  let project = '';
  let n = 0;

  beforeAll(async () => {
    db = await createTestDatabase();
    ds = await createServiceDataSource(contactsSchema, db.url, 4).initialize();
    await migrateServiceSchema(ds);
    contacts = new ContactsService(ds, new ContactWriter(new Outbox(CONTACTS, ds), new FieldRegistry(ds)));
  });
  beforeEach(() => {
    project = `prj_upsert_id_${++n}`;
  });
  afterAll(async () => {
    await ds?.destroy();
    await db?.drop();
  });

  const upsert = (email: string, idIfNew?: string) =>
    contacts.upsertFor(project, {
      email,
      data: { plan: 'pro' },
      subscribedIfNew: false,
      reason: 'send',
      ...(idIfNew ? { idIfNew } : {}),
    });
  const created = async () =>
    (
      (await ds.query(
        `SELECT envelope->'payload'->>'contactId' AS id FROM contacts.outbox WHERE topic = 'contact.created' AND envelope->>'projectId' = $1 ORDER BY id`,
        [project],
      )) as { id: string }[]
    ).map((r) => r.id);

  it('creates a new contact with the proposed id, and its contact.created event carries it', async () => {
    const id = newId('cnt');
    const answer = await upsert('new@x.test', id);
    expect(answer).toMatchObject({ created: true, contact: { id, email: 'new@x.test', subscribed: false } });
    expect((await contacts.get(project, id)).data).toEqual({ plan: 'pro' });
    expect(await created()).toEqual([id]);
  });

  it('ignores the proposed id when the address already has a contact', async () => {
    const existing = (await upsert('known@x.test')).contact;
    const answer = await upsert('known@x.test', newId('cnt'));
    expect(answer).toMatchObject({ created: false, contact: { id: existing.id } });
    expect(await created()).toEqual([existing.id]);
  });

  it("gives a new contact a fresh id when the proposed one is another contact's (any project's): no error", async () => {
    const taken = (await upsert('first@x.test')).contact.id;
    project = `prj_upsert_id_${++n}`;
    const answer = await upsert('second@x.test', taken);
    expect(answer.created).toBe(true);
    expect(answer.contact.id).not.toBe(taken);
    expect(answer.contact.id).toMatch(/^cnt_/);
    expect(await created()).toEqual([answer.contact.id]);
  });

  it('refuses a proposed id that is not a contact id as contacts make them', async () => {
    const problems = async (idIfNew: unknown) =>
      (
        await validate(
          plainToInstance(ServiceUpsertContactDto, {
            email: 'a@x.test',
            subscribedIfNew: false,
            reason: 'send',
            idIfNew,
          }),
        )
      ).map((e) => e.property);
    expect(await problems(newId('cnt'))).toEqual([]);
    for (const bad of [newId('eml'), 'cnt_short', `${newId('cnt')}x`, 42])
      expect(await problems(bad)).toEqual(['idIfNew']);
  });
});

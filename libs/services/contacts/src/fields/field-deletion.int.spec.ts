import { PageQueryDto } from '@herald/http';
import type { JobContext, JobHandler, JobQueue } from '@herald/jobs';
import { Outbox } from '@herald/messaging';
import { createServiceDataSource, migrateServiceSchema } from '@herald/persistence';
import { createTestDatabase, type TestDatabase } from '@herald/testing';
import type { DataSource } from 'typeorm';
import { ContactWriter } from '../contacts/contact-writer.js';
import { ListContactsQueryDto } from '../contacts/contact.dto.js';
import { ContactsService } from '../contacts/contacts.service.js';
import { ContactStore } from '../contacts/contacts.store.js';
import { contactsSchema } from '../contacts.module.js';
import { CONTACTS } from '../consumer.js';
import { ContactsExport } from '../internal/contacts-export.js';
import type { ServiceUpsertContactDto } from '../internal/internal-contacts.dto.js';
import { DeleteFieldProcessor } from './delete-field.processor.js';
import { FieldRegistry } from './field-registry.js';
import { DELETE_FIELD_QUEUE, FieldsService } from './fields.service.js';
import { FieldsStore } from './fields.store.js';
import type { ReferenceDirectory } from '@herald/messaging';

/**
 * DELETE /contacts/fields/:field takes effect for every read at once, while its job has not run:
 * the job is held back here (the queue only records it) and run when the test says so.
 */
describe('deleting a field, with its job held back (PostgreSQL)', () => {
  let db: TestDatabase;
  let ds: DataSource;
  let contacts: ContactsService;
  let fields: FieldsService;
  let writer: ContactWriter;
  let exporter: ContactsExport;
  let project: string;
  let n = 0;
  const queued: { id: string; payload: Record<string, unknown> }[] = [];
  const handlers = new Map<string, JobHandler>();
  const heldBack = {
    enqueue: async (_m: unknown, _queue: string, payload: Record<string, unknown>) => {
      const id = `job_${queued.length + 1}`;
      queued.push({ id, payload });
      return id;
    },
    register: (queue: string, handler: JobHandler) => handlers.set(queue, handler),
  } as unknown as JobQueue;

  /** Runs the held-back deletion job `jobId` to the end. */
  const runJob = (jobId: string) =>
    handlers.get(DELETE_FIELD_QUEUE)!({
      job: { id: jobId, payload: queued.find((j) => j.id === jobId)!.payload },
      signal: new AbortController().signal,
    } as unknown as JobContext);
  const raw = async (id: string) =>
    (
      (await ds.query(`SELECT data FROM contacts.contacts WHERE id = $1`, [id])) as { data: Record<string, unknown> }[]
    )[0]!.data;
  const list = async () =>
    Object.fromEntries(
      (await contacts.list(project, Object.assign(new ListContactsQueryDto(), { limit: 100 }))).data.map((c) => [
        c.email,
        c.data,
      ]),
    );
  const coverage = async () =>
    Object.fromEntries(
      (await fields.list(project)).fields.filter((f) => f.isCustom).map((f) => [f.field, f.coverage] as const),
    );
  const upsert = (email: string, data: Record<string, unknown>) => contacts.upsert(project, { email, data });

  beforeAll(async () => {
    db = await createTestDatabase();
    ds = await createServiceDataSource(contactsSchema, db.url, 4).initialize();
    await migrateServiceSchema(ds);
    const registry = new FieldRegistry(ds);
    writer = new ContactWriter(new Outbox(CONTACTS, ds), registry);
    contacts = new ContactsService(ds, writer);
    exporter = new ContactsExport(ds, new ContactStore());
    fields = new FieldsService(ds, heldBack, registry, {} as ReferenceDirectory, new FieldsStore());
    new DeleteFieldProcessor(ds, heldBack, new Outbox(CONTACTS, ds), new FieldsStore()).onModuleInit();
  });
  beforeEach(() => {
    project = `prj_field_del_${++n}`;
  });
  afterAll(async () => {
    await ds.destroy();
    await db.drop();
  });

  it('no read shows the key once the delete answered, though every row still holds it: a contact, the list, the coverage', async () => {
    const ada = await upsert('ada@example.com', {
      plan: 'gold',
      city: 'Berlin',
      profile: { tier: 'vip', since: 2020 },
    });
    const bob = await upsert('bob@example.com', { plan: 'free' });
    await fields.delete(project, 'data.plan');
    await fields.delete(project, 'data.profile.tier');

    expect(await raw(ada.id)).toEqual({ plan: 'gold', city: 'Berlin', profile: { tier: 'vip', since: 2020 } });
    expect((await contacts.get(project, ada.id)).data).toEqual({ city: 'Berlin', profile: { since: 2020 } });
    expect((await contacts.get(project, bob.id)).data).toEqual({});
    // what sending renders templates with: the internal upsert's answer (and the internal get, above)
    const forSend = await contacts.upsertFor(project, {
      email: 'ada@example.com',
      subscribedIfNew: false,
      reason: 'send',
    } as ServiceUpsertContactDto);
    expect(forSend.contact.data).toEqual({ city: 'Berlin', profile: { since: 2020 } });
    expect(await list()).toEqual({
      'ada@example.com': { city: 'Berlin', profile: { since: 2020 } },
      'bob@example.com': {},
    });
    expect(await coverage()).toEqual({ 'data.city': 0.5, 'data.profile.since': 0.5 });
    await expect(fields.values(project, 'data.plan', new PageQueryDto())).rejects.toMatchObject({
      code: 'FIELD_NOT_FOUND',
    });
  });

  it('a value written to the key after the delete is a new field: shown, counted, and kept by the job', async () => {
    const ada = await upsert('ada@example.com', { plan: 'gold', city: 'Berlin' });
    const bob = await upsert('bob@example.com', { plan: 'free' });
    const { jobId } = await fields.delete(project, 'data.plan');

    const written = await upsert('bob@example.com', { plan: 'pro' });
    expect(written.data).toEqual({ plan: 'pro' });
    expect((await contacts.get(project, bob.id)).data).toEqual({ plan: 'pro' });
    expect(await coverage()).toEqual({ 'data.city': 0.5, 'data.plan': 0.5 });
    expect((await fields.values(project, 'data.plan', new PageQueryDto())).data).toEqual([{ value: 'pro', count: 1 }]);

    await runJob(jobId);
    expect(await raw(ada.id)).toEqual({ city: 'Berlin' });
    expect(await raw(bob.id)).toEqual({ plan: 'pro' });
    expect(await list()).toEqual({ 'ada@example.com': { city: 'Berlin' }, 'bob@example.com': { plan: 'pro' } });
    expect(await ds.query(`SELECT 1 FROM contacts.contact_field_deletions WHERE project_id = $1`, [project])).toEqual(
      [],
    );
  });

  it('a write to another key does not bring the deleted value back, on each write path', async () => {
    const one = await upsert('one@example.com', { plan: 'gold', n: 0 });
    const many = await upsert('many@example.com', { plan: 'gold', n: 0 });
    const atomic = await upsert('atomic@example.com', { plan: 'gold', n: 0 });
    await fields.delete(project, 'data.plan');

    await contacts.update(project, one.id, { data: { n: 1 } });
    await ds.transaction((m) =>
      writer.upsertMany(m, project, [
        {
          input: { email: 'many@example.com', data: { n: 1 } },
          ctx: { projectId: project, subscribedIfNew: true, reason: 'import' },
        },
      ]),
    );
    await writer.upsertManyAtomically(ds, project, [
      {
        input: { email: 'atomic@example.com', data: { n: 1 } },
        ctx: { projectId: project, subscribedIfNew: true, reason: 'track' },
      },
    ]);
    for (const c of [one, many, atomic]) {
      expect(await raw(c.id)).toEqual({ n: 1 });
      expect((await contacts.get(project, c.id)).data).toEqual({ n: 1 });
    }
    expect(await coverage()).toEqual({ 'data.n': 1 });
  });

  it('the export a segments backfill copies leaves the key out, and shows a value written after the delete', async () => {
    const ada = await upsert('ada@example.com', {
      plan: 'gold',
      city: 'Berlin',
      profile: { tier: 'vip', since: 2020 },
    });
    const bob = await upsert('bob@example.com', { plan: 'free' });
    const { jobId } = await fields.delete(project, 'data.plan');
    await fields.delete(project, 'data.profile.tier');
    const exported = async () =>
      Object.fromEntries((await exporter.page(project, undefined, 100)).contacts.map((c) => [c.email, c.data]));

    expect(await raw(ada.id)).toEqual({ plan: 'gold', city: 'Berlin', profile: { tier: 'vip', since: 2020 } });
    expect(await raw(bob.id)).toEqual({ plan: 'free' });
    expect(await exported()).toEqual({
      'ada@example.com': { city: 'Berlin', profile: { since: 2020 } },
      'bob@example.com': {},
    });

    await upsert('bob@example.com', { plan: 'pro' });
    expect(await exported()).toEqual({
      'ada@example.com': { city: 'Berlin', profile: { since: 2020 } },
      'bob@example.com': { plan: 'pro' },
    });
    await runJob(jobId);
    expect((await exporter.page(project, undefined, 100)).contacts.find((c) => c.id === bob.id)?.data).toEqual({
      plan: 'pro',
    });
  });

  it('a key deleted, written again and deleted again is gone again, and the first job leaves the second value to the second', async () => {
    const ada = await upsert('ada@example.com', { plan: 'gold' });
    const first = await fields.delete(project, 'data.plan');
    await upsert('ada@example.com', { plan: 'pro' });
    expect((await contacts.get(project, ada.id)).data).toEqual({ plan: 'pro' });
    const second = await fields.delete(project, 'data.plan');
    expect((await contacts.get(project, ada.id)).data).toEqual({});

    await runJob(first.jobId);
    expect(await raw(ada.id)).toEqual({ plan: 'pro' });
    expect((await contacts.get(project, ada.id)).data).toEqual({});
    await runJob(second.jobId);
    expect(await raw(ada.id)).toEqual({});
  });
});

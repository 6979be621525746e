import { newId } from '@herald/core';
import { Outbox } from '@herald/messaging';
import { createServiceDataSource, migrateServiceSchema, pgPool } from '@herald/persistence';
import { createTestDatabase, type TestDatabase } from '@herald/testing';
import type { DataSource } from 'typeorm';
import { CONTACTS } from '../consumer.js';
import { contactsSchema } from '../contacts.module.js';
import { FieldRegistry } from '../fields/field-registry.js';
import type { ServiceUpsertContactDto, ServiceUpsertResult } from '../internal/internal-contacts.dto.js';
import { ContactWriter } from './contact-writer.js';
import { ContactsService } from './contacts.service.js';

interface Published {
  type: string;
  correlationId?: string;
  payload: Record<string, unknown>;
}

/**
 * ContactsService.upsertManyFor (the recipients of a /v1/send in one call) on PostgreSQL: the same
 * answers and the same events as `upsertFor` called input after input, written together (one
 * guarded statement without keys, else one transaction) in a number of statements that does not
 * grow with the inputs.
 */
describe('upsertManyFor: several service upserts written together (PostgreSQL)', () => {
  let db: TestDatabase;
  let ds: DataSource;
  let contacts: ContactsService;
  let n = 0;
  const nextProject = () => `prj_many_for_${++n}`;

  beforeAll(async () => {
    db = await createTestDatabase();
    ds = await createServiceDataSource(contactsSchema, db.url, 4).initialize();
    await migrateServiceSchema(ds);
    contacts = new ContactsService(ds, new ContactWriter(new Outbox(CONTACTS, ds), new FieldRegistry(ds)));
  });
  afterAll(async () => {
    await ds?.destroy();
    await db?.drop();
  });

  const send = (email: string, more: Partial<ServiceUpsertContactDto> = {}): ServiceUpsertContactDto => ({
    email,
    subscribedIfNew: false,
    reason: 'send',
    ...more,
  });
  const published = async (project: string): Promise<Published[]> =>
    (
      (await ds.query(`SELECT envelope FROM contacts.outbox WHERE envelope->>'projectId' = $1 ORDER BY id`, [
        project,
      ])) as { envelope: Published }[]
    ).map(({ envelope: { type, correlationId, payload } }) => ({ type, correlationId, payload }));
  /** A project with a subscribed and an unsubscribed contact, and the events of that setup. */
  const seeded = async () => {
    const project = nextProject();
    await contacts.upsertFor(project, send('known@x.test', { subscribedIfNew: true, data: { plan: 'free' } }));
    await contacts.upsertFor(project, send('quiet@x.test', { data: { plan: 'free' } }));
    return { project, setup: (await published(project)).length };
  };
  /** Results and events with contact ids named by first appearance, and without timestamps (another project, another time). */
  const comparable = (results: ServiceUpsertResult[], events: Published[]) => {
    const names = new Map<string, string>();
    const name = (id: unknown) =>
      names.get(id as string) ?? names.set(id as string, `contact${names.size + 1}`).get(id as string);
    return {
      results: results.map(({ contact: { createdAt: _c, updatedAt: _u, ...contact }, ...r }) => ({
        ...r,
        contact: { ...contact, id: name(contact.id) },
      })),
      events: events.map((e) => ({ ...e, payload: { ...e.payload, contactId: name(e.payload.contactId) } })),
    };
  };

  it('answers and publishes what upsertFor does input after input: new, changed, unchanged, an address twice, a key twice', async () => {
    const inputs = [
      send('new@x.test', { data: { plan: 'pro' } }),
      send('Known@X.test', { subscribed: false, data: { plan: 'pro', coupon: { value: 'SAVE', persistent: false } } }),
      send('quiet@x.test', { data: { plan: 'free' } }),
      send(' NEW@x.test', { subscribed: true, data: { city: 'Oslo' } }),
      send('wf@x.test', { subscribedIfNew: true, reason: 'workflow', idempotencyKey: 'step-1', data: { step: 1 } }),
      send('wf@x.test', { subscribedIfNew: true, reason: 'workflow', idempotencyKey: 'step-1', data: { step: 2 } }),
      send('known@x.test', { idempotencyKey: 'step-2', data: { step: 3 } }),
    ];
    const one = await seeded();
    const inTurn: ServiceUpsertResult[] = [];
    for (const input of inputs) inTurn.push(await contacts.upsertFor(one.project, input, 'req_1'));
    const many = await seeded();
    const together = await contacts.upsertManyFor(many.project, inputs, 'req_1');

    const expected = comparable(inTurn, (await published(one.project)).slice(one.setup));
    expect(comparable(together, (await published(many.project)).slice(many.setup))).toEqual(expected);
    expect(expected.results.map((r) => [r.contact.email, r.created, r.changedKeys, r.duplicate])).toEqual([
      ['new@x.test', true, [], false],
      ['known@x.test', false, ['subscribed', 'data.plan'], false],
      ['quiet@x.test', false, [], false],
      ['new@x.test', false, ['subscribed', 'data.city'], false],
      ['wf@x.test', true, [], false],
      ['wf@x.test', false, [], true],
      ['known@x.test', false, ['data.step'], false],
    ]);
    expect(together[1]!.transient).toEqual({ coupon: 'SAVE' });
    expect(expected.events.map((e) => e.type)).toEqual([
      'contact.created',
      'contact.updated',
      'contact.unsubscribed',
      'contact.updated',
      'contact.subscribed',
      'contact.created',
      'contact.updated',
    ]);
    expect(expected.events.every((e) => e.correlationId === 'req_1')).toBe(true);
  });

  it("a caller whose durable commit follows gets the same answers and events on both paths, and the pool's later commits are durable again", async () => {
    const guarded = [send('new@x.test', { data: { plan: 'pro' } }), send('known@x.test', { subscribed: false })];
    const keyed = [send('wf@x.test', { subscribedIfNew: true, reason: 'workflow', idempotencyKey: 'step-1' })];
    const durable = await seeded();
    const asked = [
      ...(await contacts.upsertManyFor(durable.project, guarded, 'req_1')),
      ...(await contacts.upsertManyFor(durable.project, keyed, 'req_1')),
    ];
    const deferred = await seeded();
    const noWait = { flushWait: false };
    const answered = [
      ...(await contacts.upsertManyFor(deferred.project, guarded, 'req_1', noWait)),
      ...(await contacts.upsertManyFor(deferred.project, keyed, 'req_1', noWait)),
    ];
    expect(comparable(answered, (await published(deferred.project)).slice(deferred.setup))).toEqual(
      comparable(asked, (await published(durable.project)).slice(durable.setup)),
    );
    // the setting was each write's own transaction's: four queries at once hold every connection of the pool
    const settings = await Promise.all(
      [1, 2, 3, 4].map(async () => {
        const [row] = (await ds.query(`SELECT current_setting('synchronous_commit') AS s, pg_sleep(0.05)`)) as {
          s: string;
        }[];
        return row!.s;
      }),
    );
    expect(settings).toEqual(['on', 'on', 'on', 'on']);
  });

  it("answers each contact's last state as stored, timestamps included, and an earlier state of it with the same write time", async () => {
    const { project } = await seeded();
    const [created, changed, known] = await contacts.upsertManyFor(project, [
      send('fresh@x.test', { data: { a: 1 } }),
      send('fresh@x.test', { data: { b: 2 } }),
      send('known@x.test', { data: { plan: 'gold' } }),
    ]);
    expect(changed!.contact).toEqual(await contacts.get(project, changed!.contact.id));
    expect(known!.contact).toEqual(await contacts.get(project, known!.contact.id));
    expect(created!.contact).toEqual({ ...changed!.contact, data: { a: 1 } });
  });

  it('creates a new contact with its proposed id and changes an existing one, ignoring the id proposed for it', async () => {
    const { project } = await seeded();
    const id = newId('cnt');
    const [fresh, known] = await contacts.upsertManyFor(project, [
      send('fresh@x.test', { idIfNew: id, data: { plan: 'pro' } }),
      send('known@x.test', { idIfNew: newId('cnt'), data: { plan: 'pro' } }),
    ]);
    expect(fresh).toMatchObject({ created: true, contact: { id, subscribed: false, data: { plan: 'pro' } } });
    expect(known).toMatchObject({ created: false, changedKeys: ['data.plan'], contact: { subscribed: true } });
    expect((await contacts.getByEmails(project, ['known@x.test']))[0]!.id).toBe(known!.contact.id);
  });

  it("gives a new contact a fresh id when the proposed one is another contact's, as upsertFor does", async () => {
    const { project } = await seeded();
    const taken = (await contacts.getByEmails(project, ['quiet@x.test']))[0]!.id;
    const [other, fresh] = await contacts.upsertManyFor(nextProject(), [
      send('a@x.test', { data: { plan: 'pro' } }),
      send('b@x.test', { idIfNew: taken, data: { plan: 'pro' } }),
    ]);
    expect([other!.created, fresh!.created]).toEqual([true, true]);
    expect(fresh!.contact.id).not.toBe(taken);
    expect(fresh!.contact.id).toMatch(/^cnt_/);
  });

  it('a key applied by an earlier call is a duplicate: it changes nothing and answers the contact as it is', async () => {
    const { project } = await seeded();
    await contacts.upsertFor(project, send('known@x.test', { idempotencyKey: 'run-1', data: { step: 1 } }));
    const [again] = await contacts.upsertManyFor(project, [
      send('known@x.test', { idempotencyKey: 'run-1', data: { step: 2 } }),
    ]);
    expect(again).toMatchObject({ duplicate: true, changedKeys: [], contact: { data: { plan: 'free', step: 1 } } });
  });

  it('commits nothing when one input breaks a data limit: the 422, no contact, no key, no event', async () => {
    const { project, setup } = await seeded();
    const big = Object.fromEntries(['a', 'b', 'c', 'd', 'e'].map((k) => [k, 'x'.repeat(16_000)]));
    await expect(
      contacts.upsertManyFor(project, [
        send('fine@x.test', { idempotencyKey: 'k', data: { plan: 'pro' } }),
        send('huge@x.test', { data: big }),
      ]),
    ).rejects.toMatchObject({ code: 'VALIDATION_ERROR' });
    expect(await contacts.getByEmails(project, ['fine@x.test', 'huge@x.test'])).toEqual([]);
    expect(await published(project)).toHaveLength(setup);
    expect((await contacts.upsertManyFor(project, [send('fine@x.test', { idempotencyKey: 'k' })]))[0]!.duplicate).toBe(
      false,
    );
  });

  it('writes twenty recipients in as many statements as one', async () => {
    const statements = async (inputs: ServiceUpsertContactDto[]) => {
      const { project } = await seeded();
      const sent: string[] = [];
      const create = ds.createQueryRunner;
      ds.createQueryRunner = (mode) => {
        const runner = create.call(ds, mode);
        const query = runner.query.bind(runner);
        runner.query = ((sql: string, ...rest: unknown[]) => {
          sent.push(sql);
          return (query as (...args: unknown[]) => unknown)(sql, ...rest);
        }) as typeof runner.query;
        return runner;
      };
      try {
        await contacts.upsertManyFor(project, inputs);
      } finally {
        ds.createQueryRunner = create;
      }
      return sent.length;
    };
    const recipients = (count: number) =>
      Array.from({ length: count }, (_, i) =>
        send(i % 2 === 0 ? `r${i}@x.test` : 'known@x.test', { idempotencyKey: `k${i}`, data: { [`f${i}`]: i } }),
      );
    const one = await statements(recipients(1));
    expect(await statements(recipients(20))).toBe(one);
    // BEGIN, keys, lock, contacts, fields, outbox, COMMIT
    expect(one).toBe(7);
  });

  it('writes recipients without keys as /v1/track writes contacts: one read and one statement, no transaction', async () => {
    const { project, setup } = await seeded();
    const transactions: string[] = [];
    const pooled: string[] = [];
    const create = ds.createQueryRunner;
    ds.createQueryRunner = (mode) => {
      transactions.push('query runner');
      return create.call(ds, mode);
    };
    const pool = pgPool(ds);
    const query = pool.query;
    pool.query = ((config: { text?: string } | string, ...rest: unknown[]) => {
      pooled.push(typeof config === 'string' ? config : (config.text ?? ''));
      return (query as (...args: unknown[]) => unknown).call(pool, config, ...rest);
    }) as typeof pool.query;
    let results: ServiceUpsertResult[];
    try {
      results = await contacts.upsertManyFor(
        project,
        Array.from({ length: 20 }, (_, i) =>
          send(i % 2 === 0 ? `r${i}@x.test` : 'known@x.test', { data: { [`f${i}`]: i } }),
        ),
      );
    } finally {
      ds.createQueryRunner = create;
      pool.query = query;
    }
    expect(transactions).toEqual([]);
    expect(pooled).toHaveLength(2);
    // what it answers and publishes is what the locking path would: the rows as stored, the events in order
    const lastOfEach = results.filter(
      (r, i) => !results.slice(i + 1).some((later) => later.contact.id === r.contact.id),
    );
    expect(lastOfEach.map((r) => r.contact)).toEqual(
      await Promise.all(lastOfEach.map((r) => contacts.get(project, r.contact.id))),
    );
    expect(lastOfEach).toHaveLength(11);
    expect((await published(project)).length - setup).toBe(20);
  });
});

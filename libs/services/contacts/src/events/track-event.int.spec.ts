import { DomainError } from '@herald/core';
import {
  createServiceDataSource,
  IDEMPOTENCY_KEY_IN_USE,
  IDEMPOTENCY_KEY_REUSED,
  migrateServiceSchema,
} from '@herald/persistence';
import { Outbox } from '@herald/messaging';
import { createTestDatabase, eventually, type TestDatabase } from '@herald/testing';
import type { DataSource, QueryRunner } from 'typeorm';
import { ContactWriter } from '../contacts/contact-writer.js';
import { contactsSchema } from '../contacts.module.js';
import { CONTACTS } from '../consumer.js';
import { FieldRegistry } from '../fields/field-registry.js';
import type { TrackEventDto } from './track-event.dto.js';
import { TrackEventUseCase, type TrackEventResult } from './track-event.use-case.js';
import { trackMetrics } from './track-metrics.js';
import { TrackedEventsStore } from './tracked-events.store.js';

/**
 * /v1/track writes a batch optimistically: contacts read without locks, then one guarded
 * statement. These tests make another writer change the contacts between the read and the write
 * (it holds its row locks until the track's statement is waiting on them, then commits), and check
 * that the track is written again from the rows as they now are.
 */
describe('TrackEventUseCase against concurrent writers (PostgreSQL)', () => {
  let db: TestDatabase;
  let ds: DataSource;
  let track: TrackEventUseCase;
  let other: QueryRunner;
  const project = 'prj_track_int';

  beforeAll(async () => {
    db = await createTestDatabase();
    ds = await createServiceDataSource(contactsSchema, db.url, 4).initialize();
    await migrateServiceSchema(ds);
    const outbox = new Outbox(CONTACTS, ds);
    track = new TrackEventUseCase(
      ds,
      outbox,
      new ContactWriter(outbox, new FieldRegistry(ds)),
      new TrackedEventsStore(),
    );
  });
  beforeEach(async () => {
    other = ds.createQueryRunner();
    await other.connect();
  });
  afterEach(async () => {
    if (other.isTransactionActive) await other.rollbackTransaction();
    await other.release();
  });
  afterAll(async () => {
    await ds.destroy();
    await db.drop();
  });

  const contact = async (email: string) =>
    (await ds.query(`SELECT id, subscribed, data FROM contacts.contacts WHERE project_id = $1 AND email = $2`, [
      project,
      email,
    ])) as { id: string; subscribed: boolean; data: Record<string, unknown> }[];
  const events = async (contactId: string) =>
    (await ds.query(`SELECT name FROM contacts.tracked_events WHERE contact_id = $1 ORDER BY created_at`, [
      contactId,
    ])) as { name: string }[];
  const outboxed = async (topic: string, email: string) =>
    (
      (await ds.query(
        `SELECT envelope FROM contacts.outbox WHERE topic = $1 AND envelope->'payload'->>'email' = $2 ORDER BY id`,
        [topic, email],
      )) as { envelope: { payload: Record<string, unknown> } }[]
    ).map((r) => r.envelope.payload);
  const batches = async (path: string) =>
    (await trackMetrics.batches.get()).values.find((v) => v.labels.path === path)?.value ?? 0;
  /** Resolves once a statement of this database waits for a lock (the track's write, behind `other`'s). */
  const trackIsWaiting = () =>
    eventually(
      async () =>
        (
          (await ds.query(
            `SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1 AND wait_event_type = 'Lock'`,
            [db.name],
          )) as { n: number }[]
        )[0]!.n > 0,
      {
        timeoutMs: 10_000,
        intervalMs: 20,
        message: 'the track never waited for the other writer',
      },
    );

  /**
   * Runs `sql` in another transaction, starts the track, lets the other writer commit once the
   * track's statement waits for its locks (so the track read the rows before), and answers the
   * track's result with how many batches each write path took meanwhile.
   */
  const afterAnotherWriter = async <T>(sql: string, params: unknown[], run: () => Promise<T>) => {
    const paths = ['single_statement', 'locked', 'one_by_one'] as const;
    const before = await Promise.all(paths.map(batches));
    await other.startTransaction();
    await other.query(sql, params);
    const pending = run();
    await trackIsWaiting();
    await other.commitTransaction();
    const result = await pending;
    const after = await Promise.all(paths.map(batches));
    return { result, taken: Object.fromEntries(paths.map((path, i) => [path, after[i]! - before[i]!])) };
  };
  /** One request that met the other writer: its guarded write failed, and it was written alone with locks. */
  const retriedAlone = { single_statement: 0, locked: 0, one_by_one: 1 };

  it('a contact changed after the track read it: the data patch is applied to the changed contact, nothing lost or doubled', async () => {
    await track.execute(project, { email: 'changed@example.com', event: 'signed-up', data: { plan: 'free' } });
    const { result, taken } = await afterAnotherWriter(
      `UPDATE contacts.contacts SET data = data || '{"seats": 3}' WHERE project_id = $1 AND email = $2`,
      [project, 'changed@example.com'],
      () => track.execute(project, { email: 'changed@example.com', event: 'upgraded', data: { plan: 'gold' } }),
    );
    expect(taken).toEqual(retriedAlone);

    const [row] = await contact('changed@example.com');
    expect(row!.data).toEqual({ plan: 'gold', seats: 3 });
    expect((await events(row!.id)).map((e) => e.name)).toEqual(['signed-up', 'upgraded']);
    expect(result.contact).toBe(row!.id);
    // the update event was computed from the contact as the other writer left it
    const updates = await outboxed('contact.updated', 'changed@example.com');
    expect(updates).toEqual([
      expect.objectContaining({ data: { plan: 'gold', seats: 3 }, changedKeys: ['data.plan'] }),
    ]);
    expect(await outboxed('event.tracked', 'changed@example.com')).toHaveLength(2);
  });

  it('a contact created by another writer after the track found none: one contact, the event on it, no contact.created from the track', async () => {
    const { result, taken } = await afterAnotherWriter(
      `INSERT INTO contacts.contacts (id, project_id, email, subscribed, data) VALUES ('cnt_other_writer', $1, $2, false, '{"source": "import"}')`,
      [project, 'created@example.com'],
      () => track.execute(project, { email: 'created@example.com', event: 'visited', data: { plan: 'gold' } }),
    );
    expect(taken).toEqual(retriedAlone);

    const rows = await contact('created@example.com');
    expect(rows).toEqual([{ id: 'cnt_other_writer', subscribed: false, data: { source: 'import', plan: 'gold' } }]);
    expect(result.contact).toBe('cnt_other_writer');
    expect((await events('cnt_other_writer')).map((e) => e.name)).toEqual(['visited']);
    expect(await outboxed('contact.created', 'created@example.com')).toEqual([]);
    expect(await outboxed('event.tracked', 'created@example.com')).toEqual([
      expect.objectContaining({ contactId: 'cnt_other_writer', name: 'visited' }),
    ]);
  });

  it('a contact deleted after the track read it (the track changes nothing on it): the contact is created again and the event is on the new one', async () => {
    const first = await track.execute(project, {
      email: 'deleted@example.com',
      event: 'signed-up',
      data: { plan: 'free' },
    });
    const { result, taken } = await afterAnotherWriter(
      `DELETE FROM contacts.contacts WHERE id = $1`,
      [first.contact],
      () => track.execute(project, { email: 'deleted@example.com', event: 'came-back', data: { plan: 'free' } }),
    );
    expect(taken).toEqual(retriedAlone);

    const rows = await contact('deleted@example.com');
    expect(rows).toHaveLength(1);
    expect(rows[0]!.id).not.toBe(first.contact);
    expect(result.contact).toBe(rows[0]!.id);
    expect(rows[0]!.data).toEqual({ plan: 'free' });
    expect((await events(rows[0]!.id)).map((e) => e.name)).toEqual(['came-back']);
  });

  it('a batch that met another writer is written again in a transaction that locks its contacts: every request once, each with its own answer', async () => {
    await track.execute(project, { email: 'batch-a@example.com', event: 'signed-up', data: { n: 1 } });
    const { result, taken } = await afterAnotherWriter(
      `UPDATE contacts.contacts SET subscribed = false WHERE project_id = $1 AND email = $2`,
      [project, 'batch-a@example.com'],
      () =>
        // submitted in the same turn: written as one batch
        Promise.all([
          track.execute(project, { email: 'batch-a@example.com', event: 'clicked', data: { n: 2 } }),
          track.execute(project, { email: 'batch-b@example.com', event: 'clicked', data: { n: 3 } }),
        ]),
    );
    expect(taken).toEqual({ single_statement: 0, locked: 1, one_by_one: 0 });
    const [a, b] = result;

    const [rowA] = await contact('batch-a@example.com');
    const [rowB] = await contact('batch-b@example.com');
    expect(rowA).toEqual({ id: a.contact, subscribed: false, data: { n: 2 } });
    expect(rowB).toEqual({ id: b.contact, subscribed: true, data: { n: 3 } });
    expect((await events(a.contact)).map((e) => e.name)).toEqual(['signed-up', 'clicked']);
    expect((await events(b.contact)).map((e) => e.name)).toEqual(['clicked']);
    expect(await outboxed('contact.created', 'batch-b@example.com')).toHaveLength(1);
  });

  it('without a concurrent writer a batch commits in one statement: the contact, the event and event.tracked, field types registered', async () => {
    const results = await Promise.all(
      ['one', 'two', 'three'].map((name, i) =>
        track.execute(project, {
          email: `quiet${i % 2}@example.com`,
          event: name,
          data: { [`k${i}`]: i, since: '2026-01-02' },
        }),
      ),
    );
    expect(new Set(results.map((r) => r.contact)).size).toBe(2);
    expect(await batches('single_statement')).toBeGreaterThan(0);
    const [q0] = await contact('quiet0@example.com');
    expect(q0!.data).toEqual({ k0: 0, k2: 2, since: '2026-01-02' });
    expect((await events(q0!.id)).map((e) => e.name).sort()).toEqual(['one', 'three']);
    const fields = (await ds.query(
      `SELECT path, type FROM contacts.contact_fields WHERE project_id = $1 AND path IN ('data.k0', 'data.k1', 'data.k2', 'data.since') ORDER BY path`,
      [project],
    )) as { path: string; type: string }[];
    expect(fields).toEqual([
      { path: 'data.k0', type: 'number' },
      { path: 'data.k1', type: 'number' },
      { path: 'data.k2', type: 'number' },
      { path: 'data.since', type: 'date' },
    ]);
  });

  /** With an Idempotency-Key (on contacts' own `idempotency_keys`): one event per key and body, however many requests race; per project. */
  describe('with an Idempotency-Key', () => {
    const dto = (email: string, data: Record<string, unknown> = {}) =>
      ({ email, event: 'paid', data }) as TrackEventDto;
    const recorded = async (project: string, email: string) =>
      (
        (await ds.query(
          `SELECT (SELECT count(*) FROM contacts.tracked_events e JOIN contacts.contacts c ON c.id = e.contact_id
                    WHERE c.project_id = $1 AND c.email = $2)::int AS events,
                  (SELECT count(*) FROM contacts.outbox WHERE topic = 'event.tracked' AND envelope->>'projectId' = $1
                    AND envelope->'payload'->>'email' = $2)::int AS published`,
          [project, email],
        )) as { events: number; published: number }[]
      )[0];
    /** The request's answer, or its refusal's code (a refusal before the batch is thrown synchronously). */
    const outcome = (request: () => Promise<TrackEventResult>) =>
      Promise.resolve()
        .then(request)
        .then(
          (value) => ({ ok: value }),
          (e: unknown) => ({ refused: e instanceof DomainError ? `${e.kind}:${e.code}` : String(e) }),
        );

    it('concurrent requests with one key and body record one event and publish one event.tracked; a retry afterwards gets the same answer', async () => {
      const all = await Promise.all(
        Array.from({ length: 12 }, () =>
          outcome(() => track.execute('prj_race', dto('race@x.test', { n: 1 }), undefined, 'k')),
        ),
      );
      const answers = all.flatMap((o) => ('ok' in o ? [o.ok] : []));
      // the claim is taken before the write: the rest are refused while it runs, or get its answer once done
      for (const o of all) if ('refused' in o) expect(o.refused).toBe(`conflict:${IDEMPOTENCY_KEY_IN_USE}`);
      expect(answers.length).toBeGreaterThanOrEqual(1);
      expect(new Set(answers.map((a) => JSON.stringify(a))).size).toBe(1);
      expect(await recorded('prj_race', 'race@x.test')).toEqual({ events: 1, published: 1 });
      expect(await track.execute('prj_race', dto('race@x.test', { n: 1 }), undefined, 'k')).toEqual(answers[0]);
      expect(await recorded('prj_race', 'race@x.test')).toEqual({ events: 1, published: 1 });
    });

    it('the same key with another body is 409 IDEMPOTENCY_KEY_REUSED and records nothing', async () => {
      await track.execute('prj_reuse', dto('reuse@x.test', { n: 1 }), undefined, 'k');
      expect(await outcome(() => track.execute('prj_reuse', dto('reuse@x.test', { n: 2 }), undefined, 'k'))).toEqual({
        refused: `conflict:${IDEMPOTENCY_KEY_REUSED}`,
      });
      expect(await recorded('prj_reuse', 'reuse@x.test')).toEqual({ events: 1, published: 1 });
    });

    it('keys are per project, and requests without a key are never deduplicated (the batched path)', async () => {
      const [a, b] = await Promise.all([
        track.execute('prj_one', dto('same@x.test'), undefined, 'shared'),
        track.execute('prj_two', dto('same@x.test'), undefined, 'shared'),
      ]);
      expect(a.contact).not.toBe(b.contact);
      await Promise.all([track.execute('prj_one', dto('same@x.test')), track.execute('prj_one', dto('same@x.test'))]);
      expect(await recorded('prj_one', 'same@x.test')).toEqual({ events: 3, published: 3 });
      expect(await recorded('prj_two', 'same@x.test')).toEqual({ events: 1, published: 1 });
    });

    it('a refused request (reserved event name) claims no key: the next request with the key runs', async () => {
      const reserved = { email: 'r@x.test', event: 'email.sent' } as TrackEventDto;
      expect(await outcome(() => track.execute('prj_refused', reserved, undefined, 'k'))).toEqual({
        refused: 'invalid:VALIDATION_ERROR',
      });
      expect(
        (await ds.query(`SELECT count(*)::int AS n FROM contacts.idempotency_keys WHERE project_id = 'prj_refused'`))[0]
          .n,
      ).toBe(0);
      await track.execute('prj_refused', dto('r@x.test'), undefined, 'k');
      expect(await recorded('prj_refused', 'r@x.test')).toEqual({ events: 1, published: 1 });
    });
  });
});

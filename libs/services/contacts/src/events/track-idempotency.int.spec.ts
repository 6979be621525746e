import { DomainError } from '@herald/core';
import { Outbox } from '@herald/messaging';
import {
  createServiceDataSource,
  IDEMPOTENCY_KEY_IN_USE,
  IDEMPOTENCY_KEY_REUSED,
  migrateServiceSchema,
} from '@herald/persistence';
import { createTestDatabase, type TestDatabase } from '@herald/testing';
import type { DataSource } from 'typeorm';
import { ContactWriter } from '../contacts/contact-writer.js';
import { contactsSchema } from '../contacts.module.js';
import { CONTACTS } from '../consumer.js';
import { FieldRegistry } from '../fields/field-registry.js';
import type { TrackEventDto } from './track-event.dto.js';
import { TrackEventUseCase, type TrackEventResult } from './track-event.use-case.js';
import { TrackedEventsStore } from './tracked-events.store.js';

/**
 * /v1/track with an Idempotency-Key on contacts' own schema (its `idempotency_keys` migration):
 * one event per key and body, however many requests race with it; the key is per project.
 */
describe('TrackEventUseCase with an Idempotency-Key (PostgreSQL)', () => {
  let db: TestDatabase;
  let ds: DataSource;
  let track: TrackEventUseCase;

  beforeAll(async () => {
    db = await createTestDatabase();
    ds = await createServiceDataSource(contactsSchema, db.url, 6).initialize();
    await migrateServiceSchema(ds);
    const outbox = new Outbox(CONTACTS, ds);
    track = new TrackEventUseCase(
      ds,
      outbox,
      new ContactWriter(outbox, new FieldRegistry(ds)),
      new TrackedEventsStore(),
    );
  });
  afterAll(async () => {
    await ds?.destroy();
    await db?.drop();
  });

  const dto = (email: string, data: Record<string, unknown> = {}) => ({ email, event: 'paid', data }) as TrackEventDto;
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

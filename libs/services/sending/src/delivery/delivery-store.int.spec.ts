import { createServiceDataSource, migrateServiceSchema } from '@herald/persistence';
import { createTestDatabase, type TestDatabase } from '@herald/testing';
import type { DataSource } from 'typeorm';
import { Email } from '../emails/email.entity.js';
import { sendingService } from '../sending.module.js';
import { DeliveryStore, suppressionKey, type OutcomeWrites } from './delivery-store.js';

/** An email's delivery state as stored, with its timestamps as seconds from the database's now. */
interface State {
  id: string;
  status: string;
  attempts: number;
  error: string | null;
  /** Seconds from now; null when unset. */
  lease: number | null;
  due: number | null;
  handoff: number | null;
  sent: number | null;
  bounced: number | null;
}

const LEASE_MS = 60_000;
const nothing: OutcomeWrites = {
  sent: { ids: [], details: [] },
  ended: [],
  retry: { ids: [], details: [], delaysMs: [] },
  suppress: [],
  delivered: [],
  complained: [],
};

/**
 * The delivery worker's SQL on PostgreSQL: what a claim takes and how it leases it, that hand-offs
 * and renewals touch only emails still being sent, what each outcome writes, and what recovery makes of
 * an expired lease (old Idempotency-Keys go with retention: idempotency-keys.store.int.spec.ts).
 */
describe('DeliveryStore (PostgreSQL)', () => {
  let db: TestDatabase;
  let ds: DataSource;
  let store: DeliveryStore;
  let n = 0;

  beforeAll(async () => {
    db = await createTestDatabase();
    ds = await createServiceDataSource(sendingService.schema, db.url, 6).initialize();
    await migrateServiceSchema(ds);
    store = new DeliveryStore(ds);
  });
  afterAll(async () => {
    await ds?.destroy();
    await db?.drop();
  });
  beforeEach(async () => {
    await ds.query(`DELETE FROM sending.emails`);
    await ds.query(`DELETE FROM sending.suppressions`);
  });

  /** Stores an email (queued and due, normal lane, unless told otherwise); `sql` sets columns by SQL expression. */
  const email = async (fields: Partial<Email> = {}, sql: Record<string, string> = {}): Promise<string> => {
    const id = `eml_store_${++n}`;
    await ds.getRepository(Email).insert({
      id,
      projectId: 'prj_store',
      contactId: `cnt_${n}`,
      toEmail: `r${n}@example.com`,
      fromEmail: 'news@store.example.test',
      subject: `Email ${n}`,
      html: '<p>hi</p>',
      text: 'hi',
      type: 'transactional',
      status: 'queued',
      messageId: `msg-${n}@store.example.test`,
      priority: 0,
      ...fields,
    });
    for (const [column, expression] of Object.entries(sql))
      await ds.query(`UPDATE sending.emails SET ${column} = ${expression} WHERE id = $1`, [id]);
    return id;
  };

  const seconds = (column: string) => `EXTRACT(EPOCH FROM ${column} - now())::float8`;
  const state = async (id: string): Promise<State> => {
    const [row] = await ds.query(
      `SELECT id, status, attempts, error, ${seconds('lease_until')} AS lease, ${seconds('next_attempt_at')} AS due,
              ${seconds('handoff_at')} AS handoff, ${seconds('sent_at')} AS sent, ${seconds('bounced_at')} AS bounced
         FROM sending.emails WHERE id = $1`,
      [id],
    );
    return row as State;
  };
  /** A time `s` seconds from the database's now, give or take the few seconds a test takes. */
  const near = (value: number | null, s: number) => {
    expect(value).not.toBeNull();
    expect(Math.abs(value! - s)).toBeLessThan(5);
  };

  it('a claim takes the due queued emails of its lane only, at most its limit, lowest priority first', async () => {
    const normal = [await email(), await email()];
    const bulk = [await email({ priority: 2 }), await email({ priority: 1 })];
    await email({}, { next_attempt_at: `now() + interval '1 hour'` }); // not due yet
    await email({ status: 'sending' });
    await email({ status: 'sent' });

    const claimedNormal = await store.claim('normal', 10, LEASE_MS);
    expect(claimedNormal.map((e) => e.id).sort()).toEqual(normal.sort());
    const first = await store.claim('bulk', 1, LEASE_MS);
    expect(first.map((e) => e.id)).toEqual([bulk[1]]);
    expect((await store.claim('bulk', 10, LEASE_MS)).map((e) => e.id)).toEqual([bulk[0]]);
    expect(await store.claim('bulk', 10, LEASE_MS)).toEqual([]);
    expect(await store.claim('normal', 10, LEASE_MS)).toEqual([]);
  });

  it('without a relay a claim takes the test-mode emails only (docs/test-mode.md); live mail stays queued', async () => {
    const live = await email();
    const test = await email({ testMode: true });
    const claimed = await store.claim('normal', 10, LEASE_MS, true);
    expect(claimed.map((e) => [e.id, e.testMode])).toEqual([[test, true]]);
    expect((await state(live)).status).toBe('queued');
    expect((await store.claim('normal', 10, LEASE_MS)).map((e) => [e.id, e.testMode])).toEqual([[live, false]]);
  });

  it('a claimed email is sending, leased for a whole lease, one attempt more, its old hand-off cleared; it comes back as an Email', async () => {
    const id = await email({ attempts: 2 }, { handoff_at: 'now()' });
    const [claimed] = await store.claim('normal', 10, LEASE_MS);
    expect(claimed).toBeInstanceOf(Email);
    expect(claimed).toMatchObject({ id, status: 'sending', attempts: 3, toEmail: `r${n}@example.com` });
    const s = await state(id);
    expect(s).toMatchObject({ status: 'sending', attempts: 3, handoff: null });
    near(s.lease, LEASE_MS / 1000);
  });

  it('concurrent claims never take the same email', async () => {
    const ids = await Promise.all(Array.from({ length: 30 }, () => email()));
    const claims = await Promise.all([1, 2, 3].map(() => store.claim('normal', 10, LEASE_MS)));
    const taken = claims.flat().map((e) => e.id);
    expect(new Set(taken).size).toBe(taken.length);
    const rest = await store.claim('normal', 30, LEASE_MS);
    expect([...taken, ...rest.map((e) => e.id)].sort()).toEqual(ids.sort());
  });

  it('a hand-off and a lease renewal are written only to emails still being sent', async () => {
    const sending = await email({ status: 'sending' }, { lease_until: `now() + interval '1 second'` });
    const requeued = await email({ status: 'queued' });
    await store.recordHandoffs([sending, requeued]);
    await store.renewLeases([sending, requeued], LEASE_MS);
    const [a, b] = [await state(sending), await state(requeued)];
    near(a.handoff, 0);
    near(a.lease, LEASE_MS / 1000);
    expect(b).toMatchObject({ handoff: null, lease: null });
  });

  it('sent outcomes end the lease and stamp sent_at; the error is kept only when the relay’s answer was lost', async () => {
    const ok = await email({ status: 'sending' }, { lease_until: 'now()' });
    const lost = await email({ status: 'sending', error: 'an old retry' }, { lease_until: 'now()' });
    const detail = "The relay's answer was lost after the hand-off; counted as sent, never resent: reset";
    await store.transaction((m) =>
      store.applyOutcomes(m, { ...nothing, sent: { ids: [ok, lost], details: ['250 ok', detail] } }),
    );
    const [a, b] = [await state(ok), await state(lost)];
    expect(a).toMatchObject({ status: 'sent', lease: null, error: null });
    expect(b).toMatchObject({ status: 'sent', lease: null, error: detail });
    near(a.sent, 0);
  });

  it('simulated deliveries (test mode) are sent then delivered in the same write; a simulated complaint also stamps complained_at', async () => {
    const delivered = await email({ status: 'sending', testMode: true }, { lease_until: 'now()' });
    const complained = await email({ status: 'sending', testMode: true }, { lease_until: 'now()' });
    await store.transaction((m) =>
      store.applyOutcomes(m, {
        ...nothing,
        sent: { ids: [delivered, complained], details: [null, null] },
        delivered: [delivered, complained],
        complained: [complained],
      }),
    );
    const rows: { id: string; status: string; sent: boolean; complained: boolean; lease: Date | null }[] =
      await ds.query(
        `SELECT id, status, sent_at IS NOT NULL AS sent, complained_at IS NOT NULL AS complained, lease_until AS lease
         FROM sending.emails WHERE id = ANY($1) ORDER BY id`,
        [[delivered, complained]],
      );
    expect(rows).toEqual([
      { id: delivered, status: 'delivered', sent: true, complained: false, lease: null },
      { id: complained, status: 'delivered', sent: true, complained: true, lease: null },
    ]);
  });

  it('ended outcomes keep their detail as the error; a bounce stamps bounced_at and suppresses the address in its project only', async () => {
    const failed = await email({ status: 'sending' }, { lease_until: 'now()' });
    const bounced = await email({ status: 'sending', toEmail: 'gone@example.com' }, { lease_until: 'now()' });
    const skipped = await email({ status: 'sending' }, { lease_until: 'now()' });
    await store.transaction((m) =>
      store.applyOutcomes(m, {
        ...nothing,
        ended: [
          { status: 'suppressed', ids: [skipped], details: ['on the list'] },
          { status: 'failed', ids: [failed], details: ['no longer verified'] },
          { status: 'bounced', ids: [bounced], details: ['550 no such user'] },
        ],
        suppress: [{ projectId: 'prj_store', email: 'gone@example.com', detail: '550 no such user' }],
      }),
    );
    expect(await state(failed)).toMatchObject({
      status: 'failed',
      error: 'no longer verified',
      lease: null,
      bounced: null,
    });
    expect(await state(skipped)).toMatchObject({ status: 'suppressed', error: 'on the list', lease: null });
    const b = await state(bounced);
    expect(b).toMatchObject({ status: 'bounced', error: '550 no such user', lease: null });
    near(b.bounced, 0);
    const asked = [
      { projectId: 'prj_store', toEmail: 'gone@example.com' },
      { projectId: 'prj_other', toEmail: 'gone@example.com' },
      { projectId: 'prj_store', toEmail: 'here@example.com' },
    ];
    expect([...(await store.suppressedOf(asked))]).toEqual([suppressionKey('prj_store', 'gone@example.com')]);
  });

  it('a suppression already on the list is kept as it was', async () => {
    const suppress = (detail: string) =>
      store.transaction((m) =>
        store.applyOutcomes(m, { ...nothing, suppress: [{ projectId: 'prj_store', email: 'x@example.com', detail }] }),
      );
    await suppress('first');
    await suppress('second');
    expect(await ds.query(`SELECT reason, detail FROM sending.suppressions`)).toEqual([
      { reason: 'bounce', detail: 'first' },
    ]);
  });

  it('a retry puts the email back in the queue, due after its delay, lease and hand-off cleared', async () => {
    const id = await email({ status: 'sending' }, { lease_until: 'now()', handoff_at: 'now()' });
    await store.transaction((m) =>
      store.applyOutcomes(m, { ...nothing, retry: { ids: [id], details: ['421 later'], delaysMs: [120_000] } }),
    );
    const s = await state(id);
    expect(s).toMatchObject({ status: 'queued', error: '421 later', lease: null, handoff: null });
    near(s.due, 120);
  });

  it('recovery: an expired lease goes back to the queue; with a recorded hand-off it counts as sent at that time; a live lease stays', async () => {
    const requeued = await email(
      { status: 'sending', error: 'a retry' },
      { lease_until: `now() - interval '1 second'` },
    );
    const handedOff = await email(
      { status: 'sending' },
      { lease_until: `now() - interval '1 second'`, handoff_at: `now() - interval '30 seconds'` },
    );
    const live = await email({ status: 'sending' }, { lease_until: `now() + interval '1 minute'` });
    const result = await store.transaction((m) => store.recoverExpired(m));
    expect(result.requeued).toBe(1);
    expect(result.sent.map((e) => [e.id, e.messageId])).toEqual([[handedOff, `msg-${n - 1}@store.example.test`]]);
    expect(await state(requeued)).toMatchObject({ status: 'queued', error: 'a retry', lease: null, sent: null });
    const h = await state(handedOff);
    expect(h).toMatchObject({
      status: 'sent',
      lease: null,
      error:
        'Recovered after a worker stopped mid-delivery; the hand-off was recorded, so it counts as sent and is never resent',
    });
    expect(h.sent).toBeCloseTo(h.handoff!, 3);
    near(h.sent, -30);
    expect(await state(live)).toMatchObject({ status: 'sending' });
    expect(await store.transaction((m) => store.recoverExpired(m))).toEqual({ requeued: 0, sent: [] });
  });
});

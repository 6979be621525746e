import { createServiceDataSource, migrateServiceSchema } from '@herald/persistence';
import { createTestDatabase, eventually, type TestDatabase } from '@herald/testing';
import type { DataSource, EntityManager } from 'typeorm';
import { Email } from '../emails/email.entity.js';
import { sendingService } from '../sending.module.js';
import { NotificationStore } from './notification-store.js';

/**
 * What relay notifications write, on PostgreSQL: a notice id is claimed once, a notice matches emails
 * by id or Message-ID to its recipients only (locked), a delivery moves only a sent email, a bounce
 * and a complaint are stamped, and an address is suppressed once.
 */
describe('NotificationStore (PostgreSQL)', () => {
  let db: TestDatabase;
  let ds: DataSource;
  let m: EntityManager;
  const store = new NotificationStore();
  let n = 0;

  beforeAll(async () => {
    db = await createTestDatabase();
    ds = await createServiceDataSource(sendingService.schema, db.url, 4).initialize();
    await migrateServiceSchema(ds);
    m = ds.manager;
  });
  afterAll(async () => {
    await ds?.destroy();
    await db?.drop();
  });

  const email = async (fields: Partial<Email> = {}): Promise<string> => {
    const id = `eml_${++n}`;
    await ds.getRepository(Email).insert({
      id,
      projectId: 'prj_n',
      contactId: `cnt_${n}`,
      toEmail: `r${n}@example.com`,
      fromEmail: 'news@brand.test',
      subject: `Email ${n}`,
      html: '<p>hi</p>',
      text: 'hi',
      type: 'transactional',
      status: 'sent',
      messageId: `${id}@brand.test`,
      ...fields,
    });
    return id;
  };
  const stored = async (id: string) =>
    (
      await ds.query(
        `SELECT status, error, bounced_at IS NOT NULL AS bounced, complained_at IS NOT NULL AS complained FROM sending.emails WHERE id = $1`,
        [id],
      )
    )[0];

  it('a notice id is claimed once', async () => {
    expect(await store.claimNotice(m, 'ses:n-1')).toBe(true);
    expect(await store.claimNotice(m, 'ses:n-1')).toBe(false);
    expect(await store.claimNotice(m, 'generic:n-1')).toBe(true);
  });

  it('a notice matches emails by Herald id or Message-ID, sent to one of its recipients, and holds them locked', async () => {
    const byId = await email({ toEmail: 'a@example.com' });
    const byMessage = await email({ toEmail: 'b@example.com', messageId: 'shared@brand.test' });
    await email({ toEmail: 'other@example.com', messageId: 'shared@brand.test' });
    const matched = await store.lockMatching(m, byId, 'shared@brand.test', ['a@example.com', 'b@example.com']);
    expect(matched.map((e) => e.id).sort()).toEqual([byId, byMessage].sort());
    expect(matched[0]).toMatchObject({ projectId: 'prj_n', status: 'sent' });
    expect(await store.lockMatching(m, '', 'nothing@brand.test', ['a@example.com'])).toEqual([]);

    // the lock: a second transaction matching the same email waits until the first ends
    const order: string[] = [];
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    let locked!: () => void;
    const lockTaken = new Promise<void>((r) => (locked = r));
    const first = ds.transaction(async (tx) => {
      await store.lockMatching(tx, byId, '', ['a@example.com']);
      locked();
      await held;
      order.push('first ends');
    });
    await lockTaken;
    const second = ds.transaction(async (tx) => {
      await store.lockMatching(tx, byId, '', ['a@example.com']);
      order.push('second locks');
    });
    const waiting = async () =>
      (
        await ds.query(
          `SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`,
        )
      )[0].n as number;
    await eventually(async () => (await waiting()) > 0, {
      timeoutMs: 10_000,
      intervalMs: 20,
      message: 'the second transaction never waited on the lock of the first',
    });
    expect(order).toEqual([]);
    release();
    await Promise.all([first, second]);
    expect(order).toEqual(['first ends', 'second locks']);
  });

  it('a delivery moves a sent email only; a bounce and a complaint are stamped', async () => {
    const sent = await email();
    const bounced = await email({ status: 'bounced' });
    await store.markDelivered(m, sent);
    await store.markDelivered(m, bounced);
    expect([(await stored(sent)).status, (await stored(bounced)).status]).toEqual(['delivered', 'bounced']);
    const late = await email({ status: 'delivered' });
    await store.markBounced(m, late, 'Mailbox gone');
    expect(await stored(late)).toEqual({ status: 'bounced', error: 'Mailbox gone', bounced: true, complained: false });
    await store.markComplained(m, sent);
    expect(await stored(sent)).toMatchObject({ status: 'delivered', complained: true });
  });

  it('an address is suppressed once per project: the first reason stays', async () => {
    await store.suppress(m, 'prj_n', 'x@example.com', 'bounce', 'Mailbox gone');
    await store.suppress(m, 'prj_n', 'x@example.com', 'complaint', null);
    await store.suppress(m, 'prj_other', 'x@example.com', 'complaint', null);
    expect(
      await ds.query(
        `SELECT project_id, reason, detail FROM sending.suppressions WHERE email = 'x@example.com' ORDER BY 1`,
      ),
    ).toEqual([
      { project_id: 'prj_n', reason: 'bounce', detail: 'Mailbox gone' },
      { project_id: 'prj_other', reason: 'complaint', detail: null },
    ]);
  });
});

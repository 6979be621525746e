import { createServiceDataSource, migrateServiceSchema } from '@herald/persistence';
import { createTestDatabase, type TestDatabase } from '@herald/testing';
import type { DataSource, EntityManager } from 'typeorm';
import { sendingService } from '../sending.module.js';
import { Email } from './email.entity.js';
import { EmailsStore, type EmailEventRow } from './emails.store.js';

/**
 * The emails' reads and history on PostgreSQL: an email's view columns and history for its project
 * only, pages newest first with their filters, an event recorded once, the recipient and campaign a
 * link asks for, and a first open or click stamped once.
 */
describe('EmailsStore (PostgreSQL)', () => {
  let db: TestDatabase;
  let ds: DataSource;
  let m: EntityManager;
  const store = new EmailsStore();
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

  /** Stores an email of `projectId` (sent to `r<n>@example.com`), created `secondsAgo` before now. */
  const email = async (projectId: string, fields: Partial<Email> = {}, secondsAgo = 0): Promise<string> => {
    const id = `eml_${++n}`;
    await ds.getRepository(Email).insert({
      id,
      projectId,
      contactId: `cnt_${n}`,
      toEmail: `r${n}@example.com`,
      fromEmail: 'news@brand.test',
      subject: `Email ${n}`,
      html: '<p>secret content</p>',
      text: 'secret content',
      type: 'transactional',
      status: 'queued',
      messageId: `${id}@brand.test`,
      ...fields,
    });
    await ds.query(`UPDATE sending.emails SET created_at = now() - make_interval(secs => $2) WHERE id = $1`, [
      id,
      secondsAgo,
    ]);
    return id;
  };
  const event = (emailId: string, eventId: string, type: string, at: string, data = {}): EmailEventRow => ({
    eventId,
    projectId: 'prj_view',
    emailId,
    type,
    occurredAt: at,
    data,
  });

  it('one email: its view columns (never its content), for its project only', async () => {
    const id = await email('prj_view', { campaignId: 'cmp_1', status: 'sent' });
    const row = await store.one(m, 'prj_view', id);
    expect(row).toMatchObject({ id, project_id: 'prj_view', to_email: `r${n}@example.com`, status: 'sent' });
    expect(row).not.toHaveProperty('html');
    expect(row).not.toHaveProperty('text');
    expect(await store.one(m, 'prj_other', id)).toBeUndefined();
    expect(await store.one(m, 'prj_view', 'eml_none')).toBeUndefined();
  });

  it('history: each event recorded once (a repeat changes nothing), oldest first, ties by event id, the project’s only', async () => {
    const id = await email('prj_view');
    await store.recordEvents(m, [
      event(id, 'evt_b', 'opened', '2026-06-01T10:00:05.000Z'),
      event(id, 'evt_a', 'sent', '2026-06-01T10:00:00.000Z', { messageId: `${id}@brand.test` }),
      event(id, 'evt_c', 'clicked', '2026-06-01T10:00:05.000Z', { url: 'https://brand.test' }),
    ]);
    await store.recordEvents(m, [event(id, 'evt_a', 'failed', '2026-06-01T11:00:00.000Z', { reason: 'x' })]);
    const history = await store.history(m, 'prj_view', id);
    expect(history.map((e) => [e.eventId, e.type, e.occurredAt.toISOString(), e.data])).toEqual([
      ['evt_a', 'sent', '2026-06-01T10:00:00.000Z', { messageId: `${id}@brand.test` }],
      ['evt_b', 'opened', '2026-06-01T10:00:05.000Z', {}],
      ['evt_c', 'clicked', '2026-06-01T10:00:05.000Z', { url: 'https://brand.test' }],
    ]);
    expect(await store.history(m, 'prj_other', id)).toEqual([]);
  });

  it('a page: newest first, of one contact or some statuses when asked, then the rest after the cursor', async () => {
    const p = 'prj_page';
    const oldest = await email(p, { status: 'sent' }, 30);
    const middle = await email(p, { status: 'suppressed', contactId: 'cnt_x' }, 20);
    const newest = await email(p, { status: 'skipped', contactId: 'cnt_x' }, 10);
    await email('prj_elsewhere');
    const ids = (page: { data: Record<string, unknown>[] }) => page.data.map((r) => r.id);
    const first = await store.page(ds, p, { limit: 2 }, {});
    expect(ids(first)).toEqual([newest, middle]);
    expect(first).toMatchObject({ hasMore: true, total: 3 });
    expect(ids(await store.page(ds, p, { limit: 2, cursor: first.cursor! }, {}))).toEqual([oldest]);
    expect(ids(await store.page(ds, p, { limit: 20 }, { contactId: 'cnt_x' }))).toEqual([newest, middle]);
    expect(ids(await store.page(ds, p, { limit: 20 }, { statuses: ['sent', 'suppressed'] }))).toEqual([middle, oldest]);
    expect(ids(await store.page(ds, p, { limit: 20 }, { contactId: 'cnt_x', statuses: ['skipped'] }))).toEqual([
      newest,
    ]);
  });

  it('what a link asks: the address an email went to and its campaign, for its project only', async () => {
    const id = await email('prj_link', { campaignId: 'cmp_1' });
    const plain = await email('prj_link');
    expect(await store.recipient(m, 'prj_link', id)).toBe(`r${n - 1}@example.com`);
    expect(await store.recipient(m, 'prj_other', id)).toBeNull();
    expect(await store.campaignOf(m, 'prj_link', id)).toBe('cmp_1');
    expect(await store.campaignOf(m, 'prj_link', plain)).toBeNull();
    expect(await store.campaignOf(m, 'prj_other', id)).toBeUndefined();
  });

  it('a first open or click is stamped once: the second answers nothing and keeps the first time', async () => {
    const id = await email('prj_track', { campaignId: 'cmp_2', status: 'sent' });
    const first = await store.stampFirst(m, id, 'opened_at');
    expect(first).toMatchObject({ id, projectId: 'prj_track', campaignId: 'cmp_2', status: 'sent' });
    const [{ opened_at }] = await ds.query(`SELECT opened_at FROM sending.emails WHERE id = $1`, [id]);
    expect(await store.stampFirst(m, id, 'opened_at')).toBeUndefined();
    expect(await ds.query(`SELECT opened_at, clicked_at FROM sending.emails WHERE id = $1`, [id])).toEqual([
      { opened_at, clicked_at: null },
    ]);
    expect(await store.stampFirst(m, id, 'clicked_at')).toMatchObject({ id });
    expect(await store.stampFirst(m, 'eml_none', 'clicked_at')).toBeUndefined();
  });
});

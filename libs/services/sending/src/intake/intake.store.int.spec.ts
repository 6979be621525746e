import { PgNotifications, createServiceDataSource, migrateServiceSchema } from '@herald/persistence';
import { createTestDatabase, eventually, type TestDatabase } from '@herald/testing';
import type { DataSource, EntityManager } from 'typeorm';
import { Email } from '../emails/email.entity.js';
import { sendingService } from '../sending.module.js';
import { IntakeStore } from './intake.store.js';

/**
 * The intake's SQL on PostgreSQL: emails found by their keys in their project only, the suppressed
 * addresses among some, an insert that leaves taken keys to their first email (more than one
 * statement's worth of rows), and a wake-up of a channel's listeners.
 */
describe('IntakeStore (PostgreSQL)', () => {
  let db: TestDatabase;
  let ds: DataSource;
  let m: EntityManager;
  const store = new IntakeStore();

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

  const row = (projectId: string, key: string, fields: Partial<Email> = {}): Email =>
    ds.getRepository(Email).create({
      id: `eml_${projectId}_${key}`,
      projectId,
      contactId: '',
      toEmail: `${key}@example.com`,
      fromEmail: 'news@brand.test',
      subject: 'Hi',
      html: '<p>hi</p>',
      text: 'hi',
      type: 'marketing',
      origin: 'campaign',
      status: 'queued',
      sourceKey: key,
      messageId: `${key}@brand.test`,
      ...fields,
    });

  it('inserts new keys, more than one statement’s worth, and leaves a taken key to its first email', async () => {
    const first = await store.insertNew(m, [row('prj_i', 'k_taken', { status: 'skipped', error: 'Unsubscribed' })]);
    expect([...first]).toEqual(['k_taken']);
    const rows = Array.from({ length: 150 }, (_, i) => row('prj_i', `k_${String(i).padStart(3, '0')}`));
    const again = row('prj_i', 'k_taken', { id: 'eml_second' });
    const inserted = await store.insertNew(m, [...rows.slice(0, 120), again, ...rows.slice(120)]);
    expect(inserted.size).toBe(150);
    expect(inserted.has('k_taken')).toBe(false);
    const [{ n }] = await ds.query(`SELECT count(*)::int AS n FROM sending.emails WHERE project_id = 'prj_i'`);
    expect(n).toBe(151);
    // the same key in another project is another email
    expect([...(await store.insertNew(m, [row('prj_j', 'k_taken')]))]).toEqual(['k_taken']);
  });

  it('finds the stored emails by key, in their project only', async () => {
    const found = await store.stored(m, 'prj_i', ['k_taken', 'k_000', 'k_000', 'k_unknown']);
    expect([...found]).toEqual(
      expect.arrayContaining([
        ['k_taken', { id: 'eml_prj_i_k_taken', status: 'skipped', error: 'Unsubscribed' }],
        ['k_000', { id: 'eml_prj_i_k_000', status: 'queued', error: null }],
      ]),
    );
    expect(found.size).toBe(2);
    expect(await store.stored(m, 'prj_i', [])).toEqual(new Map());
    expect((await store.stored(m, 'prj_j', ['k_000'])).size).toBe(0);
  });

  it('answers which addresses are suppressed in the project', async () => {
    await ds.query(
      `INSERT INTO sending.suppressions (project_id, email, reason) VALUES ('prj_i', 'gone@x.test', 'bounce'), ('prj_j', 'other@x.test', 'bounce')`,
    );
    expect(await store.suppressed(m, 'prj_i', ['gone@x.test', 'other@x.test', 'fine@x.test'])).toEqual(
      new Set(['gone@x.test']),
    );
    expect(await store.suppressed(m, 'prj_i', [])).toEqual(new Set());
  });

  it('a wake-up reaches the listeners of its channel', async () => {
    const heard: string[] = [];
    const unlisten = await PgNotifications.for(db.url).listen('herald_test_intake', () => void heard.push('woken'));
    try {
      await ds.transaction((tx) => store.notify(tx, 'herald_test_intake'));
      await eventually(() => heard.length > 0, {
        timeoutMs: 5000,
        intervalMs: 20,
        message: 'the wake-up was never heard',
      });
      expect(heard).toEqual(['woken']);
    } finally {
      await unlisten();
    }
  });
});

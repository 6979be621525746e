import { createServiceDataSource, migrateServiceSchema } from '@herald/persistence';
import { createTestDatabase, eventually, type TestDatabase } from '@herald/testing';
import pg from 'pg';
import type { DataSource } from 'typeorm';
import { Email } from '../emails/email.entity.js';
import { sendingService } from '../sending.module.js';
import { EMAILS_CHANNEL, INSERT_MAX_CHARS, LIVE_MAIL_ONLY, SendStore, type NewEmail } from './send.store.js';

/**
 * /v1/send's SQL on PostgreSQL: the suppressed addresses of a project, and a batch's emails inserted
 * in one statement, all or none, stored as the entity's insert stores them, waking the delivery
 * worker only when one is queued.
 */
describe('SendStore (PostgreSQL)', () => {
  let db: TestDatabase;
  let ds: DataSource;
  let listener: pg.Client;
  /** Payloads heard on EMAILS_CHANNEL, in order. */
  const heard: string[] = [];
  const store = new SendStore();
  let n = 0;

  beforeAll(async () => {
    db = await createTestDatabase();
    ds = await createServiceDataSource(sendingService.schema, db.url, 4).initialize();
    await migrateServiceSchema(ds);
    listener = new pg.Client({ connectionString: db.url });
    await listener.connect();
    listener.on('notification', (msg) => heard.push(msg.payload ?? ''));
    await listener.query(`LISTEN ${EMAILS_CHANNEL}`);
  });
  afterAll(async () => {
    await listener?.end();
    await ds?.destroy();
    await db?.drop();
  });

  const email = (projectId: string, fields: Partial<NewEmail> = {}): NewEmail => {
    const id = `eml_store_${++n}`;
    return {
      id,
      projectId,
      contactId: `cnt_${n}`,
      toEmail: `r${n}@x.test`,
      toName: n % 2 ? 'Reader' : null,
      fromEmail: 'hello@brand.test',
      fromName: 'Brand',
      replyTo: null,
      subject: 'Hi "there" \\ ünïcødé',
      html: '<p>Hi {{ "quoted" }}</p>',
      text: 'Hi',
      headers: { 'X-Tag': 'a"b' },
      attachments: [{ filename: 'a.txt', content: 'aGk=', contentType: 'text/plain' }],
      templateId: null,
      type: 'transactional',
      origin: 'api',
      priority: 0,
      status: 'queued',
      error: null,
      messageId: `${id}@brand.test`,
      testMode: false,
      ...fields,
    };
  };
  /** Every notification heard up to a marker sent after `work`: what `work` caused. */
  const notifiedBy = async (work: () => Promise<unknown>): Promise<string[]> => {
    heard.length = 0;
    await work();
    const marker = `marker-${++n}`;
    await ds.query(`SELECT pg_notify($1, $2)`, [EMAILS_CHANNEL, marker]);
    await eventually(() => heard.includes(marker), { intervalMs: 10, message: 'the marker was not heard' });
    return heard.slice(0, heard.indexOf(marker));
  };
  const stored = (projectId: string) =>
    ds.query(`SELECT * FROM sending.emails WHERE project_id = $1 ORDER BY id`, [projectId]) as Promise<
      Record<string, unknown>[]
    >;

  it('answers the suppressed addresses among those asked, of the project only', async () => {
    await ds.query(
      `INSERT INTO sending.suppressions (project_id, email, reason) VALUES ('prj_s', 'gone@x.test', 'bounce'), ('prj_other', 'kept@x.test', 'complaint')`,
    );
    expect(await store.suppressed(ds, 'prj_s', ['gone@x.test', 'kept@x.test', 'new@x.test'])).toEqual(
      new Set(['gone@x.test']),
    );
  });

  it('inserts a batch of emails in one statement with one wake-up of the delivery worker', async () => {
    const emails = [email('prj_batch'), email('prj_batch', { status: 'suppressed', error: 'suppressed' })];
    expect(await notifiedBy(() => store.insertEmails(ds, emails))).toEqual([LIVE_MAIL_ONLY]);
    const rows = await stored('prj_batch');
    expect(rows.map((r) => [r.id, r.status])).toEqual(emails.map((e) => [e.id, e.status]));
    expect(new Set(rows.map((r) => (r.created_at as Date).getTime())).size).toBe(1);
  });

  it('does not wake the delivery worker when no email of the batch is queued', async () => {
    const emails = [email('prj_quiet', { status: 'skipped', error: 'unsubscribed' })];
    expect(await notifiedBy(() => store.insertEmails(ds, emails))).toEqual([]);
    expect(await stored('prj_quiet')).toHaveLength(1);
  });

  it('stores each column as the entity insert of a request too large for one statement stores it', async () => {
    const big = 'x'.repeat(INSERT_MAX_CHARS);
    const viaStatement = email('prj_same');
    const viaEntity = email('prj_same', { attachments: [{ filename: 'big.bin', content: big }] });
    await store.insertEmails(ds, [viaStatement]);
    await store.insertEmails(ds, [viaEntity]); // past INSERT_MAX_CHARS: TypeORM, in a transaction
    const [a, b] = await stored('prj_same');
    // what differs from email to email, or with the clock
    const own = [
      'id',
      'message_id',
      'contact_id',
      'to_email',
      'to_name',
      'attachments',
      'created_at',
      'next_attempt_at',
    ];
    const shared = (r: Record<string, unknown>) =>
      Object.fromEntries(Object.entries(r).filter(([k]) => !own.includes(k)));
    expect(shared(a!)).toEqual(shared(b!));
    expect(a).toMatchObject({
      subject: viaStatement.subject,
      html: viaStatement.html,
      attempts: 0,
      test: false,
      source_key: null,
      lease_until: null,
      headers: { 'X-Tag': 'a"b' },
    });
    expect(a!.attachments).toEqual(viaStatement.attachments);
    expect((b!.attachments as { content: string }[])[0]!.content).toHaveLength(INSERT_MAX_CHARS);
  });

  it('writes none of the emails of a batch when one cannot be stored', async () => {
    const emails = [email('prj_none'), email('prj_none', { contactId: `cnt_${'x'.repeat(60)}` })];
    await expect(store.insertEmails(ds, emails)).rejects.toThrow();
    expect(await stored('prj_none')).toEqual([]);
    expect(await ds.getRepository(Email).countBy({ projectId: 'prj_none' })).toBe(0);
  });

  it('says when the queued emails are all live, which a worker without a relay (test-mode mail only) can ignore', async () => {
    const live = [email('prj_wake'), email('prj_wake', { status: 'suppressed', error: 'suppressed', testMode: true })];
    expect(await notifiedBy(() => store.insertEmails(ds, live))).toEqual([LIVE_MAIL_ONLY]);
    const mixed = [email('prj_wake'), email('prj_wake', { testMode: true })];
    expect(await notifiedBy(() => store.insertEmails(ds, mixed))).toEqual(['']);
  });

  it('stores whether each email is of test mode (docs/test-mode.md)', async () => {
    const emails = [email('prj_mode'), email('prj_mode', { testMode: true })];
    await notifiedBy(() => store.insertEmails(ds, emails));
    expect((await stored('prj_mode')).map((r) => [r.id, r.test_mode])).toEqual([
      [emails[0]!.id, false],
      [emails[1]!.id, true],
    ]);
  });
});

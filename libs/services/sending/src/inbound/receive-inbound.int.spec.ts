import { Outbox } from '@herald/messaging';
import { createServiceDataSource, migrateServiceSchema } from '@herald/persistence';
import { createTestDatabase, type TestDatabase } from '@herald/testing';
import type { DataSource } from 'typeorm';
import { SENDING } from '../consumer.js';
import type { ContactsClient, RemoteContact } from '../send/contacts-client.js';
import { sendingService } from '../sending.module.js';
import { InboundSettings } from './inbound.settings.js';
import { InboundStore } from './inbound.store.js';
import { ReceiveInboundUseCase } from './receive-inbound.use-case.js';

/** A message as a sending server hands it over (CRLF line ends). */
const message = (headers: Record<string, string>, body = 'Hello there'): Buffer =>
  Buffer.from(
    [
      ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`),
      'Content-Type: text/plain; charset=utf-8',
      '',
      body,
      '',
    ].join('\r\n'),
  );

/**
 * Inbound mail on PostgreSQL: the projects a recipient's domain reaches (verified domains only),
 * each message stored per project with `email.received` in its outbox, linked to the sender's
 * existing contact and to the project's email it answers, kept once per Message-ID, and listed
 * newest first per project and contact.
 */
describe('inbound mail store (PostgreSQL)', () => {
  let db: TestDatabase;
  let ds: DataSource;
  let inbound: ReceiveInboundUseCase;
  const store = new InboundStore();
  /** The contacts service's contacts by project and address. */
  const directory = new Map<string, RemoteContact>();
  let contactsDown = false;

  beforeAll(async () => {
    db = await createTestDatabase();
    ds = await createServiceDataSource(sendingService.schema, db.url, 4).initialize();
    await migrateServiceSchema(ds);
    const contacts = {
      findByEmails: async (projectId: string, emails: string[]) => {
        if (contactsDown) throw new Error('contacts unavailable');
        return emails.map((e) => directory.get(`${projectId}/${e}`)).filter((c): c is RemoteContact => !!c);
      },
    } as unknown as ContactsClient;
    const settings = Object.assign(new InboundSettings(), { INBOUND_MAX_ATTACHMENT_BYTES: 1000 });
    inbound = new ReceiveInboundUseCase(ds, new Outbox(SENDING, ds), settings, store, contacts);
    await ds.query(
      `INSERT INTO sending.sender_domains (domain_id, project_id, domain, verified, event_at) VALUES
        ('dom_a', 'prj_a', 'brand.test', true, now()), ('dom_b', 'prj_b', 'brand.test', true, now()),
        ('dom_c', 'prj_a', 'pending.test', false, now()), ('dom_d', 'prj_c', 'solo.test', true, now())`,
    );
    directory.set('prj_a/ada@example.com', {
      id: 'cnt_ada',
      email: 'ada@example.com',
      subscribed: true,
      data: {},
      createdAt: '',
      updatedAt: '',
    });
  });
  afterAll(async () => {
    await ds?.destroy();
    await db?.drop();
  });

  const outboxOf = async (projectId: string) =>
    (await ds.query(
      `SELECT envelope FROM sending.outbox WHERE topic = 'email.received' AND envelope->>'projectId' = $1 ORDER BY id`,
      [projectId],
    )) as { envelope: { payload: Record<string, unknown> } }[];

  it('reaches every project where the recipient domain is verified, any local part, and none where it is not', async () => {
    expect(await inbound.projectsOf('anything@Brand.test')).toEqual(['prj_a', 'prj_b']);
    expect(await inbound.projectsOf('x@solo.test')).toEqual(['prj_c']);
    expect(await inbound.projectsOf('x@pending.test')).toEqual([]);
    expect(await inbound.projectsOf('x@unknown.test')).toEqual([]);
    expect(await inbound.projectsOf('not-an-address')).toEqual([]);
  });

  it('stores the message with email.received, linked to the existing contact of its sender, and leaves an unknown sender without one', async () => {
    const raw = message({
      From: 'Ada <Ada@Example.com>',
      To: 'support@solo.test',
      Subject: 'Help',
      'Message-ID': '<m1@example.com>',
    });
    const [known] = await inbound.receive(
      { from: 'ada@example.com', recipients: [{ address: 'support@brand.test', projectIds: ['prj_a'] }] },
      raw,
    );
    const row = await store.one(ds.manager, 'prj_a', known!);
    expect(row).toMatchObject({
      contact_id: 'cnt_ada',
      from_email: 'ada@example.com',
      from_name: 'Ada',
      recipients: ['support@brand.test'],
      subject: 'Help',
      message_id: 'm1@example.com',
      text: 'Hello there\n',
      size: raw.length,
    });
    expect((await outboxOf('prj_a')).map((o) => o.envelope.payload)).toEqual([
      {
        inboundId: known,
        contactId: 'cnt_ada',
        email: 'ada@example.com',
        name: 'Ada',
        to: ['support@brand.test'],
        subject: 'Help',
        messageId: 'm1@example.com',
        attachments: 0,
        size: raw.length,
      },
    ]);

    const [unknown] = await inbound.receive(
      { from: 'zed@example.com', recipients: [{ address: 'x@solo.test', projectIds: ['prj_c'] }] },
      message({ From: 'zed@example.com', Subject: 'Hi' }),
    );
    expect(await store.one(ds.manager, 'prj_c', unknown!)).toMatchObject({
      contact_id: null,
      from_email: 'zed@example.com',
      message_id: null,
    });
    expect((await outboxOf('prj_c'))[0]!.envelope.payload).not.toHaveProperty('contactId');
  });

  it('stores a message for two projects once in each, each linked to its own contact of the sender', async () => {
    const ids = await inbound.receive(
      { from: 'ada@example.com', recipients: [{ address: 'hello@brand.test', projectIds: ['prj_a', 'prj_b'] }] },
      message({ From: 'ada@example.com', 'Message-ID': '<both@example.com>' }),
    );
    expect(ids).toHaveLength(2);
    const rows = await Promise.all([store.one(ds.manager, 'prj_a', ids[0]!), store.one(ds.manager, 'prj_b', ids[1]!)]);
    expect(rows.map((r) => r?.contact_id)).toEqual(['cnt_ada', null]);
    // neither project sees the other's copy
    expect(await store.one(ds.manager, 'prj_b', ids[0]!)).toBeUndefined();
  });

  it('links a reply to the project’s email it answers by In-Reply-To, then References, with that email’s campaign', async () => {
    await ds.query(
      `INSERT INTO sending.emails (id, project_id, contact_id, to_email, from_email, subject, html, text, type, status, message_id, campaign_id, workflow_id)
       VALUES ('eml_c', 'prj_a', 'cnt_ada', 'ada@example.com', 'news@brand.test', 'News', '', '', 'marketing', 'sent', 'eml_c@brand.test', 'cmp_1', NULL),
              ('eml_w', 'prj_a', 'cnt_ada', 'ada@example.com', 'hi@brand.test', 'Hi', '', '', 'transactional', 'sent', 'eml_w@brand.test', NULL, 'wfl_1'),
              ('eml_other', 'prj_b', 'cnt_x', 'ada@example.com', 'hi@brand.test', 'Hi', '', '', 'transactional', 'sent', 'eml_other@brand.test', NULL, NULL)`,
    );
    const receive = (headers: Record<string, string>) =>
      inbound.receive(
        { from: 'ada@example.com', recipients: [{ address: 'news@brand.test', projectIds: ['prj_a'] }] },
        message({ From: 'ada@example.com', ...headers }),
      );
    const [byInReplyTo] = await receive({
      'In-Reply-To': '<eml_c@brand.test>',
      References: '<eml_w@brand.test> <eml_c@brand.test>',
    });
    const [byReferences] = await receive({ References: '<eml_c@brand.test> <eml_w@brand.test> <elsewhere@x.test>' });
    const [ofAnotherProject] = await receive({ 'In-Reply-To': '<eml_other@brand.test>' });
    const rows = await Promise.all(
      [byInReplyTo, byReferences, ofAnotherProject].map((id) => store.one(ds.manager, 'prj_a', id!)),
    );
    expect(rows.map((r) => [r?.in_reply_to_email_id, r?.campaign_id, r?.workflow_id])).toEqual([
      ['eml_c', 'cmp_1', null],
      ['eml_w', null, 'wfl_1'],
      [null, null, null],
    ]);
    const payloads = (await outboxOf('prj_a')).map((o) => o.envelope.payload);
    expect(payloads.at(-3)).toMatchObject({ inReplyToEmailId: 'eml_c', campaignId: 'cmp_1' });
  });

  it('keeps a message delivered again (same Message-ID) once, publishing nothing for the copy', async () => {
    const raw = message({ From: 'ada@example.com', 'Message-ID': '<again@example.com>' });
    const envelope = { from: '', recipients: [{ address: 'a@solo.test', projectIds: ['prj_c'] }] };
    expect(await inbound.receive(envelope, raw)).toHaveLength(1);
    const published = (await outboxOf('prj_c')).length;
    expect(await inbound.receive(envelope, raw)).toEqual([]);
    expect((await outboxOf('prj_c')).length).toBe(published);
  });

  it('keeps attachments with their content within the budget, and describes the others', async () => {
    const boundary = 'b1';
    const part = (name: string, bytes: number) =>
      [
        `--${boundary}`,
        `Content-Type: application/octet-stream; name="${name}"`,
        `Content-Disposition: attachment; filename="${name}"`,
        'Content-Transfer-Encoding: base64',
        '',
        Buffer.alloc(bytes, 7).toString('base64'),
        '',
      ].join('\r\n');
    const raw = Buffer.from(
      [
        'From: ada@example.com',
        'Subject: Files',
        `Content-Type: multipart/mixed; boundary="${boundary}"`,
        '',
        `--${boundary}`,
        'Content-Type: text/html; charset=utf-8',
        '',
        '<p>See attached</p>',
        part('small.bin', 600),
        part('big.bin', 900),
        `--${boundary}--`,
        '',
      ].join('\r\n'),
    );
    const [id] = await inbound.receive(
      { from: 'ada@example.com', recipients: [{ address: 'a@solo.test', projectIds: ['prj_c'] }] },
      raw,
    );
    const row = await store.one(ds.manager, 'prj_c', id!);
    expect(row?.html).toContain('<p>See attached</p>');
    const attachments = row?.attachments as { filename: string; stored: boolean; size: number; content?: string }[];
    expect(attachments.map((a) => [a.filename, a.size, a.stored])).toEqual([
      ['small.bin', 600, true],
      ['big.bin', 900, false],
    ]);
    expect(Buffer.from(attachments[0]!.content!, 'base64')).toEqual(Buffer.alloc(600, 7));
    expect((await outboxOf('prj_c')).at(-1)!.envelope.payload).toMatchObject({ attachments: 2 });
  });

  it('stores nothing when the contacts service cannot be asked (the sending server tries again)', async () => {
    contactsDown = true;
    try {
      const envelope = {
        from: 'ada@example.com',
        recipients: [{ address: 'support@brand.test', projectIds: ['prj_a'] }],
      };
      await expect(
        inbound.receive(envelope, message({ From: 'ada@example.com', 'Message-ID': '<down@x>' })),
      ).rejects.toThrow('contacts unavailable');
      const [{ n }] = await ds.query(
        `SELECT count(*)::int AS n FROM sending.inbound_messages WHERE message_id = 'down@x'`,
      );
      expect(n).toBe(0);
    } finally {
      contactsDown = false;
    }
  });

  it('pages the project’s messages newest first, of one contact when asked', async () => {
    const all = await store.page(ds, 'prj_a', { limit: 100 } as never, {});
    expect(all.data.length).toBeGreaterThanOrEqual(5);
    const times = all.data.map((r) => new Date(r.created_at as string).getTime());
    expect([...times].sort((a, b) => b - a)).toEqual(times);
    expect(all.data.every((r) => r.project_id === 'prj_a' && !('text' in r))).toBe(true);
    const ofAda = await store.page(ds, 'prj_a', { limit: 100 } as never, { contactId: 'cnt_ada' });
    expect(ofAda.data.length).toBe(all.data.length);
    expect((await store.page(ds, 'prj_a', { limit: 100 } as never, { contactId: 'cnt_nobody' })).data).toEqual([]);
  });
});

import { upsertOutcome } from '@herald/contact-data';
import { DomainError, isGeneratedId, newId, type HeraldRuntime } from '@herald/core';
import type { ReadYourWrites, ReferenceDirectory } from '@herald/messaging';
import { createServiceDataSource, migrateServiceSchema } from '@herald/persistence';
import { createTemplateRenderPool, type RenderTask, type TemplateRenderPool } from '@herald/templating';
import { createTestDatabase, type TestDatabase } from '@herald/testing';
import type { DataSource } from 'typeorm';
import type { SendAdmission } from '../admission/send-admission.js';
import { LinkSigner } from '../links/link-signer.js';
import { EmailRenderer } from '../render/email-renderer.js';
import { sendingService } from '../sending.module.js';
import { SendingSettings } from '../sending.settings.js';
import type { DomainsClient } from '../senders/domains-client.js';
import { SenderDomains } from '../senders/sender-domains.js';
import { TemplatesService } from '../templates/templates.service.js';
import type { ContactsClient, RemoteContact, RemoteUpsert } from './contacts-client.js';
import { SendEmailUseCase } from './send-email.use-case.js';

const runtime = { internalJwtSecret: 'x'.repeat(40) } as HeraldRuntime;
const FROM = 'hello@brand.test';
/** What a template reads of the contact, in one line: the email shows which contact it was rendered for. */
const FIELDS = '[{{id}}|{{email}}|{{subscribed}}|{{plan}}|{{createdAt}}|{{updatedAt}}]';
/** The timestamps the contacts stand-in gives every contact it writes: never the preflight's. */
const WRITTEN_AT = '2030-01-02T03:04:05.678Z';
const WORK_LIMIT_LOOP = '{% for i in (1..1000000000000) %}{% increment x %}{% endfor %}';

/** An email row as the use case stored it. */
interface Row {
  id: string;
  contact_id: string;
  to_email: string;
  subject: string;
  html: string;
}

/**
 * /v1/send's use case on real PostgreSQL (sending's schema), with the contacts service reduced to
 * its rule (`upsertOutcome` of @herald/contact-data, as contacts' writer applies it) over a map, and
 * billing admission recorded: a request the preflight refuses asks contacts for no write, stores no
 * email and asks no admission; the writes render each email for the contact actually written, also
 * when another request created or changed it after the preflight.
 */
describe('SendEmailUseCase: a refused /v1/send writes nothing (PostgreSQL)', () => {
  let db: TestDatabase;
  let ds: DataSource;
  let send: SendEmailUseCase;
  let project = '';
  let n = 0;
  /** The contacts service's contacts, by project and address. */
  const directory = new Map<string, RemoteContact>();
  /** Every upsert asked of contacts (the only way /v1/send writes a contact or causes a contact event). */
  const upserts: { email: string; idIfNew?: string }[] = [];
  /** Runs before each upsert is applied: another request's write, between the preflight and this one. */
  let beforeUpsert: ((email: string) => void) | undefined;
  const admitted: number[] = [];
  const renders: RenderTask[] = [];

  const key = (email: string) => `${project}/${email}`;
  /** A contact as another request writes it through contacts (id drawn by contacts, timestamps WRITTEN_AT). */
  const write = (email: string, change: { subscribed?: boolean; data?: Record<string, unknown> }, id?: string) => {
    const before = directory.get(key(email));
    const outcome = upsertOutcome(before, change, false);
    if (outcome.problem) throw new Error(`the contacts stand-in refused ${email}: ${outcome.problem.message}`);
    const changed = !before || outcome.changedKeys.length > 0;
    const contact: RemoteContact = {
      id: before?.id ?? id ?? newId('cnt'),
      email,
      subscribed: outcome.subscribed,
      data: outcome.data,
      createdAt: before?.createdAt ?? WRITTEN_AT,
      updatedAt: changed ? WRITTEN_AT : before.updatedAt,
    };
    directory.set(key(email), contact);
    return {
      contact,
      created: !before,
      changedKeys: outcome.changedKeys,
      transient: outcome.transient,
      duplicate: false,
    };
  };

  beforeAll(async () => {
    db = await createTestDatabase();
    ds = await createServiceDataSource(sendingService.schema, db.url, 4).initialize();
    await migrateServiceSchema(ds);
    // attachments may reach 20 MiB here, so that a rendered body can take a message past SEND_LIMITS.message
    const settings = Object.assign(new SendingSettings(), {
      APP_URL: 'https://mail.example.test',
      MAX_ATTACHMENT_BYTES: 20 * 1024 * 1024,
    });
    const senders = new SenderDomains(
      ds,
      settings,
      runtime,
      { senderDomain: async (_p: string, domain: string) => ({ verified: false, domain }) } as unknown as DomainsClient,
      { copyIsCurrent: () => true } as unknown as ReadYourWrites,
    );
    const pool = createTemplateRenderPool(0);
    const counting: TemplateRenderPool = {
      ...pool,
      render: (task) => {
        renders.push(task);
        return pool.render(task);
      },
    };
    const contacts = {
      findByEmails: async (_p: string, emails: string[]) =>
        emails.map((e) => directory.get(key(e))).filter((c): c is RemoteContact => c !== undefined),
      upsertMany: async (
        _p: string,
        inputs: { email: string; subscribed?: boolean; data?: Record<string, unknown>; idIfNew?: string }[],
      ): Promise<RemoteUpsert[]> => {
        const results: RemoteUpsert[] = [];
        for (const input of inputs) {
          upserts.push({ email: input.email, ...(input.idIfNew ? { idIfNew: input.idIfNew } : {}) });
          beforeUpsert?.(input.email);
          results.push(await write(input.email, input, input.idIfNew));
        }
        return results;
      },
    } as unknown as ContactsClient;
    const admission = {
      admit: async (_p: string, _category: string, count: number) => void admitted.push(count),
    } as unknown as SendAdmission;
    const renderer = new EmailRenderer(settings, new LinkSigner(settings, runtime), counting);
    send = new SendEmailUseCase(
      ds,
      settings,
      new TemplatesService(ds, senders, {} as ReferenceDirectory),
      senders,
      contacts,
      renderer,
      admission,
    );
  });
  beforeEach(async () => {
    project = `prj_send_${++n}`;
    await ds.query(
      `INSERT INTO sending.sender_domains (domain_id, project_id, domain, verified, event_at) VALUES ($1, $2, 'brand.test', true, now())`,
      [`dom_${n}`, project],
    );
    upserts.length = 0;
    admitted.length = 0;
    renders.length = 0;
    beforeUpsert = undefined;
  });
  afterAll(async () => {
    await ds?.destroy();
    await db?.drop();
  });

  const rows = (): Promise<Row[]> =>
    ds.query(
      `SELECT id, contact_id, to_email, subject, html FROM sending.emails WHERE project_id = $1 ORDER BY to_email`,
      [project],
    );
  const recipients = (count: number) =>
    Array.from({ length: count }, (_, i) => (i === count - 1 ? 'last@x.test' : `r${i}@x.test`));
  /** The 422 the request answers: its field errors. */
  const refusal = async (body: Record<string, unknown>, idempotencyKey?: string) => {
    const err = await send.execute(project, body, idempotencyKey).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(DomainError);
    expect((err as DomainError).kind).toBe('invalid');
    return (err as DomainError).details.errors ?? [];
  };
  const expectNothingWritten = async () => {
    expect(upserts).toEqual([]);
    expect(await rows()).toEqual([]);
    expect(admitted).toEqual([]);
    const traces: { n: number }[] = await ds.query(
      `SELECT (SELECT count(*) FROM sending.outbox WHERE envelope->>'projectId' = $1)::int
            + (SELECT count(*) FROM sending.idempotency_keys WHERE project_id = $1)::int AS n`,
      [project],
    );
    expect(traces[0]!.n).toBe(0);
  };

  // each refusal fails for the last recipient only where the rule allows (a template that does not
  // parse fails for every one): the recipients before it were upserted one by one before the fix
  const refusals: [string, (to: string[]) => Record<string, unknown>, { field: string; code: string }][] = [
    [
      'a render past the work limit',
      (to) => ({
        to,
        from: FROM,
        subject: 'Hi',
        body: `{% if email contains "last" %}${WORK_LIMIT_LOOP}{% endif %}ok`,
      }),
      { field: 'body', code: 'render_failed' },
    ],
    [
      'an unknown Liquid filter',
      (to) => ({ to, from: FROM, subject: 'Hi', body: '<p>{{ email | no_such_filter }}</p>' }),
      { field: 'body', code: 'render_failed' },
    ],
    [
      'an empty rendered subject',
      (to) => ({ to, from: FROM, subject: '{% unless email contains "last" %}Hi{% endunless %}', body: 'ok' }),
      { field: 'subject', code: 'invalid_string' },
    ],
    [
      'a rendered subject over 998 characters',
      (to) => ({
        to,
        from: FROM,
        subject: '{% if email contains "last" %}{% for i in (1..100) %}0123456789{% endfor %}{% else %}Hi{% endif %}',
        body: 'ok',
      }),
      { field: 'subject', code: 'invalid_string' },
    ],
    [
      'a message over the size limit (40 MB)',
      (to) => ({
        to,
        from: FROM,
        subject: 'Hi',
        // 26 × 160,000 three-byte characters of template text (values inserted are charged to the memory
        // limit; text is not): 12.5 MB of HTML and as much plain text, for the last recipient only
        body: `{% if email contains "last" %}{% for i in (1..26) %}${'€'.repeat(160_000)}{% endfor %}{% endif %}ok`,
        attachments: [{ filename: 'big.bin', content: Buffer.alloc(13 * 1024 * 1024).toString('base64') }],
      }),
      { field: 'attachments', code: 'too_big' },
    ],
  ];

  describe.each(refusals)('refused for %s', (_reason, body, expected) => {
    it.each([1, 10])(
      'with %i recipient(s), the last one refused: the 422 as before, and no contact upserted, no email, no event, no idempotency row, no admission',
      async (count) => {
        const errors = await refusal(body(recipients(count)), `key-${count}`);
        expect(errors[0]).toMatchObject(expected);
        await expectNothingWritten();
      },
    );
  });

  it("refuses a send whose data would make an existing contact's data too large, before any recipient is upserted", async () => {
    write('last@x.test', { data: { a: 'x'.repeat(16_000), b: 'x'.repeat(16_000), c: 'x'.repeat(16_000) } });
    const before = directory.get(key('last@x.test'));
    const errors = await refusal({
      to: recipients(10),
      from: FROM,
      subject: 'Hi',
      body: 'ok',
      data: { d: 'x'.repeat(16_000), e: 'x'.repeat(16_000) },
    });
    expect(errors[0]).toMatchObject({ field: 'data', code: 'too_big' });
    await expectNothingWritten();
    expect(directory.get(key('last@x.test'))).toBe(before);
  });

  it('creates each new contact with the id its email was rendered for, and asks admission once, after the preflight', async () => {
    const to = recipients(3);
    const answer = await send.execute(project, { to, from: FROM, subject: 'Hi {{email}}', body: FIELDS }, undefined);
    expect(admitted).toEqual([3]);
    expect(upserts.map((u) => u.email)).toEqual(to);
    for (const u of upserts) expect(isGeneratedId('cnt', u.idIfNew!)).toBe(true);
    const stored = await rows();
    for (const [i, email] of to.entries()) {
      const contact = directory.get(key(email))!;
      expect(contact.id).toBe(upserts[i]!.idIfNew);
      expect(answer.data.emails[i]!.contact).toEqual({ id: contact.id, email });
      expect(stored.find((r) => r.to_email === email)).toMatchObject({
        contact_id: contact.id,
        subject: `Hi ${email}`,
        html: expect.stringContaining(`[${contact.id}|${email}|false||${WRITTEN_AT}|${WRITTEN_AT}]`),
      });
    }
  });

  it("renders a new contact's email once when the template names neither timestamp (the write's clock cannot change it)", async () => {
    renders.length = 0;
    await send.execute(
      project,
      { to: 'once@x.test', from: FROM, subject: 'Hi {{ email }}', body: '<p>{{ plan }}</p>' },
      undefined,
    );
    expect(renders).toHaveLength(1);
    expect((await rows())[0]!.subject).toBe('Hi once@x.test');
  });

  it('renders an existing contact the request does not change once, with its stored data, and proposes no id for it', async () => {
    const existing = write('known@x.test', { subscribed: true, data: { plan: 'pro' } }).contact;
    renders.length = 0;
    await send.execute(
      project,
      { to: 'known@x.test', from: FROM, subject: 'Hi', body: FIELDS, data: { plan: 'pro' } },
      undefined,
    );
    expect(upserts).toEqual([{ email: 'known@x.test' }]);
    expect(renders).toHaveLength(1);
    expect((await rows())[0]!.html).toContain(
      `[${existing.id}|known@x.test|true|pro|${existing.createdAt}|${existing.updatedAt}]`,
    );
  });

  it('renders the email for the contact another request created between the preflight and the upsert: its id, not the proposed one', async () => {
    let other = '';
    beforeUpsert = (email) => {
      beforeUpsert = undefined;
      other = write(email, { subscribed: true, data: { plan: 'team' } }).contact.id;
    };
    const answer = await send.execute(
      project,
      { to: 'raced@x.test', from: FROM, subject: 'Hi', body: FIELDS },
      undefined,
    );
    const proposed = upserts[0]!.idIfNew!;
    expect(isGeneratedId('cnt', proposed)).toBe(true);
    expect(other).not.toBe(proposed);
    expect(answer.data.emails[0]!.contact.id).toBe(other);
    const [row] = await rows();
    expect(row!.contact_id).toBe(other);
    expect(row!.html).toContain(`[${other}|raced@x.test|true|team|`);
    expect(row!.html).not.toContain(proposed); // nor in its subscription links
  });

  it('renders the email with the data another request wrote between the preflight and the upsert', async () => {
    const existing = write('changed@x.test', { data: { plan: 'free' } }).contact;
    beforeUpsert = (email) => {
      beforeUpsert = undefined;
      write(email, { data: { plan: 'enterprise' } });
    };
    await send.execute(project, { to: 'changed@x.test', from: FROM, subject: 'Hi', body: FIELDS }, undefined);
    expect((await rows())[0]!.html).toContain(`[${existing.id}|changed@x.test|false|enterprise|`);
  });

  it("keeps the preflight's email when only the written timestamps differ and rendering with them is refused", async () => {
    // refused only for the timestamps the write gives (the rendered time limit met again, in life)
    const body = `{% if createdAt contains "2030" %}${WORK_LIMIT_LOOP}{% endif %}${FIELDS}`;
    const answer = await send.execute(project, { to: 'new@x.test', from: FROM, subject: 'Hi', body }, undefined);
    const contact = directory.get(key('new@x.test'))!;
    expect(answer.data.emails[0]!.contact.id).toBe(contact.id);
    const [row] = await rows();
    expect(row!.html).toContain(`[${contact.id}|new@x.test|false||`);
    expect(row!.html).not.toContain(WRITTEN_AT);
  });

  const modes = async () =>
    (
      (await ds.query(
        `SELECT to_email, contact_id, status, test_mode FROM sending.emails WHERE project_id = $1 ORDER BY to_email`,
        [project],
      )) as { to_email: string; contact_id: string; status: string; test_mode: boolean }[]
    ).map((r) => [r.to_email, r.contact_id, r.status, r.test_mode]);
  const SANDBOX = ['bounced@sandbox.herald.test', 'suppressed@sandbox.herald.test'];

  it("a test key's send writes no contact and asks no admission; its emails are of test mode, rendered for each contact as the upsert would make it", async () => {
    const existing = write('known@x.test', { subscribed: true, data: { plan: 'pro' } }).contact;
    const to = ['known@x.test', 'new@x.test'];
    const answer = await send.execute(
      project,
      { to, from: FROM, subject: 'Hi', body: FIELDS, data: { plan: 'max' } },
      undefined,
      undefined,
      true,
    );
    expect([upserts, admitted, directory.get(key('known@x.test')), directory.has(key('new@x.test'))]).toEqual([
      [],
      [],
      existing,
      false,
    ]);
    expect(answer.data.emails.map((e) => e.contact)).toEqual([
      { id: existing.id, email: to[0] },
      { id: '', email: to[1] },
    ]);
    expect(await modes()).toEqual([
      [to[0], existing.id, 'queued', true],
      [to[1], '', 'queued', true],
    ]);
    expect((await rows())[0]!.html).toContain(`[${existing.id}|known@x.test|true|max|`);
  });

  it('a sandbox address is of test mode with a live key too (not counted by admission); suppressed@ is skipped as a suppressed address', async () => {
    const answer = await send.execute(
      project,
      { to: ['a@x.test', ...SANDBOX], from: FROM, subject: 'Hi', body: 'ok' },
      undefined,
    );
    expect([admitted, upserts.map((u) => u.email)]).toEqual([[1], ['a@x.test', ...SANDBOX]]);
    expect(answer.data.emails.map((e) => e.status)).toEqual(['queued', 'queued', 'skipped']);
    expect((await modes()).map(([to, , status, mode]) => [to, status, mode])).toEqual([
      ['a@x.test', 'queued', false],
      [SANDBOX[0], 'queued', true],
      [SANDBOX[1], 'suppressed', true],
    ]);
  });

  it("a test key's Idempotency-Key is not a live request's: the same key and body under the other key type is refused as reused", async () => {
    const body = { to: 'once@x.test', from: FROM, subject: 'Hi', body: 'ok' };
    await send.execute(project, body, 'key-1', undefined, true);
    const err = await send.execute(project, body, 'key-1').catch((e: unknown) => e);
    expect([err instanceof DomainError && err.code, (await modes()).length]).toEqual(['IDEMPOTENCY_KEY_REUSED', 1]);
  });
});

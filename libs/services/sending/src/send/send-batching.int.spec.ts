import { upsertOutcome } from '@herald/contact-data';
import {
  DomainError,
  invalidInput,
  newId,
  positionsContext,
  recordWrite,
  RequestPositions,
  type HeraldRuntime,
  type Observed,
} from '@herald/core';
import type { ReadYourWrites, ReferenceDirectory } from '@herald/messaging';
import { createServiceDataSource, migrateServiceSchema } from '@herald/persistence';
import { createTemplateRenderPool, type TemplateRenderPool } from '@herald/templating';
import { createTestDatabase, eventually, type TestDatabase } from '@herald/testing';
import type { DataSource } from 'typeorm';
import type { SendAdmission } from '../admission/send-admission.js';
import { LinkSigner } from '../links/link-signer.js';
import { EmailRenderer } from '../render/email-renderer.js';
import { sendingService } from '../sending.module.js';
import { SendingSettings } from '../sending.settings.js';
import type { DomainsClient } from '../senders/domains-client.js';
import { SenderDomains } from '../senders/sender-domains.js';
import { TemplatesService } from '../templates/templates.service.js';
import type { ContactsClient, RecipientUpsert, RemoteContact, RemoteUpsert } from './contacts-client.js';
import { SendEmailUseCase, type SendResult } from './send-email.use-case.js';

const runtime = { internalJwtSecret: 'x'.repeat(40) } as HeraldRuntime;
const FROM = 'hello@brand.test';
/** contacts refuses an upsert of this address (a 422 of its own rules). */
const REFUSED_BY_CONTACTS = 'refused@x.test';
/** contacts answers this address with an id too long for sending.emails.contact_id: its email cannot be inserted. */
const UNSTORABLE = 'unstorable@x.test';
/** contacts' `find` fails for a lookup naming this address. */
const LOOKUP_FAILS = 'lookup-fails@x.test';

type Outcome = { value: SendResult } | { error: unknown };

/**
 * /v1/send's group execution on real PostgreSQL (sending's schema), with one batch of each phase in
 * flight at a time so that a test decides which requests share a batch: contacts reduced to its
 * rule over a map (all or nothing per call, as its `upsertMany`), billing admission with a cap per
 * project. Requests that wait together share one `find`, one admission, one `upsertMany` and one
 * email insert, and each is answered exactly as if it had been sent alone.
 */
describe('/v1/send in batches: each request answered as if sent alone (PostgreSQL)', () => {
  let db: TestDatabase;
  let ds: DataSource;
  let send: SendEmailUseCase;
  let n = 0;
  let project = '';
  let blocker = '';
  const directory = new Map<string, RemoteContact>();
  /** Every contacts call of the test's project: its addresses, and what the call had to observe. */
  let finds: { emails: string[]; observed: Observed }[] = [];
  let upserts: { emails: string[]; observed: Observed }[] = [];
  /** Admission asked for the test's project (counts), and the caps and reservations per project. */
  let admissions: number[] = [];
  const caps = new Map<string, number>();
  const reserved = new Map<string, number>();
  /** While set, the blocker project's admission waits for it: the one write batch stays in flight. */
  let gate: Promise<void> | undefined;
  let blockerWaiting = false;
  let renders = 0;
  let written = 0;

  const key = (p: string, email: string) => `${p}/${email}`;
  const observedNow = (p: string): Observed => positionsContext.getStore()?.forCallee(p) ?? {};

  beforeAll(async () => {
    db = await createTestDatabase();
    ds = await createServiceDataSource(sendingService.schema, db.url, 4).initialize();
    await migrateServiceSchema(ds);
    const settings = Object.assign(new SendingSettings(), { APP_URL: 'https://mail.example.test' });
    const senders = new SenderDomains(
      ds,
      settings,
      runtime,
      { senderDomain: async (_p: string, domain: string) => ({ verified: false, domain }) } as unknown as DomainsClient,
      { copyIsCurrent: () => true } as unknown as ReadYourWrites,
    );
    const pool = createTemplateRenderPool(0);
    // counted once rendered (or refused): the request has then joined its write batch, in the same turn
    const counting: TemplateRenderPool = { ...pool, render: (task) => pool.render(task).finally(() => renders++) };
    const contacts = {
      findByEmails: async (p: string, emails: string[]) => {
        if (p === project) finds.push({ emails, observed: observedNow(p) });
        if (emails.includes(LOOKUP_FAILS)) throw new DomainError('unavailable', 'CONTACTS_DOWN', 'contacts is down');
        return emails.map((e) => directory.get(key(p, e))).filter((c): c is RemoteContact => c !== undefined);
      },
      upsertMany: async (p: string, inputs: RecipientUpsert[]): Promise<RemoteUpsert[]> => {
        if (p === project) upserts.push({ emails: inputs.map((i) => i.email), observed: observedNow(p) });
        // one transaction: a refused input leaves every input of the call unwritten
        if (inputs.some((i) => i.email === REFUSED_BY_CONTACTS))
          throw invalidInput([{ field: 'data', message: 'contacts refuses this contact', code: 'too_big' }]);
        const results = inputs.map((input) => {
          const before = directory.get(key(p, input.email));
          const outcome = upsertOutcome(before, input, false);
          const id = input.email === UNSTORABLE ? `cnt_${'x'.repeat(60)}` : (input.idIfNew ?? newId('cnt'));
          const at = new Date().toISOString();
          const contact: RemoteContact = {
            id: before?.id ?? id,
            email: input.email,
            subscribed: outcome.subscribed,
            data: outcome.data,
            createdAt: before?.createdAt ?? at,
            updatedAt: at,
          };
          directory.set(key(p, input.email), contact);
          return {
            contact,
            created: !before,
            changedKeys: outcome.changedKeys,
            transient: outcome.transient,
            duplicate: false,
          };
        });
        recordWrite([p], 'contacts', ++written); // as contacts' outbox does in the caller's context
        return results;
      },
    } as unknown as ContactsClient;
    const admission = {
      admit: async (p: string, _category: string, count: number) => {
        if (p === blocker && gate) {
          blockerWaiting = true;
          await gate;
        }
        if (p === project) admissions.push(count);
        const cap = caps.get(p);
        const used = reserved.get(p) ?? 0;
        if (cap !== undefined && used + count > cap)
          throw new DomainError('limited', 'BILLING_LIMIT_EXCEEDED', 'over the cap');
        reserved.set(p, used + count);
      },
    } as unknown as SendAdmission;
    send = new SendEmailUseCase(
      ds,
      settings,
      new TemplatesService(ds, senders, {} as ReferenceDirectory),
      senders,
      contacts,
      new EmailRenderer(settings, new LinkSigner(settings, runtime), counting),
      admission,
      { lookups: { maxBatch: 100, maxConcurrent: 1 }, writes: { maxBatch: 100, maxConcurrent: 1 } },
    );
  });
  beforeEach(async () => {
    project = `prj_batch_${++n}`;
    blocker = `prj_blocker_${n}`;
    for (const p of [project, blocker])
      await ds.query(
        `INSERT INTO sending.sender_domains (domain_id, project_id, domain, verified, event_at) VALUES ($1, $2, 'brand.test', true, now())`,
        [`dom_${p}`, p],
      );
    finds = [];
    upserts = [];
    admissions = [];
    // the sender check is answered from the copy's row kept by the first send: concurrent sends all
    // reach the lookup in the same turn of the event loop (one lookup batch)
    await send.execute(project, message('warm-up@x.test'), undefined);
    await ds.query(`DELETE FROM sending.emails WHERE project_id = $1`, [project]);
    finds = [];
    upserts = [];
    admissions = [];
    reserved.clear();
  });
  afterAll(async () => {
    await ds?.destroy();
    await db?.drop();
  });

  const message = (to: string | string[], extra: Record<string, unknown> = {}) => ({
    to,
    from: FROM,
    subject: 'Hi {{email}}',
    body: '<p>{{id}} {{email}}</p>',
    ...extra,
  });
  const rows = (): Promise<{ id: string; contact_id: string; to_email: string; status: string; created_at: Date }[]> =>
    ds.query(
      `SELECT id, contact_id, to_email, status, created_at FROM sending.emails WHERE project_id = $1 ORDER BY to_email`,
      [project],
    );

  /**
   * Sends `bodies` of the test's project at once so that their writes share one batch: a send of
   * another project holds the one write batch in flight until all of them are rendered (`renders`:
   * the renders their preflights make, refused ones included), so they wait and go together.
   */
  async function sentTogether(
    bodies: { body: Record<string, unknown>; observed?: Observed }[],
    renders: number,
  ): Promise<{ outcomes: Outcome[]; positions: RequestPositions[] }> {
    let release!: () => void;
    gate = new Promise((resolve) => (release = resolve));
    blockerWaiting = false;
    const held = send.execute(blocker, message('blocker@x.test'), undefined);
    await eventually(() => blockerWaiting, { intervalMs: 5, message: 'the blocking write never started' });
    const rendered = currentRenders();
    const positions = bodies.map(({ observed }) => {
      const request = new RequestPositions();
      request.projectId = project;
      request.observed = observed ?? {};
      return request;
    });
    const outcomes = bodies.map(({ body }, i) =>
      positionsContext.run(positions[i]!, () =>
        send.execute(project, body, undefined).then(
          (value): Outcome => ({ value }),
          (error: unknown): Outcome => ({ error }),
        ),
      ),
    );
    await eventually(() => currentRenders() >= rendered + renders, { intervalMs: 5, message: 'not all rendered' });
    gate = undefined;
    release();
    await held;
    return { outcomes: await Promise.all(outcomes), positions };
  }
  const currentRenders = () => renders;
  const answer = (o: Outcome) => {
    if ('error' in o) throw o.error;
    return o.value.data.emails;
  };
  const refusal = (o: Outcome) => {
    expect(o).toHaveProperty('error');
    return (o as { error: unknown }).error as DomainError;
  };

  it('answers two concurrent sends of one batch each with its own emails, from one find, one admission, one upsertMany and one insert', async () => {
    await ds.query(`INSERT INTO sending.suppressions (project_id, email, reason) VALUES ($1, 'b2@x.test', 'bounce')`, [
      project,
    ]);
    const { outcomes } = await sentTogether(
      [{ body: message('a@x.test') }, { body: message(['b1@x.test', 'b2@x.test']) }],
      3,
    );
    const [a, b] = outcomes.map(answer);
    const contact = (email: string) => directory.get(key(project, email))!;
    expect(a).toEqual([
      { contact: { id: contact('a@x.test').id, email: 'a@x.test' }, email: expect.any(String), status: 'queued' },
    ]);
    expect(b).toEqual([
      { contact: { id: contact('b1@x.test').id, email: 'b1@x.test' }, email: expect.any(String), status: 'queued' },
      {
        contact: { id: contact('b2@x.test').id, email: 'b2@x.test' },
        email: expect.any(String),
        status: 'skipped',
        reason: 'suppressed',
      },
    ]);
    expect(finds.map((f) => f.emails)).toEqual([['a@x.test', 'b1@x.test', 'b2@x.test']]);
    expect(admissions).toEqual([3]);
    expect(upserts.map((u) => u.emails)).toEqual([['a@x.test', 'b1@x.test', 'b2@x.test']]);
    const stored = await rows();
    expect(stored.map((r) => [r.id, r.contact_id, r.to_email, r.status])).toEqual([
      [a[0]!.email, contact('a@x.test').id, 'a@x.test', 'queued'],
      [b[0]!.email, contact('b1@x.test').id, 'b1@x.test', 'queued'],
      [b[1]!.email, contact('b2@x.test').id, 'b2@x.test', 'suppressed'],
    ]);
    // one statement: one transaction's clock
    expect(new Set(stored.map((r) => r.created_at.getTime())).size).toBe(1);
  });

  it("splits a batch's upserts over several calls when their data together would pass what one internal call carries", async () => {
    const data = Object.fromEntries(Array.from({ length: 400 }, (_, i) => [`k${i}`, i]));
    const to = (r: string) => Array.from({ length: 10 }, (_, i) => `${r}${i}@x.test`);
    const { outcomes } = await sentTogether(
      ['a', 'b', 'c'].map((r) => ({ body: message(to(r), { data }) })),
      30,
    );
    outcomes.forEach((o) => expect(answer(o)).toHaveLength(10));
    // each request's 10 upserts carry about 4,100 values: two requests fit in one call, not three
    expect(upserts.map((u) => u.emails.length)).toEqual([20, 10]);
    expect(admissions).toEqual([30]);
    expect(await rows()).toHaveLength(30);
  });

  it("fails only the request whose upserts contacts refuses: the batch's call is retried request by request", async () => {
    const { outcomes } = await sentTogether(
      [{ body: message('good@x.test') }, { body: message(REFUSED_BY_CONTACTS) }],
      2,
    );
    expect(answer(outcomes[0]!)).toHaveLength(1);
    expect(refusal(outcomes[1]!)).toMatchObject({ kind: 'invalid', details: { errors: [{ code: 'too_big' }] } });
    expect(upserts.map((u) => u.emails)).toEqual([
      ['good@x.test', REFUSED_BY_CONTACTS],
      ['good@x.test'],
      [REFUSED_BY_CONTACTS],
    ]);
    expect((await rows()).map((r) => r.to_email)).toEqual(['good@x.test']);
    expect(directory.has(key(project, REFUSED_BY_CONTACTS))).toBe(false);
  });

  it('admits the requests of a batch as if asked one by one when together they pass the cap, and writes nothing for the one refused', async () => {
    caps.set(project, 2);
    const to = ['first@x.test', 'second@x.test', 'third@x.test'];
    const { outcomes } = await sentTogether(
      to.map((email) => ({ body: message(email) })),
      3,
    );
    caps.delete(project);
    // 3 together pass the cap of 2: then one by one, in the order they joined the batch
    expect(admissions).toEqual([3, 1, 1, 1]);
    const refused = outcomes.flatMap((o, i) => ('error' in o ? [i] : []));
    expect(refused).toHaveLength(1);
    expect(refusal(outcomes[refused[0]!]!)).toMatchObject({ code: 'BILLING_LIMIT_EXCEEDED' });
    const admitted = to.filter((_, i) => i !== refused[0]);
    expect(upserts.map((u) => [...u.emails].sort())).toEqual([admitted]);
    expect((await rows()).map((r) => r.to_email)).toEqual(admitted);
  });

  it('writes nothing for a request its preflight refuses while the other requests sent with it are written', async () => {
    const { outcomes } = await sentTogether(
      [{ body: message('fine@x.test') }, { body: message('broken@x.test', { body: '{{ email | no_such_filter }}' }) }],
      2,
    );
    expect(answer(outcomes[0]!)).toHaveLength(1);
    expect(refusal(outcomes[1]!)).toMatchObject({ kind: 'invalid', details: { errors: [{ code: 'render_failed' }] } });
    expect(admissions).toEqual([1]);
    expect(upserts.map((u) => u.emails)).toEqual([['fine@x.test']]);
    expect((await rows()).map((r) => r.to_email)).toEqual(['fine@x.test']);
  });

  it("fails only the request whose emails cannot be stored: the batch's insert is retried request by request", async () => {
    const { outcomes } = await sentTogether([{ body: message('kept@x.test') }, { body: message(UNSTORABLE) }], 2);
    expect(answer(outcomes[0]!)).toHaveLength(1);
    expect(outcomes[1]).toHaveProperty('error');
    expect((await rows()).map((r) => r.to_email)).toEqual(['kept@x.test']);
  });

  it("fails only the request whose lookup fails: the batch's find is retried request by request", async () => {
    const { outcomes } = await sentTogether([{ body: message('seen@x.test') }, { body: message(LOOKUP_FAILS) }], 1);
    expect(answer(outcomes[0]!)).toHaveLength(1);
    expect(refusal(outcomes[1]!)).toMatchObject({ code: 'CONTACTS_DOWN' });
    expect(finds.map((f) => f.emails)).toEqual([['seen@x.test', LOOKUP_FAILS], ['seen@x.test'], [LOOKUP_FAILS]]);
    expect((await rows()).map((r) => r.to_email)).toEqual(['seen@x.test']);
  });

  it("records in each request the positions its batch's upsert wrote, and makes the shared calls observe what every request must", async () => {
    const { outcomes, positions } = await sentTogether(
      [
        { body: message('one@x.test'), observed: { contacts: 5, segments: 7 } },
        { body: message('two@x.test'), observed: { contacts: 9 } },
      ],
      2,
    );
    outcomes.forEach((o) => expect(answer(o)).toHaveLength(1));
    expect(finds).toEqual([{ emails: ['one@x.test', 'two@x.test'], observed: { contacts: 9, segments: 7 } }]);
    expect(upserts).toEqual([{ emails: ['one@x.test', 'two@x.test'], observed: { contacts: 9, segments: 7 } }]);
    for (const request of positions) expect(request.written.get(project)).toEqual({ contacts: written });
  });
});

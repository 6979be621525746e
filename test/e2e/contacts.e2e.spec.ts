import { e2eMode, eventually, startTopology, type Topology } from '@herald/testing';
import {
  csv,
  fieldsOf,
  newProject,
  Outbox,
  ProjectApi,
  type BulkJobBody,
  type ContactBody,
  type CursorPageBody,
  type ErrorBody,
  type ImportJobBody,
  type TrackedEventBody,
} from './contacts-helpers.js';

/**
 * Contacts, custom fields, CSV import, bulk jobs and tracked events through the public HTTP API
 * (spec: Contact, Type inference, Custom field descriptor, CSV import job and rules, Contacts
 * endpoints, POST /v1/track, Events, Limits). Every test works in a project of its own. Runs in the
 * run's mode (HERALD_E2E_MODE: standalone or distributed, libs/testing `startTopology`): in
 * distributed mode every request goes through the gateway. The rules the contacts service answers
 * alone on its records (the data object, upsert, listing, lookup) run once: contacts-records.e2e.
 */
describe(`contacts through the public API (${e2eMode()})`, () => {
  let herald: Topology;
  let outbox: Outbox;
  let owner: string;
  /** A new project of its own for each test (one account owns them all, so no password hashing per test). */
  const project = () => newProject(herald.url, owner);

  beforeAll(async () => {
    herald = await startTopology({ env: { RATE_LIMIT_PER_MINUTE: '100000' } });
    outbox = new Outbox(herald.db.url);
    owner = (await newProject(herald.url)).cookie;
  }, 480_000); // eight processes migrated and started on a loaded machine: a deadline, not a target

  afterAll(async () => {
    await outbox?.end();
    await herald?.stop();
  }, 60_000);

  describe('one contact: GET, PATCH, DELETE /contacts/:id', () => {
    it('reads, patches email and subscription, and deletes a contact', async () => {
      const api = await project();
      const c = await api.upsert('ada@example.com', { plan: 'gold' });
      expect((await api.get(`/contacts/${c.id}`)).body).toEqual({
        id: c.id,
        email: 'ada@example.com',
        subscribed: true,
        data: { plan: 'gold' },
        createdAt: c.createdAt,
        updatedAt: c.updatedAt,
      });
      const patched = await api.patch<ContactBody>(`/contacts/${c.id}`, {
        email: 'Ada.New@Example.com',
        subscribed: false,
      });
      expect(patched.status).toBe(200);
      expect(patched.body).toMatchObject({
        id: c.id,
        email: 'ada.new@example.com',
        subscribed: false,
        data: { plan: 'gold' },
      });
      const del = await api.delete(`/contacts/${c.id}`);
      expect(del.status).toBe(200);
      expect((await api.get(`/contacts/${c.id}`)).status).toBe(404);
      expect((await api.delete(`/contacts/${c.id}`)).status).toBe(404);
    });

    it('PATCH to an email another contact has is 409', async () => {
      const api = await project();
      const ada = await api.upsert('ada@example.com');
      await api.upsert('bob@example.com');
      const res = await api.patch<ErrorBody>(`/contacts/${ada.id}`, { email: 'BOB@example.com' });
      expect(res.status).toBe(409);
      expect(res.body.error.code).toBe('CONTACT_EMAIL_TAKEN');
      expect((await api.contact(ada.id)).email).toBe('ada@example.com');
    });

    it.each([
      ['GET', undefined],
      ['PATCH', { data: { plan: 'gold' } }],
      ['DELETE', undefined],
    ])('%s of an unknown id is 404 CONTACT_NOT_FOUND', async (method, body) => {
      const api = await project();
      const res = await api.call<ErrorBody>(method, '/contacts/cnt_doesnotexist', body);
      expect(res.status).toBe(404);
      expect(res.body.error.code).toBe('CONTACT_NOT_FOUND');
    });

    it.each([
      ['POST /contacts', (api: ProjectApi) => api.post('/contacts', { email: 'not-an-email' })],
      ['POST /contacts without email', (api: ProjectApi) => api.post('/contacts', { data: { plan: 'gold' } })],
      [
        'PATCH /contacts/:id',
        async (api: ProjectApi) =>
          api.patch(`/contacts/${(await api.upsert('ada@example.com')).id}`, { email: 'ada@' }),
      ],
    ])('an invalid email on %s is 422 with errors[] naming the field email', async (_route, send) => {
      const api = await project();
      const res = await send(api);
      expect(res.status).toBe(422);
      expect((res.body as ErrorBody).error.code).toBe('VALIDATION_ERROR');
      expect(fieldsOf(res.body)).toContain('email');
    });
  });

  describe('project isolation', () => {
    it('a second project cannot read, change, delete, list, look up, or see the fields and events of the first', async () => {
      const one = await project();
      const two = await newProject(herald.url); // another account altogether
      const track = await one.track({ email: 'ada@example.com', event: 'signed-up', data: { plan: 'gold' } });
      expect(track.status).toBe(200);
      const ada = await one.contact(track.body.data.contact);

      expect((await two.get(`/contacts/${ada.id}`)).status).toBe(404);
      expect((await two.patch(`/contacts/${ada.id}`, { data: { plan: 'hacked' }, subscribed: false })).status).toBe(
        404,
      );
      expect((await two.delete(`/contacts/${ada.id}`)).status).toBe(404);
      expect((await two.get<CursorPageBody<ContactBody>>('/contacts')).body).toMatchObject({ data: [], total: 0 });
      expect((await two.get<CursorPageBody<ContactBody>>('/contacts?search=ada')).body.data).toEqual([]);
      expect((await two.post('/contacts/lookup', { emails: ['ada@example.com'] })).body).toEqual({
        found: [],
        notFound: ['ada@example.com'],
      });
      expect((await two.get<CursorPageBody<TrackedEventBody>>('/events')).body).toMatchObject({ data: [], total: 0 });
      expect((await two.get('/events/names')).body).toEqual({ names: [] });
      expect((await two.get('/events/stats')).body).toMatchObject({ total: 0, events: [] });
      expect((await two.get(`/events/contact/${ada.id}`)).status).toBe(404);
      expect((await two.fields()).filter((f) => f.isCustom)).toEqual([]);
      expect((await two.fields()).every((f) => f.coverage === 0)).toBe(true);
      expect((await two.get('/contacts/fields/data.plan/values')).status).toBe(404);
      const bulk = await two.bulk('delete', [ada.id]);
      expect(bulk).toMatchObject({
        status: 'completed',
        succeeded: 0,
        failed: 1,
        errors: [{ contactId: ada.id, reason: 'not_found' }],
      });

      // untouched in project one
      expect(await one.contact(ada.id)).toMatchObject({
        email: 'ada@example.com',
        subscribed: true,
        data: { plan: 'gold' },
      });
      expect((await one.get('/events/names')).body).toEqual({ names: ['signed-up'] });
    });
  });

  describe('field registry: GET /contacts/fields', () => {
    it.each<[string, unknown, string]>([
      ['an integer is a number', 42, 'number'],
      ['a decimal is a number', 3.5, 'number'],
      ['true is a boolean', true, 'boolean'],
      ['false is a boolean', false, 'boolean'],
      ['YYYY-MM-DD is a date', '2024-01-05', 'date'],
      ['YYYY-MM-DDTHH:MM:SSZ is a date', '2024-01-05T10:00:00Z', 'date'],
      ['YYYY-MM-DDTHH:MM:SS.sssZ is a date', '2024-01-05T10:00:00.123Z', 'date'],
      ['a day/month/year with slashes is a string', '12/03/2024', 'string'],
      ['a numeric-looking JSON string is a string', '42', 'string'],
      ['a word is a string', 'gold', 'string'],
    ])('type is inferred from the first non-null value: %s', async (_rule, value, type) => {
      const api = await project();
      await api.upsert('ada@example.com', { f: value });
      expect(await api.field('data.f')).toEqual({ field: 'data.f', type, isCustom: true, coverage: 1 });
    });

    it('the type stays fixed: a later string for a number field is stored but the field keeps type number', async () => {
      const api = await project();
      await api.upsert('ada@example.com', { score: 5 });
      const bob = await api.upsert('bob@example.com', { score: 'high' });
      expect(bob.data).toEqual({ score: 'high' });
      expect((await api.field('data.score'))!.type).toBe('number');
      await api.patch(`/contacts/${bob.id}`, { data: { score: '2024-01-05' } });
      expect((await api.field('data.score'))!.type).toBe('number');
    });

    it('null never fixes a type: the first non-null value does', async () => {
      const api = await project();
      const ada = await api.upsert('ada@example.com', { since: null });
      expect(await api.field('data.since')).toBeUndefined();
      await api.patch(`/contacts/${ada.id}`, { data: { since: '2024-01-05' } });
      expect((await api.field('data.since'))!.type).toBe('date');
    });

    it('lists the standard fields and the coverage of each custom field as a share 0..1 (1 of 4 → 0.25)', async () => {
      const api = await project();
      expect(await api.fields()).toEqual([
        { field: 'email', type: 'string', isCustom: false, coverage: 0 },
        { field: 'subscribed', type: 'boolean', isCustom: false, coverage: 0 },
        { field: 'createdAt', type: 'date', isCustom: false, coverage: 0 },
        { field: 'updatedAt', type: 'date', isCustom: false, coverage: 0 },
      ]);
      await api.upsert('a@example.com', { plan: 'gold', city: 'Berlin' });
      await api.upsert('b@example.com', { city: 'Paris' });
      await api.upsert('c@example.com', { city: 'Rome' });
      await api.upsert('d@example.com');
      const fields = await api.fields();
      expect(fields.filter((f) => !f.isCustom).map((f) => [f.field, f.coverage])).toEqual([
        ['email', 1],
        ['subscribed', 1],
        ['createdAt', 1],
        ['updatedAt', 1],
      ]);
      expect(fields.filter((f) => f.isCustom)).toEqual([
        { field: 'data.city', type: 'string', isCustom: true, coverage: 0.75 },
        { field: 'data.plan', type: 'string', isCustom: true, coverage: 0.25 },
      ]);
    });

    it('GET /contacts/fields/:field/values lists the distinct values with counts, most common first', async () => {
      const api = await project();
      for (const [email, plan] of [
        ['a', 'gold'],
        ['b', 'free'],
        ['c', 'gold'],
        ['d', 'gold'],
        ['e', 'pro'],
        ['f', 'free'],
      ] as const) {
        await api.upsert(`${email}@example.com`, { plan, profile: { tier: plan === 'gold' ? 'vip' : 'std' } });
      }
      await api.upsert('g@example.com');
      const res = await api.get('/contacts/fields/data.plan/values');
      expect(res.status).toBe(200);
      expect(res.body.data).toEqual([
        { value: 'gold', count: 3 },
        { value: 'free', count: 2 },
        { value: 'pro', count: 1 },
      ]);
      expect(res.body.total).toBe(3);
      expect((await api.get('/contacts/fields/data.profile.tier/values')).body.data).toEqual([
        { value: 'std', count: 3 }, // a tie: by value
        { value: 'vip', count: 3 },
      ]);
    });

    it('an unknown field is 404 for values, usage and delete', async () => {
      const api = await project();
      await api.upsert('ada@example.com', { plan: 'gold' });
      for (const res of [
        await api.get('/contacts/fields/data.nope/values'),
        await api.get('/contacts/fields/data.nope/usage'),
        await api.delete('/contacts/fields/data.nope'),
      ]) {
        expect(res.status).toBe(404);
        expect(res.body.error.code).toBe('FIELD_NOT_FOUND');
      }
    });

    it('GET /contacts/fields/data.plan/usage is {segments:[],campaigns:[],workflows:[]}', async () => {
      const api = await project();
      await api.upsert('ada@example.com', { plan: 'gold' });
      const res = await api.get('/contacts/fields/data.plan/usage');
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ segments: [], campaigns: [], workflows: [] });
    });

    it('DELETE /contacts/fields/data.plan is 202; the field leaves /contacts/fields at once and, eventually, every contact', async () => {
      const api = await project();
      const contacts = [
        await api.upsert('a@example.com', { plan: 'gold', city: 'Berlin' }),
        await api.upsert('b@example.com', { plan: 'free' }),
        await api.upsert('c@example.com', { city: 'Rome' }),
      ];
      const res = await api.delete('/contacts/fields/data.plan');
      expect(res.status).toBe(202);
      expect(res.body).toMatchObject({ jobId: expect.any(String), status: 'queued' });
      expect((await api.fields()).map((f) => f.field)).not.toContain('data.plan');
      expect((await api.get('/contacts/fields/data.plan/values')).status).toBe(404);
      await eventually(
        async () => (await Promise.all(contacts.map((c) => api.contact(c.id)))).every((c) => !('plan' in c.data)),
        {
          timeoutMs: 45_000,
          message: 'data.plan was not removed from every contact',
        },
      );
      expect((await Promise.all(contacts.map((c) => api.contact(c.id)))).map((c) => c.data)).toEqual([
        { city: 'Berlin' },
        {},
        { city: 'Rome' },
      ]);
      expect(await api.field('data.city')).toMatchObject({ coverage: 0.6667 });
      // the field comes back when it is written again
      await api.upsert('d@example.com', { plan: 7 });
      expect(await api.field('data.plan')).toMatchObject({ type: 'number', coverage: 0.25 });
    });

    it('only custom fields can be deleted', async () => {
      const api = await project();
      await api.upsert('ada@example.com');
      expect((await api.delete('/contacts/fields/email')).status).toBe(422);
    });
  });

  describe('CSV import: POST /contacts/import', () => {
    it('types every cell by the import rules: ISO dates stay date strings, yes/no/true/false booleans, plain numbers numbers, leading zero, plus and exponent stay strings', async () => {
      const api = await project();
      const job = await api.importAndWait(
        csv(
          [
            'email',
            'day',
            'at',
            'atMs',
            'slashDay',
            'yes',
            'No',
            'TRUE',
            'false',
            'visits',
            'score',
            'negative',
            'zip',
            'phone',
            'sci',
            'word',
          ],
          [
            'ada@example.com',
            '2024-01-05',
            '2024-01-05T10:00:00Z',
            '2024-01-05T10:00:00.123Z',
            '12/03/2024',
            'YES',
            'No',
            'TRUE',
            'false',
            '42',
            '3.14',
            '-7',
            '02134',
            '+4915112345678',
            '1e5',
            'gold',
          ],
          [
            'bob@example.com',
            '',
            '',
            '',
            '',
            'yes',
            'NO',
            'True',
            'FaLsE',
            '0',
            '0.5',
            '-0.5',
            '007',
            '+1',
            '2.5E-3',
            ' padded ',
          ],
        ),
      );
      expect(job).toMatchObject({ status: 'completed', totalRows: 2, imported: 2, updated: 0, skipped: 0, errors: [] });
      const [ada, bob] = await Promise.all(
        ['ada', 'bob'].map(
          async (n) =>
            (await api.post('/contacts/lookup', { emails: [`${n}@example.com`] })).body.found[0].id as string,
        ),
      );
      expect((await api.contact(ada!)).data).toEqual({
        day: '2024-01-05',
        at: '2024-01-05T10:00:00Z',
        atMs: '2024-01-05T10:00:00.123Z',
        slashDay: '12/03/2024',
        yes: true,
        No: false,
        TRUE: true,
        false: false,
        visits: 42,
        score: 3.14,
        negative: -7,
        zip: '02134',
        phone: '+4915112345678',
        sci: '1e5',
        word: 'gold',
      });
      expect((await api.contact(bob!)).data).toEqual({
        yes: true,
        No: false,
        TRUE: true,
        false: false,
        visits: 0,
        score: 0.5,
        negative: -0.5,
        zip: '007',
        phone: '+1',
        sci: '2.5E-3',
        word: 'padded',
      });
      const types = Object.fromEntries((await api.fields()).filter((f) => f.isCustom).map((f) => [f.field, f.type]));
      expect(types).toEqual({
        'data.day': 'date',
        'data.at': 'date',
        'data.atMs': 'date',
        'data.slashDay': 'string',
        'data.yes': 'boolean',
        'data.No': 'boolean',
        'data.TRUE': 'boolean',
        'data.false': 'boolean',
        'data.visits': 'number',
        'data.score': 'number',
        'data.negative': 'number',
        'data.zip': 'string',
        'data.phone': 'string',
        'data.sci': 'string',
        'data.word': 'string',
      });
    });

    it('drops the columns id, subscribed, createdAt, updatedAt and unsubscribeUrl; imported contacts are subscribed', async () => {
      const api = await project();
      const job = await api.importAndWait(
        csv(
          ['id', 'Email', 'subscribed', 'createdAt', 'updatedAt', 'unsubscribeUrl', 'plan'],
          ['cnt_forged', 'Ada@Example.com', 'false', '2020-01-01', '2020-01-02', 'https://evil.example/u', 'gold'],
        ),
      );
      expect(job).toMatchObject({ status: 'completed', imported: 1, errors: [] });
      const [ada] = await api.allContacts();
      expect(ada).toMatchObject({ email: 'ada@example.com', subscribed: true, data: { plan: 'gold' } });
      expect(ada!.id).not.toBe('cnt_forged');
      expect(ada!.createdAt.startsWith('2020')).toBe(false);
      expect((await api.fields()).filter((f) => f.isCustom).map((f) => f.field)).toEqual(['data.plan']);
    });

    it('reports rows with a missing or invalid email as errors {row, email, reason:invalid_email} and skips them', async () => {
      const api = await project();
      const job = await api.importAndWait(
        csv(
          ['email', 'plan'],
          ['ada@example.com', 'gold'],
          ['', 'free'],
          ['not-an-email', 'pro'],
          ['bob@example.com', 'gold'],
          ['ada@@example.com', 'x'],
        ),
      );
      expect(job).toMatchObject({ status: 'completed', totalRows: 5, imported: 2, updated: 0, skipped: 3 });
      expect(job.errors).toEqual([
        { row: 3, email: '', reason: 'invalid_email' },
        { row: 4, email: 'not-an-email', reason: 'invalid_email' },
        { row: 6, email: 'ada@@example.com', reason: 'invalid_email' },
      ]);
      expect((await api.allContacts()).map((c) => c.email).sort()).toEqual(['ada@example.com', 'bob@example.com']);
    });

    it('patches the data of an existing contact (keys not in the CSV stay, subscription kept); running the same file again updates in place', async () => {
      const api = await project();
      const ada = await api.upsert('ada@example.com', { city: 'Berlin', plan: 'free' }, { subscribed: false });
      const file = csv(
        ['email', 'plan', 'visits'],
        ['ADA@example.com', 'gold', '3'],
        ['bob@example.com', 'pro', '1'],
        ['carol@example.com', 'free', ''],
      );
      const first = await api.importAndWait(file);
      expect(first).toMatchObject({
        status: 'completed',
        totalRows: 3,
        imported: 2,
        updated: 1,
        skipped: 0,
        errors: [],
      });
      expect(await api.contact(ada.id)).toMatchObject({
        email: 'ada@example.com',
        subscribed: false,
        data: { city: 'Berlin', plan: 'gold', visits: 3 },
      });

      const again = await api.importAndWait(file);
      expect(again).toMatchObject({
        status: 'completed',
        totalRows: 3,
        imported: 0,
        updated: 3,
        skipped: 0,
        errors: [],
      });
      const all = await api.allContacts();
      expect(all.map((c) => c.email).sort()).toEqual(['ada@example.com', 'bob@example.com', 'carol@example.com']);
      expect(Object.fromEntries(all.map((c) => [c.email, c.data]))).toEqual({
        'ada@example.com': { city: 'Berlin', plan: 'gold', visits: 3 },
        'bob@example.com': { plan: 'pro', visits: 1 },
        'carol@example.com': { plan: 'free' },
      });
    });

    it('GET /contacts/import/:jobId goes from queued to completed with totalRows, imported, updated, skipped, errors and progress', async () => {
      const api = await project();
      const rows = Array.from({ length: 1500 }, (_, i) => [`user${i}@example.com`, String(i)]);
      const started = await api.importCsv(csv(['email', 'n'], ...rows, ['broken', '1']));
      expect(started.status).toBe(202);
      expect(started.body).toEqual({ jobId: expect.stringMatching(/^imp_/), status: 'queued' });
      const seen = new Set<string>();
      const done = await eventually(
        async () => {
          const res = await api.get<ImportJobBody>(`/contacts/import/${started.body.jobId}`);
          expect(res.status).toBe(200);
          seen.add(res.body.status);
          return res.body.status === 'completed' ? res.body : undefined;
        },
        { timeoutMs: 20_000, intervalMs: 20 },
      );
      expect([...seen].every((s) => s === 'queued' || s === 'completed')).toBe(true);
      expect(done).toMatchObject({
        jobId: started.body.jobId,
        status: 'completed',
        totalRows: 1501,
        imported: 1500,
        updated: 0,
        skipped: 1,
        errors: [{ row: 1502, email: 'broken', reason: 'invalid_email' }],
        progress: { processedRows: 1501, percent: 100 },
      });
      expect((await api.get<CursorPageBody<ContactBody>>('/contacts?limit=1')).body.total).toBe(1500);
      const unknown = await api.get<ErrorBody>(`/contacts/import/imp_unknown`);
      expect(unknown.status).toBe(404);
      expect(unknown.body.error.code).toBe('IMPORT_JOB_NOT_FOUND');
    });

    it('refuses a file over 5 MB with 413 and imports nothing', async () => {
      const api = await project();
      const row = `someone@example.com,${'x'.repeat(200)}\n`;
      const big = `email,pad\n${row.repeat(Math.ceil((5 * 1024 * 1024) / row.length) + 10)}`;
      expect(Buffer.byteLength(big)).toBeGreaterThan(5 * 1024 * 1024);
      const res = await api.importCsv(big);
      expect(res.status).toBe(413);
      expect(res.body.error.code).toBe('PAYLOAD_TOO_LARGE');
      expect((await api.get<CursorPageBody<ContactBody>>('/contacts')).body.total).toBe(0);
    });

    it('accepts a file of just under 5 MB', async () => {
      const api = await project();
      const header = 'email,pad\n';
      const row = `someone@example.com,${'x'.repeat(200)}\n`;
      const file = header + row.repeat(Math.floor((5 * 1024 * 1024 - header.length) / row.length));
      expect(Buffer.byteLength(file)).toBeLessThanOrEqual(5 * 1024 * 1024);
      const res = await api.importCsv(file);
      expect(res.status).toBe(202);
      const job = await api.waitForJob<ImportJobBody>(`/contacts/import/${res.body.jobId}`);
      expect(job).toMatchObject({ status: 'completed', imported: 1, skipped: 0 });
      expect((await api.allContacts()).map((c) => c.email)).toEqual(['someone@example.com']);
    }, 120_000); // a 5 MB upload and its job on a loaded machine: deadlines, not speed targets

    it.each<[string, string | Uint8Array]>([
      ['non-UTF-8 bytes', Uint8Array.from([...Buffer.from('email,city\nada@example.com,'), 0xe9, 0x74, 0xe9, 0x0a])],
      ['no email column', csv(['mail', 'plan'], ['ada@example.com', 'gold'])],
      ['an empty file', ''],
    ])('refuses %s with 422 and imports nothing', async (_label, file) => {
      const api = await project();
      const res = await api.importCsv(file);
      expect(res.status).toBe(422);
      expect(res.body.error.code).toBe('VALIDATION_ERROR');
      expect((await api.get<CursorPageBody<ContactBody>>('/contacts')).body.total).toBe(0);
    });

    it('refuses a request without a file part (422 for multipart without a file, 415 for JSON)', async () => {
      const api = await project();
      const form = new FormData();
      form.append('note', 'no file here');
      expect((await api.multipart(form)).status).toBe(422);
      const json = await api.post('/contacts/import', { file: 'email\nada@example.com\n' });
      expect([415, 422]).toContain(json.status);
    });
  });

  describe('bulk jobs', () => {
    it('bulk-unsubscribe answers 202 {jobId} and completes with succeeded, unchanged (already unsubscribed) and failed (not_found) counts', async () => {
      const api = await project();
      const ada = await api.upsert('ada@example.com');
      const bob = await api.upsert('bob@example.com', {}, { subscribed: false });
      const started = await api.post('/contacts/bulk-unsubscribe', { contactIds: [ada.id, bob.id, 'cnt_unknown'] });
      expect(started.status).toBe(202);
      expect(started.body).toMatchObject({ jobId: expect.any(String) });
      const job = await api.waitForJob<BulkJobBody>(`/contacts/bulk/${started.body.jobId}`);
      expect(job).toMatchObject({
        status: 'completed',
        total: 3,
        succeeded: 1,
        unchanged: 1,
        failed: 1,
        errors: [{ contactId: 'cnt_unknown', reason: 'not_found' }],
      });
      expect((await api.contact(ada.id)).subscribed).toBe(false);
      expect((await api.contact(bob.id)).subscribed).toBe(false);
    });

    it('bulk-subscribe and bulk-unsubscribe emit contact.subscribed / contact.unsubscribed for the contacts that changed', async () => {
      const api = await project();
      const ada = await api.upsert('ada@example.com');
      const bob = await api.upsert('bob@example.com', {}, { subscribed: false });
      const topics = ['contact.subscribed', 'contact.unsubscribed'];
      expect(await api.bulk('unsubscribe', [ada.id, bob.id])).toMatchObject({
        status: 'completed',
        succeeded: 1,
        unchanged: 1,
        failed: 0,
      });
      expect((await outbox.events(topics, [ada.id, bob.id])).map((e) => [e.topic, e.contactId])).toEqual([
        ['contact.unsubscribed', ada.id],
      ]);
      expect(await api.bulk('subscribe', [ada.id, bob.id])).toMatchObject({
        status: 'completed',
        succeeded: 2,
        unchanged: 0,
        failed: 0,
      });
      const events = await outbox.events(topics, [ada.id, bob.id]);
      expect(events.map((e) => [e.topic, e.contactId])).toEqual([
        ['contact.unsubscribed', ada.id],
        ['contact.subscribed', ada.id],
        ['contact.subscribed', bob.id],
      ]);
      expect(events[2]!.payload).toMatchObject({ contactId: bob.id, email: 'bob@example.com' });
      expect((await api.allContacts('subscribed=true')).length).toBe(2);
    });

    it('bulk-delete removes the contacts', async () => {
      const api = await project();
      const [a, b, keep] = [
        await api.upsert('a@example.com'),
        await api.upsert('b@example.com'),
        await api.upsert('keep@example.com'),
      ];
      await api.track({ email: 'a@example.com', event: 'visited' });
      const job = await api.bulk('delete', [a.id, b.id, a.id, 'cnt_gone']);
      expect(job).toMatchObject({
        status: 'completed',
        succeeded: 2,
        failed: 1,
        errors: [{ contactId: 'cnt_gone', reason: 'not_found' }],
      });
      expect((await api.get(`/contacts/${a.id}`)).status).toBe(404);
      expect((await api.get(`/contacts/${b.id}`)).status).toBe(404);
      expect((await api.allContacts()).map((c) => c.id)).toEqual([keep.id]);
      expect((await api.get<CursorPageBody<TrackedEventBody>>('/events')).body.total).toBe(0);
    });

    it.each(['bulk-subscribe', 'bulk-unsubscribe', 'bulk-delete'])(
      '%s refuses 1001 ids and an empty list with 422, and accepts 1000',
      async (route) => {
        const api = await project();
        const ids = (n: number) => Array.from({ length: n }, (_, i) => `cnt_${i}`);
        for (const contactIds of [ids(1001), []]) {
          const res = await api.post<ErrorBody>(`/contacts/${route}`, { contactIds });
          expect(res.status).toBe(422);
          expect(fieldsOf(res.body)).toContain('contactIds');
        }
        expect((await api.post(`/contacts/${route}`, { contactIds: ids(1000) })).status).toBe(202);
      },
    );

    it('GET /contacts/bulk/:jobId of an unknown job is 404 BULK_JOB_NOT_FOUND', async () => {
      const api = await project();
      const res = await api.get<ErrorBody>('/contacts/bulk/blk_unknown');
      expect(res.status).toBe(404);
      expect(res.body.error.code).toBe('BULK_JOB_NOT_FOUND');
    });
  });

  describe('events: POST /v1/track', () => {
    it('answers {success:true, data:{contact, event, timestamp}} and creates a subscribed contact', async () => {
      const api = await project();
      const before = Date.now();
      const res = await api.track({ email: 'Ada@Example.com', event: 'signed-up', data: { plan: 'gold' } });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        success: true,
        data: {
          contact: expect.stringMatching(/^cnt_/),
          event: expect.stringMatching(/^evt_/),
          timestamp: expect.any(String),
        },
      });
      expect(Date.parse(res.body.data.timestamp)).toBeGreaterThanOrEqual(before - 1000);
      expect(await api.contact(res.body.data.contact)).toMatchObject({
        email: 'ada@example.com',
        subscribed: true,
        data: { plan: 'gold' },
      });
      const again = await api.track({ email: 'ada@example.com', event: 'logged-in' });
      expect(again.body.data.contact).toBe(res.body.data.contact);
    });

    it('concurrent tracks written together keep per-request semantics: one contact per email, every event, every data key, and a bad request fails alone', async () => {
      const api = await project();
      const emails = Array.from({ length: 20 }, (_, i) => `burst${i}@example.com`);
      const requests = Array.from({ length: 300 }, (_, i) => ({
        email: emails[i % emails.length]!,
        event: 'burst',
        data: { [`k${i}`]: i },
      }));
      const tooBig = { email: emails[0]!, event: 'burst', data: { blob: 'x'.repeat(70 * 1024) } };
      const answers = await Promise.all(
        [...requests.slice(0, 150), tooBig, ...requests.slice(150)].map((r) => api.track(r)),
      );
      expect(answers.filter((a) => a.status !== 200).map((a) => a.status)).toEqual([422]);
      const contacts = await api.allContacts();
      expect(contacts.map((c) => c.email).sort()).toEqual([...emails].sort());
      for (const c of contacts) {
        const own = requests.map((r, i) => [r, i] as const).filter(([r]) => r.email === c.email);
        expect(c.data).toEqual(Object.fromEntries(own.map(([, i]) => [`k${i}`, i])));
        expect(c.subscribed).toBe(true);
      }
      expect((await api.get('/events/stats')).body.total).toBe(300);
      const created = await outbox.events(
        ['contact.created'],
        contacts.map((c) => c.id),
      );
      expect(created).toHaveLength(20);
      expect(
        await outbox.events(
          ['event.tracked'],
          contacts.map((c) => c.id),
        ),
      ).toHaveLength(300);
    }, 180_000); // 300 concurrent requests on a loaded machine: a deadline, not a speed target

    it('lets browsers track with the public key: CORS preflight answered, answers readable, other routes not opened', async () => {
      const api = await project();
      const preflight = await fetch(`${herald.url}/v1/track`, {
        method: 'OPTIONS',
        headers: {
          origin: 'https://shop.example',
          'access-control-request-method': 'POST',
          'access-control-request-headers': 'authorization, content-type',
        },
      });
      expect(preflight.status).toBe(204);
      expect(preflight.headers.get('access-control-allow-origin')).toBe('*');
      expect(preflight.headers.get('access-control-allow-headers')).toContain('authorization');
      expect(preflight.headers.get('access-control-allow-credentials')).toBeNull();
      const tracked = await fetch(`${herald.url}/v1/track`, {
        method: 'POST',
        headers: {
          origin: 'https://shop.example',
          authorization: `Bearer ${api.publicKey}`,
          'content-type': 'application/json',
        },
        body: JSON.stringify({ email: 'browser@example.com', event: 'page-viewed' }),
      });
      expect(tracked.status).toBe(200);
      expect(tracked.headers.get('access-control-allow-origin')).toBe('*');
      const contacts = await fetch(`${herald.url}/contacts`, {
        headers: { origin: 'https://shop.example', authorization: `Bearer ${api.key}` },
      });
      expect(contacts.headers.get('access-control-allow-origin')).toBeNull();
    });

    it('a new contact is not subscribed when the request says subscribed:false', async () => {
      const api = await project();
      const res = await api.track({ email: 'ada@example.com', event: 'signed-up', subscribed: false });
      expect(res.status).toBe(200);
      expect((await api.contact(res.body.data.contact)).subscribed).toBe(false);
    });

    it.each(['email.opened', 'contact.subscribed', 'contact.unsubscribed', 'segment.entered', 'Email.Sent'])(
      'the reserved name %s is 422',
      async (event) => {
        const api = await project();
        const res = await api.track({ email: 'ada@example.com', event });
        expect(res.status).toBe(422);
        expect(fieldsOf(res.body)).toContain('event');
        expect((await api.get<CursorPageBody<ContactBody>>('/contacts')).body.total).toBe(0);
      },
    );

    it.each([
      ['email is missing', { event: 'signed-up' }, 'email'],
      ['email is invalid', { email: 'nope', event: 'signed-up' }, 'email'],
      ['event is missing', { email: 'ada@example.com' }, 'event'],
      ['event is empty', { email: 'ada@example.com', event: '' }, 'event'],
    ])('422 when %s', async (_label, body, field) => {
      const api = await project();
      const res = await api.track(body);
      expect(res.status).toBe(422);
      expect(fieldsOf(res.body)).toContain(field);
    });

    it('stores the event data with non-persistent values unwrapped, keeps them off the contact, and the event.tracked payload carries them', async () => {
      const api = await project();
      const res = await api.track({
        email: 'ada@example.com',
        event: 'purchased',
        data: { plan: 'gold', amount: 49.5, coupon: { value: 'SAVE10', persistent: false }, id: 'dropped' },
      });
      expect(res.status).toBe(200);
      const { contact, event } = res.body.data;
      expect((await api.contact(contact)).data).toEqual({ plan: 'gold', amount: 49.5 });
      const listed = await api.get<CursorPageBody<TrackedEventBody>>('/events');
      expect(listed.body.data).toEqual([
        {
          id: event,
          name: 'purchased',
          contactId: contact,
          data: { plan: 'gold', amount: 49.5, coupon: 'SAVE10' },
          system: false,
          createdAt: expect.any(String),
        },
      ]);
      const [tracked] = await outbox.events(['event.tracked'], [contact]);
      expect(tracked!.payload).toMatchObject({
        eventRecordId: event,
        contactId: contact,
        email: 'ada@example.com',
        name: 'purchased',
        data: { plan: 'gold', amount: 49.5, coupon: 'SAVE10' },
      });
    });

    it('a public key works on /v1/track (and only there)', async () => {
      const api = await project();
      const pub = new ProjectApi(herald.url, api.publicKey);
      const res = await pub.track({ email: 'ada@example.com', event: 'page-viewed' });
      expect(res.status).toBe(200);
      expect(res.body.success).toBe(true);
      expect((await pub.get('/contacts')).status).toBe(403);
      expect((await pub.post('/events/track', { email: 'ada@example.com', event: 'page-viewed' })).status).toBe(403);
      expect((await api.get('/events/names')).body).toEqual({ names: ['page-viewed'] });
    });

    it('POST /events/track (the dashboard alias) works with the secret key', async () => {
      const api = await project();
      const res = await api.post('/events/track', {
        email: 'ada@example.com',
        event: 'from-dashboard',
        data: { plan: 'gold' },
      });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({
        success: true,
        data: { contact: expect.any(String), event: expect.any(String) },
      });
      expect((await api.get('/events/names')).body).toEqual({ names: ['from-dashboard'] });
    });
  });

  describe('events: reading and deleting', () => {
    /** Tracks the given events one after the other; returns their event ids in order. */
    const trackAll = async (api: ProjectApi, events: [email: string, name: string][]) => {
      const ids: string[] = [];
      for (const [email, event] of events) {
        const res = await api.track({ email, event });
        expect(res.status).toBe(200);
        ids.push(res.body.data.event);
      }
      return ids;
    };

    it('GET /events walks cursor pages newest first, with total only on the first page', async () => {
      const api = await project();
      const ids = await trackAll(
        api,
        Array.from({ length: 7 }, (_, i): [string, string] => [`u${i % 3}@example.com`, `e${i % 2}`]),
      );
      const pages = await api.pages<TrackedEventBody>('/events', 3);
      for (const res of pages) expect(res.status).toBe(200);
      const seen = pages.flatMap((res) => res.body.data.map((e) => e.id));
      const totals = pages.map((res) => res.body.total);
      expect(seen).toEqual([...ids].reverse());
      expect(totals).toEqual([7, 0, 0]);
      expect((await api.get('/events?limit=101')).status).toBe(422);
      expect((await api.get('/events?cursor=garbage')).status).toBe(422);
    });

    it('GET /events/names lists the distinct names and GET /events/stats counts them', async () => {
      const api = await project();
      await trackAll(api, [
        ['a@example.com', 'signed-up'],
        ['b@example.com', 'signed-up'],
        ['a@example.com', 'purchased'],
        ['c@example.com', 'signed-up'],
      ]);
      expect((await api.get('/events/names')).body).toEqual({ names: ['purchased', 'signed-up'] });
      const stats = await api.get('/events/stats');
      expect(stats.status).toBe(200);
      expect(stats.body).toMatchObject({
        total: 4,
        last24Hours: 4,
        events: [
          { name: 'signed-up', count: 3, lastSeenAt: expect.any(String) },
          { name: 'purchased', count: 1, lastSeenAt: expect.any(String) },
        ],
      });
    });

    it('GET /events/contact/:contactId lists one contact’s events, and is 404 for another project’s contact', async () => {
      const api = await project();
      const other = await project();
      const [first, , third] = await trackAll(api, [
        ['ada@example.com', 'signed-up'],
        ['bob@example.com', 'signed-up'],
        ['ada@example.com', 'purchased'],
      ]);
      const ada = (await api.post('/contacts/lookup', { emails: ['ada@example.com'] })).body.found[0].id as string;
      const res = await api.get<CursorPageBody<TrackedEventBody>>(`/events/contact/${ada}`);
      expect(res.status).toBe(200);
      expect(res.body.data.map((e) => [e.id, e.name])).toEqual([
        [third, 'purchased'],
        [first, 'signed-up'],
      ]);
      expect(res.body.total).toBe(2);
      const foreign = await other.get<ErrorBody>(`/events/contact/${ada}`);
      expect(foreign.status).toBe(404);
      expect(foreign.body.error.code).toBe('CONTACT_NOT_FOUND');
      expect((await api.get('/events/contact/cnt_unknown')).status).toBe(404);
    });

    it('GET /events/:name/usage is {segments:[],campaigns:[],workflows:[]}', async () => {
      const api = await project();
      await trackAll(api, [['ada@example.com', 'signed-up']]);
      const res = await api.get('/events/signed-up/usage');
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ segments: [], campaigns: [], workflows: [] });
    });

    it('DELETE /events/:name answers {deleted:n} and the name is gone from /events/names', async () => {
      const api = await project();
      await trackAll(api, [
        ['a@example.com', 'signed-up'],
        ['b@example.com', 'signed-up'],
        ['a@example.com', 'purchased'],
      ]);
      const res = await api.delete('/events/signed-up');
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ deleted: 2 });
      expect((await api.get('/events/names')).body).toEqual({ names: ['purchased'] });
      expect((await api.get('/events/stats')).body.total).toBe(1);
      expect((await api.delete('/events/signed-up')).body).toEqual({ deleted: 0 });
      // contacts stay
      expect((await api.get<CursorPageBody<ContactBody>>('/contacts')).body.total).toBe(2);
    });
  });
});

import { startTopology, type Topology } from '@herald/testing';
import {
  csv,
  fieldsOf,
  newProject,
  ProjectApi,
  type ContactBody,
  type CursorPageBody,
  type ErrorBody,
} from './contacts-helpers.js';

/**
 * The contacts service's own rules on its records through the public HTTP API (spec: Rules for the
 * data object, Contacts endpoints, Limits): the data object, upsert by email, listing (pages, cursor,
 * search, exact totals) and lookup. Every test works in a project of its own. Standalone only: each
 * rule is answered by the contacts service alone, the same in either mode; contacts.e2e proves a
 * contact's way through the gateway and Kafka in both modes (test/architecture/e2e-both-modes.spec.ts).
 */
describe('contacts: the data object, upsert, listing and lookup (standalone)', () => {
  let herald: Topology;
  let owner: string;
  /** A new project of its own for each test (one account owns them all, so no password hashing per test). */
  const project = () => newProject(herald.url, owner);

  beforeAll(async () => {
    herald = await startTopology({ mode: 'standalone', env: { RATE_LIMIT_PER_MINUTE: '100000' } });
    owner = (await newProject(herald.url)).cookie;
  }, 480_000); // migrated and started on a loaded machine: a deadline, not a target

  afterAll(async () => {
    await herald?.stop();
  }, 60_000);

  describe('rules for the data object', () => {
    const RESERVED = ['id', 'svc_id', 'svc_email', 'email', 'unsubscribeUrl', 'subscribeUrl', 'manageUrl'];
    /** [rule, data the contact has, data sent, data the contact has afterwards] */
    const rules: [string, Record<string, unknown>, Record<string, unknown> | undefined, Record<string, unknown>][] = [
      ['a string is stored', {}, { plan: 'gold' }, { plan: 'gold' }],
      ['a number is stored (integer and decimal)', {}, { visits: 42, score: 9.5 }, { visits: 42, score: 9.5 }],
      ['zero is stored, not treated as empty', { visits: 3 }, { visits: 0 }, { visits: 0 }],
      ['a boolean is stored (true and false)', {}, { vip: true, trial: false }, { vip: true, trial: false }],
      ['a string replaces the stored value', { plan: 'free' }, { plan: 'gold' }, { plan: 'gold' }],
      ['null deletes the key', { plan: 'gold', city: 'Berlin' }, { plan: null }, { city: 'Berlin' }],
      ['an empty string is ignored and the existing value kept', { plan: 'gold' }, { plan: '' }, { plan: 'gold' }],
      ['an empty string does not create the key', {}, { plan: '' }, {}],
      [
        '{value, persistent:false} is not stored',
        { plan: 'gold' },
        { coupon: { value: 'SAVE10', persistent: false } },
        { plan: 'gold' },
      ],
      [
        '{value, persistent:false} does not overwrite the stored value',
        { plan: 'gold' },
        { plan: { value: 'trial', persistent: false } },
        { plan: 'gold' },
      ],
      ...RESERVED.map((key): [string, Record<string, unknown>, Record<string, unknown>, Record<string, unknown>] => [
        `the reserved key ${key} is silently dropped`,
        {},
        { [key]: 'x', plan: 'gold' },
        { plan: 'gold' },
      ]),
      [
        'a nested object is stored',
        {},
        { profile: { tier: 'gold', address: { city: 'Berlin' } } },
        { profile: { tier: 'gold', address: { city: 'Berlin' } } },
      ],
      ['locale is stored like any key', {}, { locale: 'de-DE' }, { locale: 'de-DE' }],
      [
        'data is patched: keys not sent keep their values',
        { plan: 'gold', city: 'Berlin' },
        { visits: 3 },
        { plan: 'gold', city: 'Berlin', visits: 3 },
      ],
      ['no data at all keeps every key', { plan: 'gold' }, undefined, { plan: 'gold' }],
    ];
    const writes: Record<
      string,
      (
        api: ProjectApi,
        contact: ContactBody,
        data: Record<string, unknown> | undefined,
      ) => Promise<{ status: number; body: ContactBody }>
    > = {
      'POST /contacts': (api, c, data) => api.post('/contacts', { email: c.email, ...(data ? { data } : {}) }),
      'PATCH /contacts/:id': (api, c, data) => api.patch(`/contacts/${c.id}`, data ? { data } : {}),
    };

    it.each(
      rules.flatMap(([rule, before, sent, after]) =>
        Object.keys(writes).map((route) => [route, rule, before, sent, after] as const),
      ),
    )('%s: %s', async (route, _rule, before, sent, after) => {
      const api = await project();
      const created = await api.upsert('ada@example.com', before);
      expect(created.data).toEqual(before);
      const res = await writes[route]!(api, created, sent);
      expect(res.status).toBe(200);
      expect(res.body.data).toEqual(after);
      expect((await api.contact(created.id)).data).toEqual(after);
    });

    it('reserved keys are dropped on create too, with no error', async () => {
      const api = await project();
      const res = await api.post<ContactBody>('/contacts', {
        email: 'ada@example.com',
        data: Object.fromEntries([...RESERVED.map((k) => [k, 'x']), ['plan', 'gold']]),
      });
      expect(res.status).toBe(201);
      expect(res.body.data).toEqual({ plan: 'gold' });
      expect((await api.fields()).filter((f) => f.isCustom).map((f) => f.field)).toEqual(['data.plan']);
    });

    it('a nested object is visible as data.profile.tier in GET /contacts/fields', async () => {
      const api = await project();
      await api.upsert('ada@example.com', { profile: { tier: 'gold' } });
      expect(await api.field('data.profile.tier')).toEqual({
        field: 'data.profile.tier',
        type: 'string',
        isCustom: true,
        coverage: 1,
      });
      expect(await api.field('data.profile')).toBeUndefined();
    });
  });

  describe('upsert by email', () => {
    it('answers 201 with _meta {isNew:true,isUpdate:false}, then 200 with {isNew:false,isUpdate:true}', async () => {
      const api = await project();
      const first = await api.post<ContactBody>('/contacts', { email: 'ada@example.com', data: { plan: 'free' } });
      expect(first.status).toBe(201);
      expect(first.body).toMatchObject({
        email: 'ada@example.com',
        subscribed: true,
        data: { plan: 'free' },
        _meta: { isNew: true, isUpdate: false },
      });
      expect(first.body.id).toMatch(/^cnt_/);
      const second = await api.post<ContactBody>('/contacts', { email: 'ada@example.com', data: { plan: 'gold' } });
      expect(second.status).toBe(200);
      expect(second.body).toMatchObject({
        id: first.body.id,
        data: { plan: 'gold' },
        _meta: { isNew: false, isUpdate: true },
      });
      expect((await api.get<ContactBody>(`/contacts/${first.body.id}`)).body._meta).toBeUndefined();
    });

    it('compares the email case-insensitively and stores it lower-case', async () => {
      const api = await project();
      const first = await api.post<ContactBody>('/contacts', { email: 'Ada.Lovelace@Example.COM' });
      expect(first.status).toBe(201);
      expect(first.body.email).toBe('ada.lovelace@example.com');
      const again = await api.post<ContactBody>('/contacts', {
        email: 'ADA.LOVELACE@example.com',
        data: { plan: 'gold' },
      });
      expect(again.status).toBe(200);
      expect(again.body.id).toBe(first.body.id);
      expect((await api.allContacts()).map((c) => c.email)).toEqual(['ada.lovelace@example.com']);
    });

    it('subscribed defaults to true on POST /contacts and keeps its state on a later upsert without it', async () => {
      const api = await project();
      expect((await api.upsert('ada@example.com')).subscribed).toBe(true);
      const off = await api.upsert('bob@example.com', {}, { subscribed: false });
      expect(off.subscribed).toBe(false);
      const later = await api.upsert('bob@example.com', { plan: 'gold' });
      expect(later.subscribed).toBe(false);
      expect((await api.contact(off.id)).subscribed).toBe(false);
      expect((await api.upsert('bob@example.com', {}, { subscribed: true })).subscribed).toBe(true);
    });
  });

  describe('listing: GET /contacts', () => {
    /** Creates `n` contacts one after the other (so created in that order); returns them oldest first. */
    const seed = async (
      api: ProjectApi,
      n: number,
      email = (i: number) => `user${String(i).padStart(2, '0')}@example.com`,
    ) => {
      const out: ContactBody[] = [];
      for (let i = 0; i < n; i++) out.push(await api.upsert(email(i)));
      return out;
    };

    it.each(['limit=0', 'limit=101', 'limit=-1', 'limit=abc'])('%s is 422', async (query) => {
      const api = await project();
      const res = await api.get<ErrorBody>(`/contacts?${query}`);
      expect(res.status).toBe(422);
      expect(fieldsOf(res.body)).toContain('limit');
    });

    it('pages by 20 by default, with limit 1 and 100 accepted', async () => {
      const api = await project();
      await seed(api, 22);
      const first = await api.get<CursorPageBody<ContactBody>>('/contacts');
      expect(first.status).toBe(200);
      expect(first.body.data).toHaveLength(20);
      expect(first.body).toMatchObject({ hasMore: true, total: 22 });
      expect((await api.get<CursorPageBody<ContactBody>>('/contacts?limit=1')).body.data).toHaveLength(1);
      expect((await api.get<CursorPageBody<ContactBody>>('/contacts?limit=100')).body).toMatchObject({
        hasMore: false,
        total: 22,
        cursor: null,
      });
    });

    it('walking the pages with cursor returns every contact exactly once, newest first; total only on the first page', async () => {
      const api = await project();
      const created = await seed(api, 11);
      const pages = await api.pages<ContactBody>('/contacts', 4);
      for (const res of pages) {
        expect(res.status).toBe(200);
        if (res.body.hasMore) expect(res.body.cursor).toEqual(expect.any(String));
      }
      const seen = pages.flatMap((res) => res.body.data.map((c) => c.id));
      const totals = pages.map((res) => res.body.total);
      expect(seen).toEqual(created.map((c) => c.id).reverse());
      expect(totals).toEqual([11, 0, 0]);
    });

    it('search is a case-insensitive substring of the email', async () => {
      const api = await project();
      await seed(api, 3, (i) => [`ada.lovelace@example.com`, 'grace@lovelace.org', 'bob@example.com'][i]!);
      const res = await api.get<CursorPageBody<ContactBody>>('/contacts?search=LoveLace');
      expect(res.body.data.map((c) => c.email).sort()).toEqual(['ada.lovelace@example.com', 'grace@lovelace.org']);
      expect(res.body.total).toBe(2);
      expect((await api.get<CursorPageBody<ContactBody>>('/contacts?search=%25')).body.data).toEqual([]); // a literal %, not a wildcard
    });

    it('subscribed=false lists only unsubscribed contacts (and subscribed=true the others)', async () => {
      const api = await project();
      const [a, b, c] = await seed(api, 3);
      await api.patch(`/contacts/${b!.id}`, { subscribed: false });
      const off = await api.get<CursorPageBody<ContactBody>>('/contacts?subscribed=false');
      expect(off.body.data.map((x) => x.id)).toEqual([b!.id]);
      expect(off.body.total).toBe(1);
      const on = await api.get<CursorPageBody<ContactBody>>('/contacts?subscribed=true');
      expect(on.body.data.map((x) => x.id)).toEqual([c!.id, a!.id]);
    });

    it('total stays exact through every write path, for small lists and for lists past the count probe (1 000 matches)', async () => {
      const api = await project();
      // 1 100 contacts: 1 050 …@bulk.test (past the probe), 50 …@few.test (under it)
      const rows = Array.from({ length: 1100 }, (_, i) => [i < 1050 ? `b${i}@bulk.test` : `f${i}@few.test`]);
      expect(await api.importAndWait(csv(['email'], ...rows))).toMatchObject({ status: 'completed', imported: 1100 });
      /** The contacts the project should have: email → subscribed. */
      const model = new Map(rows.map(([email]) => [email!, true]));
      const expectTotals = async (step: string) => {
        const want = (search: string, subscribed?: boolean) =>
          [...model].filter(
            ([email, sub]) => email.includes(search) && (subscribed === undefined || sub === subscribed),
          ).length;
        const cases: [string, number][] = [
          ['', model.size],
          ['search=bulk', want('bulk')],
          ['search=few', want('few')],
          ['search=%40', want('@')],
          ['subscribed=false', want('', false)],
          ['subscribed=true&search=bulk', want('bulk', true)],
          ['subscribed=false&search=few', want('few', false)],
        ];
        for (const [query, total] of cases) {
          const res = await api.get<CursorPageBody<ContactBody>>(`/contacts?limit=1&${query}`);
          expect([step, query, res.status, res.body.total]).toEqual([step, query, 200, total]);
        }
      };
      await expectTotals('after the import');

      const listed = async (search: string) =>
        (await api.get<CursorPageBody<ContactBody>>(`/contacts?limit=100&search=${search}`)).body.data;
      const [b0, b1, b2] = await listed('b100');
      await api.track({ email: 'new@bulk.test', event: 'seen' });
      await api.track({ email: 'quiet@few.test', event: 'seen', subscribed: false });
      await api.upsert('b5@bulk.test', { plan: 'pro' }); // a data patch: no change to what is counted
      model.set('new@bulk.test', true).set('quiet@few.test', false);
      await expectTotals('after /v1/track and an upsert');

      expect((await api.patch(`/contacts/${b0!.id}`, { email: 'moved@few.test' })).status).toBe(200);
      expect((await api.patch(`/contacts/${b1!.id}`, { subscribed: false })).status).toBe(200);
      model.delete(b0!.email);
      model.set('moved@few.test', true).set(b1!.email, false);
      await expectTotals('after PATCH of an email and of a subscription');

      const few = await listed('few');
      expect(
        await api.bulk(
          'unsubscribe',
          few.slice(0, 10).map((c) => c.id),
        ),
      ).toMatchObject({ status: 'completed' });
      for (const c of few.slice(0, 10)) model.set(c.email, false);
      await expectTotals('after bulk-unsubscribe');

      expect((await api.delete(`/contacts/${b2!.id}`)).status).toBe(200);
      expect(
        await api.bulk(
          'delete',
          few.slice(10, 15).map((c) => c.id),
        ),
      ).toMatchObject({ status: 'completed', succeeded: 5 });
      for (const c of [b2!, ...few.slice(10, 15)]) model.delete(c.email);
      await expectTotals('after DELETE and bulk-delete');

      expect(await api.importAndWait(csv(['email'], ['b7@bulk.test'], ['late@few.test']))).toMatchObject({
        status: 'completed',
        imported: 1,
        updated: 1,
      });
      model.set('late@few.test', true);
      await expectTotals('after a second import');
    }, 60_000);

    const tamperedIs422 = async (list: string, tamper: (real: string) => string) => {
      const api = await project();
      for (let i = 0; i < 3; i++) await api.track({ email: `u${i}@example.com`, event: 'seen' });
      const real = (await api.get<CursorPageBody<unknown>>(`${list}?limit=1`)).body.cursor!;
      const res = await api.get<ErrorBody>(`${list}?limit=1&cursor=${encodeURIComponent(tamper(real))}`);
      expect(res.status).toBe(422);
      expect(fieldsOf(res.body)).toContain('cursor');
    };
    const forged = (k: unknown) => Buffer.from(JSON.stringify({ k, id: 'cnt_x' })).toString('base64url');

    it.each([
      ['not base64 JSON at all', () => 'definitely-not-a-cursor'],
      ['a real cursor with its last characters changed', (real: string) => `${real.slice(0, -4)}AAAA`],
      ['JSON without a position', () => Buffer.from(JSON.stringify({ id: 'cnt_x' })).toString('base64url')],
    ])('a tampered cursor (%s) is 422', (_label, tamper) => tamperedIs422('/contacts', tamper));

    it.each([
      ['/contacts', 'a position that is not a timestamp', forged('not-a-timestamp')],
      ['/contacts', 'a numeric position', forged(12345)],
      ['/events', 'a position that is not a timestamp', forged('not-a-timestamp')],
    ])('a tampered cursor on %s (well-formed JSON with %s) is 422, not 500', (list, _label, cursor) =>
      tamperedIs422(list, () => cursor),
    );
  });

  describe('POST /contacts/lookup', () => {
    it('answers {found:[{id,email,subscribed}], notFound:[…]}, matching emails case-insensitively', async () => {
      const api = await project();
      const ada = await api.upsert('ada@example.com');
      const bob = await api.upsert('bob@example.com', {}, { subscribed: false });
      const res = await api.post('/contacts/lookup', {
        emails: ['ADA@example.com', 'bob@example.com', 'nobody@example.com'],
      });
      expect(res.status).toBe(200);
      expect(res.body.notFound).toEqual(['nobody@example.com']);
      expect(
        [...res.body.found].sort((x: { email: string }, y: { email: string }) => x.email.localeCompare(y.email)),
      ).toEqual([
        { id: ada.id, email: 'ada@example.com', subscribed: true },
        { id: bob.id, email: 'bob@example.com', subscribed: false },
      ]);
    });

    it('accepts 500 emails and refuses 501 or 0 with 422', async () => {
      const api = await project();
      const emails = (n: number) => Array.from({ length: n }, (_, i) => `u${i}@example.com`);
      const ok = await api.post('/contacts/lookup', { emails: emails(500) });
      expect(ok.status).toBe(200);
      expect(ok.body.notFound).toHaveLength(500);
      for (const body of [{ emails: emails(501) }, { emails: [] }, {}]) {
        const res = await api.post<ErrorBody>('/contacts/lookup', body);
        expect(res.status).toBe(422);
        expect(fieldsOf(res.body)).toContain('emails');
      }
    });
  });
});

import { EmailOpened } from '@herald/contracts';
import { e2eMode, eventually, startTopology, testReport, type Topology } from '@herald/testing';
import { fieldsOf, newProject, refusalOf, type ErrorBody, type TestProjectApi } from './contacts-helpers.js';
import {
  createSegment,
  entered,
  exited,
  memberIds,
  SegmentsOutbox,
  where,
  type SegmentBody,
} from './segments-helpers.js';

/**
 * Segments through the public API (spec: Segment, the filter object, the Segments endpoints,
 * Events 3; docs/segments.md): the routes and their rules, isolation, live listings, static members,
 * entry and exit as contacts change, the sweep, compute and refresh. Runs in the run's mode
 * (HERALD_E2E_MODE: one standalone process, or every service its own process over Kafka behind the
 * gateway; libs/testing `startTopology`). The sweep runs every second here: a setting of this file's
 * own, so its topology is exclusive.
 *
 * Entry and exit are real-time: these tests wait for them with a deadline far above the one-second
 * target (events cross Kafka in distributed mode) and report the latency seen (`testReport`: the
 * run's figures); the target itself (p99 under one second while /v1/track runs at 1,000 requests/s) is
 * measured by bench/segments, where a loaded CI machine cannot fail it by chance.
 */
const PROMPT_DEADLINE_MS = 30_000;
const reportLatency = (what: string, since: number) => testReport(`segments e2e: ${what} in ${Date.now() - since} ms`);

describe(`segments through the public API (${e2eMode()})`, () => {
  let herald: Topology;
  let outbox: SegmentsOutbox;
  let owner: string;
  const project = () => newProject(herald.url, owner);

  beforeAll(async () => {
    herald = await startTopology({
      exclusive: true,
      env: { RATE_LIMIT_PER_MINUTE: '100000', SEGMENTS_SWEEP_INTERVAL_MS: '1000' },
    });
    outbox = new SegmentsOutbox(herald.db.url);
    owner = (await newProject(herald.url)).cookie;
  }, 240_000);

  afterAll(async () => {
    await outbox?.end();
    await herald?.stop();
  }, 60_000);

  /** Contacts written through the API, waited for in a dynamic segment's listing (the read model is fed asynchronously). */
  async function contactsIn(api: TestProjectApi, segmentId: string, n: number): Promise<string[]> {
    return eventually(
      async () => {
        const ids = await memberIds(api, segmentId);
        return ids.length === n ? ids : undefined;
      },
      { timeoutMs: PROMPT_DEADLINE_MS },
    );
  }

  describe('create, read, change, delete', () => {
    it('POST /segments answers 201 with the segment (DYNAMIC by default, filters echoed as sent, also as condition)', async () => {
      const api = await project();
      const filters = { operator: 'AND', conditions: [{ field: 'data.age', operator: 'gt', value: 30 }] };
      const res = await api.post<SegmentBody>('/segments', { name: 'Over 30', filters });
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({
        name: 'Over 30',
        description: null,
        type: 'DYNAMIC',
        filters,
        condition: filters,
        trackMembership: false,
        memberCount: 0,
      });
      expect(res.body.id).toMatch(/^seg_/);
      expect((await api.get(`/segments/${res.body.id}`)).body).toMatchObject({ id: res.body.id, filters });
      const list = await api.get<SegmentBody[]>('/segments');
      expect(list.status).toBe(200);
      expect(list.body.map((s) => s.id)).toEqual([res.body.id]);
    });

    it('accepts the filter under the name condition, and a STATIC segment without one', async () => {
      const api = await project();
      const dynamic = await createSegment(api, { name: 'c', condition: where('subscribed', 'equals', true) });
      expect(dynamic.filters).toEqual(where('subscribed', 'equals', true));
      const stat = await createSegment(api, { name: 's', type: 'STATIC', description: 'hand-picked' });
      expect(stat).toMatchObject({ type: 'STATIC', filters: null, description: 'hand-picked', memberCount: 0 });
    });

    it('refuses with 422 on the field: a DYNAMIC segment without a filter, a STATIC one with one, names over 100 and descriptions over 500 characters', async () => {
      const api = await project();
      const cases: [Record<string, unknown>, string][] = [
        [{ name: 'x' }, 'filters'],
        [{ name: 'x', type: 'STATIC', filters: where('subscribed', 'equals', true) }, 'filters'],
        [{ name: 'x'.repeat(101), filters: where('subscribed', 'equals', true) }, 'name'],
        [{ name: 'x', description: 'd'.repeat(501), filters: where('subscribed', 'equals', true) }, 'description'],
        [{ name: 'x', type: 'SMART', filters: where('subscribed', 'equals', true) }, 'type'],
        [{ filters: where('subscribed', 'equals', true) }, 'name'],
      ];
      for (const [body, field] of cases) {
        const res = await api.post<ErrorBody>('/segments', body);
        expect([res.status, [...new Set(fieldsOf(res.body))]]).toEqual([422, [field]]);
      }
      expect(
        (await api.post('/segments', { name: 'x'.repeat(100), filters: where('subscribed', 'equals', true) })).status,
      ).toBe(201);
    });

    it('an invalid filter is a 422 whose errors point at the bad part (filters.conditions[1].value)', async () => {
      const api = await project();
      const res = await api.post<ErrorBody>('/segments', {
        name: 'bad',
        filters: {
          operator: 'AND',
          conditions: [
            { field: 'data.plan', operator: 'equals', value: 'pro' },
            { field: 'data.age', operator: 'gt', value: 'abc' },
          ],
        },
      });
      expect(res.status).toBe(422);
      expect(fieldsOf(res.body)).toEqual(['filters.conditions[1].value']);
      const cond = await api.post<ErrorBody>('/segments', {
        name: 'bad',
        condition: { operator: 'XOR', conditions: [] },
      });
      expect(cond.status).toBe(422);
      expect(fieldsOf(cond.body)[0]).toMatch(/^condition/);
    });

    it('PATCH changes name, description, condition and trackMembership; a condition on a STATIC segment is a 422', async () => {
      const api = await project();
      const s = await createSegment(api, { name: 'a', filters: where('subscribed', 'equals', true) });
      const res = await api.patch<SegmentBody>(`/segments/${s.id}`, {
        name: 'b',
        description: 'now described',
        condition: where('subscribed', 'equals', false),
        trackMembership: true,
      });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({
        name: 'b',
        description: 'now described',
        filters: where('subscribed', 'equals', false),
        trackMembership: true,
      });
      const stat = await createSegment(api, { name: 's', type: 'STATIC' });
      const refused = await api.patch<ErrorBody>(`/segments/${stat.id}`, {
        condition: where('subscribed', 'equals', true),
      });
      expect([refused.status, fieldsOf(refused.body)]).toEqual([422, ['condition']]);
      const long = await api.patch<ErrorBody>(`/segments/${s.id}`, { name: 'n'.repeat(101) });
      expect([long.status, fieldsOf(long.body)]).toEqual([422, ['name']]);
    });

    it('DELETE removes the segment (then 404); a segment another filter references is a 409 until that filter lets go', async () => {
      const api = await project();
      const base = await createSegment(api, { name: 'base', filters: where('subscribed', 'equals', true) });
      const user = await createSegment(api, { name: 'user', filters: where(`segment.${base.id}`, 'isMember') });
      const refused = await api.delete<ErrorBody>(`/segments/${base.id}`);
      expect([refused.status, refused.body.error.code]).toEqual([409, 'SEGMENT_REFERENCED']);
      expect((await api.delete(`/segments/${user.id}`)).body).toEqual({ success: true });
      expect((await api.delete(`/segments/${base.id}`)).status).toBe(200);
      expect((await api.get<ErrorBody>(`/segments/${base.id}`)).status).toBe(404);
    });

    it.each([false, true])(
      'a reference cycle is refused with 422 (segments tracking membership: %s)',
      async (track) => {
        const api = await project();
        const a = await createSegment(api, {
          name: 'a',
          filters: where('subscribed', 'equals', true),
          trackMembership: track,
        });
        const b = await createSegment(api, {
          name: 'b',
          filters: where(`segment.${a.id}`, 'isMember'),
          trackMembership: track,
        });
        const res = await api.patch<ErrorBody>(`/segments/${a.id}`, {
          condition: where(`segment.${b.id}`, 'isMember'),
        });
        expect(res.status).toBe(422);
        expect(res.body.error.errors?.[0]?.code).toBe('FILTER_SEGMENT_CYCLE');
      },
    );
  });

  describe('isolation', () => {
    it("another project's segment is a 404 on every route, as is an unknown id", async () => {
      const mine = await project();
      const theirs = await project();
      const s = await createSegment(theirs, { name: 'theirs', type: 'STATIC' });
      for (const id of [s.id, 'seg_unknown']) {
        const answers = [
          await mine.get(`/segments/${id}`),
          await mine.patch(`/segments/${id}`, { name: 'x' }),
          await mine.get(`/segments/${id}/contacts`),
          await mine.post(`/segments/${id}/members`, { emails: ['a@example.com'] }),
          await mine.call('DELETE', `/segments/${id}/members`, { emails: ['a@example.com'] }),
          await mine.post(`/segments/${id}/compute`),
          await mine.post(`/segments/${id}/refresh`),
          await mine.delete(`/segments/${id}`),
        ];
        expect(answers.map((a) => a.status)).toEqual(Array(8).fill(404));
        expect((answers[0]!.body as ErrorBody).error.code).toBe('SEGMENT_NOT_FOUND');
      }
      expect((await mine.get<SegmentBody[]>('/segments')).body).toEqual([]);
      expect((await theirs.get(`/segments/${s.id}`)).status).toBe(200);
    });

    it("a filter naming another project's segment is a 422 on POST and PATCH, read exactly as an unknown id's", async () => {
      const mine = await project();
      const theirs = await project();
      const s = await createSegment(theirs, { name: 'theirs', type: 'STATIC' });
      const own = await createSegment(mine, { name: 'own', filters: where('subscribed', 'equals', true) });
      const before = (await mine.get<SegmentBody>(`/segments/${own.id}`)).body.filters;
      const saves = (id: string) => [
        mine.post<ErrorBody>('/segments', { name: 'x', filters: where(`segment.${id}`, 'isMember') }),
        mine.patch<ErrorBody>(`/segments/${own.id}`, { condition: where(`segment.${id}`, 'isMember') }),
      ];
      const [foreign, unknown] = [await Promise.all(saves(s.id)), await Promise.all(saves('seg_unknown'))];
      for (const [i, res] of foreign.entries()) {
        expect(res.status).toBe(422);
        expect(res.body.error.errors?.[0]).toMatchObject({
          field: `${i === 0 ? 'filters' : 'condition'}.conditions[0].field`,
          code: 'FILTER_SEGMENT_UNKNOWN',
        });
        expect(refusalOf(res.status, res.body, s.id)).toEqual(
          refusalOf(unknown[i]!.status, unknown[i]!.body, 'seg_unknown'),
        );
      }
      expect((await mine.get<SegmentBody>(`/segments/${own.id}`)).body.filters).toEqual(before);
      expect((await mine.get<SegmentBody[]>('/segments')).body).toHaveLength(1);
    });
  });

  describe('members', () => {
    it('GET /segments/:id/contacts lists a dynamic segment live, page-based in a stable order; a contact written through the API appears in the live listing', async () => {
      const api = await project();
      const s = await createSegment(api, { name: 'pro', filters: where('data.plan', 'equals', 'pro') });
      const ids: string[] = [];
      for (let i = 0; i < 5; i++) ids.push((await api.upsert(`pro${i}@example.com`, { plan: 'pro' })).id);
      await api.upsert('free@example.com', { plan: 'free' });
      await contactsIn(api, s.id, 5);
      const page2 = await api.get(`/segments/${s.id}/contacts?page=2&pageSize=2`);
      expect(page2.status).toBe(200);
      expect(page2.body).toMatchObject({ total: 5, page: 2, pageSize: 2, totalPages: 3 });
      expect(page2.body.data.map((c: { id: string }) => c.id)).toEqual([...ids].sort().slice(2, 4));
      expect(page2.body.data[0]).toMatchObject({
        email: expect.stringMatching(/^pro\d@example.com$/),
        data: { plan: 'pro' },
      });

      const started = Date.now();
      const late = await api.upsert('late@example.com', { plan: 'pro' });
      await eventually(async () => (await memberIds(api, s.id)).includes(late.id), {
        timeoutMs: PROMPT_DEADLINE_MS,
        intervalMs: 20,
      });
      reportLatency('API write → live listing', started);
    });

    it('pageSize outside 1..100 and a page below 1 are 422', async () => {
      const api = await project();
      const s = await createSegment(api, { name: 's', type: 'STATIC' });
      for (const qs of ['pageSize=0', 'pageSize=101', 'page=0', 'pageSize=abc']) {
        const res = await api.get<ErrorBody>(`/segments/${s.id}/contacts?${qs}`);
        expect(res.status).toBe(422);
      }
      expect((await api.get(`/segments/${s.id}/contacts?pageSize=100`)).status).toBe(200);
    });

    it('a static segment adds members by address (added, alreadyMembers, created, notFound) and removes them', async () => {
      const api = await project();
      const s = await createSegment(api, { name: 'vip', type: 'STATIC' });
      const ada = await api.upsert('ada@example.com');
      // the read model knows ada once contact.created was applied
      await eventually(
        async () => {
          const r = await api.post(`/segments/${s.id}/members`, { emails: ['ADA@example.com'] });
          return r.status === 200 && r.body.added === 1 ? r : undefined;
        },
        { timeoutMs: PROMPT_DEADLINE_MS },
      );
      const res = await api.post(`/segments/${s.id}/members`, {
        emails: ['ada@example.com', 'nobody@example.com'],
      });
      expect(res.body).toEqual({ added: 0, alreadyMembers: 1, created: 0, notFound: 1 });
      const created = await api.post(`/segments/${s.id}/members`, {
        emails: ['new@example.com'],
        createMissing: true,
        subscribed: false,
      });
      expect(created.body).toEqual({ added: 1, alreadyMembers: 0, created: 1, notFound: 0 });
      const newContact = (await api.post('/contacts/lookup', { emails: ['new@example.com'] })).body;
      expect(JSON.stringify(newContact)).toContain('new@example.com');
      await contactsIn(api, s.id, 2);
      expect((await api.get<SegmentBody>(`/segments/${s.id}`)).body.memberCount).toBe(2);
      const removed = await api.call('DELETE', `/segments/${s.id}/members`, {
        emails: ['ada@example.com', 'other@example.com'],
      });
      expect([removed.status, removed.body]).toEqual([200, { removed: 1 }]);
      expect(await memberIds(api, s.id)).not.toContain(ada.id);
      const invalid = await api.post<ErrorBody>(`/segments/${s.id}/members`, {
        emails: ['ok@example.com', 'not an address'],
      });
      expect([invalid.status, fieldsOf(invalid.body)]).toEqual([422, ['emails[1]']]);
      const empty = await api.post<ErrorBody>(`/segments/${s.id}/members`, { emails: [] });
      expect(empty.status).toBe(422);
      const tooMany = await api.post<ErrorBody>(`/segments/${s.id}/members`, {
        emails: Array.from({ length: 1001 }, (_, i) => `m${i}@example.com`),
      });
      expect(tooMany.status).toBe(422);
    });

    it('member routes on a dynamic segment are 422', async () => {
      const api = await project();
      const s = await createSegment(api, { name: 'd', filters: where('subscribed', 'equals', true) });
      const add = await api.post<ErrorBody>(`/segments/${s.id}/members`, { emails: ['a@example.com'] });
      const remove = await api.call<ErrorBody>('DELETE', `/segments/${s.id}/members`, { emails: ['a@example.com'] });
      expect([add.status, add.body.error.code, remove.status]).toEqual([422, 'SEGMENT_TYPE_MISMATCH', 422]);
    });
  });

  describe('entry and exit', () => {
    it('a /v1/track makes a contact enter a tracked segment (segment.entered, reason change), shown on its timeline as segment.signed-up.entry', async () => {
      const api = await project();
      const contact = await api.upsert('tracker@example.com');
      const s = await createSegment(api, {
        name: 'Signed up',
        filters: where('event.signup', 'triggered'),
        trackMembership: true,
      });
      const started = Date.now();
      expect((await api.track({ email: 'tracker@example.com', event: 'signup' })).status).toBe(200);
      const events = await outbox.until(s.id, (e) => entered(e, contact.id).length > 0, PROMPT_DEADLINE_MS);
      reportLatency('/v1/track → segment.entered', started);
      expect(events).toEqual([
        {
          topic: 'segment.entered',
          payload: expect.objectContaining({
            segmentId: s.id,
            segmentName: 'Signed up',
            contactId: contact.id,
            email: 'tracker@example.com',
            reason: 'change',
          }),
        },
      ]);
      expect((await api.get<SegmentBody>(`/segments/${s.id}`)).body.memberCount).toBe(1);
      // the contact's timeline shows the entry under Plunk's name, a system event workflows trigger on
      const entry = await eventually(
        async () => {
          const res = await api.get<{ data: { name: string; system?: boolean; data: Record<string, unknown> }[] }>(
            `/events/contact/${contact.id}?limit=100`,
          );
          return res.body.data.find((e) => e.name === 'segment.signed-up.entry');
        },
        { timeoutMs: PROMPT_DEADLINE_MS },
      );
      expect(entry).toMatchObject({
        system: true,
        data: { segmentId: s.id, segmentName: 'Signed up', reason: 'change' },
      });
    });

    it('a PATCH /contacts/:id makes it leave (segment.exited), and an untracked segment fires nothing', async () => {
      const api = await project();
      const contact = await api.upsert('mover@example.com', { plan: 'pro' });
      // the contact reaches the read model first: its contact.created and the PATCHes' contact.updated
      // are different topics, which Kafka does not order between them (an older state that comes late
      // changes nothing, so a creation overtaken by the PATCHes would leave one exit, not two)
      const probe = await createSegment(api, { name: 'all', filters: where('email', 'exists') });
      await contactsIn(api, probe.id, 1);
      const tracked = await createSegment(api, {
        name: 'pro',
        filters: where('data.plan', 'equals', 'pro'),
        trackMembership: true,
      });
      const untracked = await createSegment(api, { name: 'pro2', filters: where('data.plan', 'equals', 'pro') });
      // created after the contact: a baseline without events
      expect([tracked.memberCount, untracked.memberCount]).toEqual([1, 1]);
      await api.patch(`/contacts/${contact.id}`, { data: { plan: 'free' } });
      await api.patch(`/contacts/${contact.id}`, { data: { plan: 'pro' } });
      await api.patch(`/contacts/${contact.id}`, { data: { plan: 'free' } });
      // one topic and one key: the changes come in their order, and each moves the contact
      const events = await outbox.until(tracked.id, (e) => exited(e, contact.id).length >= 2, PROMPT_DEADLINE_MS);
      expect(events.map((e) => e.topic)).toEqual(['segment.exited', 'segment.entered', 'segment.exited']);
      expect(await outbox.events(untracked.id)).toEqual([]);
    });

    it('a segment reading a newer one (a PATCH pointed it there) moves in the same change as the newer one', async () => {
      const api = await project();
      const outer = await createSegment(api, {
        name: 'outer',
        filters: where('subscribed', 'equals', false),
        trackMembership: true,
      });
      // untracked, and newer: its stored members are written in the same transaction, before outer reads them
      const inner = await createSegment(api, { name: 'inner', filters: where('data.plan', 'equals', 'pro') });
      const pointed = await api.patch(`/segments/${outer.id}`, { condition: where(`segment.${inner.id}`, 'isMember') });
      expect(pointed.status).toBe(200);
      const contact = await api.upsert('nested@example.com', { plan: 'pro' });
      await outbox.until(outer.id, (e) => entered(e, contact.id).length === 1, PROMPT_DEADLINE_MS);
      expect(await memberIds(api, inner.id)).toEqual([contact.id]);
      await api.patch(`/contacts/${contact.id}`, { data: { plan: 'free' } });
      await outbox.until(outer.id, (e) => exited(e, contact.id).length === 1, PROMPT_DEADLINE_MS);
      expect(await memberIds(api, outer.id)).toEqual([]);
      expect(await outbox.events(inner.id)).toEqual([]);
    });

    it('an unsubscribe, a resubscribe and a deletion move the contact out, in and out', async () => {
      const api = await project();
      const c = await api.upsert('sub@example.com', {}, { subscribed: true });
      const probe = await createSegment(api, { name: 'all', filters: where('email', 'exists') });
      await contactsIn(api, probe.id, 1);
      const s = await createSegment(api, {
        name: 'subscribed',
        filters: where('subscribed', 'equals', true),
        trackMembership: true,
      });
      expect(s.memberCount).toBe(1);
      await api.patch(`/contacts/${c.id}`, { subscribed: false });
      await outbox.until(s.id, (e) => exited(e, c.id).length === 1, PROMPT_DEADLINE_MS);
      await api.patch(`/contacts/${c.id}`, { subscribed: true });
      await outbox.until(s.id, (e) => entered(e, c.id).length === 1, PROMPT_DEADLINE_MS);
      await api.delete(`/contacts/${c.id}`);
      const events = await outbox.until(s.id, (e) => exited(e, c.id).length === 2, PROMPT_DEADLINE_MS);
      expect(events.map((e) => [e.topic, e.payload.reason])).toEqual([
        ['segment.exited', 'change'],
        ['segment.entered', 'change'],
        ['segment.exited', 'change'],
      ]);
      expect((await api.get<SegmentBody>(`/segments/${s.id}`)).body.memberCount).toBe(0);
    });

    it('an import row and a bulk job move contacts once they complete', async () => {
      const api = await project();
      const pro = await createSegment(api, {
        name: 'imported pro',
        filters: where('data.plan', 'equals', 'pro'),
        trackMembership: true,
      });
      const job = await api.importAndWait('email,plan\nimported@example.com,pro\nother@example.com,free\n');
      const done = Date.now();
      expect(job.status).toBe('completed');
      const [imported] = await api.allContacts('search=imported');
      await outbox.until(pro.id, (e) => entered(e, imported!.id).length === 1, PROMPT_DEADLINE_MS);
      reportLatency('import done → segment.entered', done);

      const subscribed = await createSegment(api, {
        name: 'subscribed',
        filters: where('subscribed', 'equals', true),
        trackMembership: true,
      });
      const bulk = await api.bulk('unsubscribe', [imported!.id]);
      const bulkDone = Date.now();
      expect(bulk.succeeded).toBe(1);
      await outbox.until(subscribed.id, (e) => exited(e, imported!.id).length === 1, PROMPT_DEADLINE_MS);
      reportLatency('bulk done → segment.exited', bulkDone);
    });

    it('an email event (email.opened from sending) makes the contact enter, matched by address when it has no contact id', async () => {
      const api = await project();
      const c = await api.upsert('reader@example.com');
      const probe = await createSegment(api, { name: 'all', filters: where('email', 'exists') });
      await contactsIn(api, probe.id, 1);
      const s = await createSegment(api, {
        name: 'openers',
        filters: where('email.opened', 'triggeredWithin', 1, { unit: 'days' }),
        trackMembership: true,
      });
      const started = Date.now();
      await outbox.publishAs(
        'sending',
        EmailOpened.create({
          projectId: api.projectId,
          source: 'sending',
          payload: { emailId: 'eml_e2e', email: 'reader@example.com', subject: 'Hi', origin: 'api' },
        }),
      );
      await outbox.until(s.id, (e) => entered(e, c.id).length === 1, PROMPT_DEADLINE_MS);
      reportLatency('email.opened → segment.entered', started);
    });

    it('the sweep moves a contact out of a within segment as time passes (reason sweep), never before its time', async () => {
      const api = await project();
      const s = await createSegment(api, {
        name: 'seen in the last minute',
        filters: where('data.seenAt', 'within', 1, { unit: 'minutes' }),
        trackMembership: true,
      });
      // inside the window for 20 more seconds: room for the entry to cross the bus on a loaded machine
      const seenAt = new Date(Date.now() - 40_000).toISOString();
      const c = await api.upsert('recent@example.com', { seenAt });
      await outbox.until(s.id, (e) => entered(e, c.id).length === 1, PROMPT_DEADLINE_MS, 'never entered');
      const events = await outbox.until(
        s.id,
        (e) => exited(e, c.id).length === 1,
        60_000,
        'the sweep never moved it out',
      );
      const exit = exited(events, c.id)[0]!.payload;
      expect(exit.reason).toBe('sweep');
      // the exit's own time (the product's, not the test's clock): never before the window closed
      expect(Date.parse(exit.at)).toBeGreaterThanOrEqual(Date.parse(seenAt) + 60_000);
    }, 120_000);
  });

  describe('compute and refresh', () => {
    it('compute writes what the stored membership missed, published when tracked; refresh updates the count only', async () => {
      const api = await project();
      const a = await api.upsert('a@example.com', { plan: 'pro' });
      const b = await api.upsert('b@example.com', { plan: 'pro' });
      const untracked = await createSegment(api, { name: 'u', filters: where('data.plan', 'equals', 'pro') });
      await contactsIn(api, untracked.id, 2);
      const tracked = await createSegment(api, {
        name: 't',
        filters: where('data.plan', 'equals', 'pro'),
        trackMembership: true,
      });
      expect(tracked.memberCount).toBe(2); // baseline: no events
      expect(await outbox.events(tracked.id)).toEqual([]);

      // the stored membership drifts (as if written before a bug fix): compute repairs it with events
      await outbox.query(`DELETE FROM segments.segment_memberships WHERE segment_id = $1 AND contact_id = $2`, [
        tracked.id,
        a.id,
      ]);
      await outbox.query(
        `INSERT INTO segments.segment_memberships (project_id, segment_id, contact_id) VALUES ($1, $2, 'cnt_gone')`,
        [api.projectId, tracked.id],
      );
      const computed = await api.post(`/segments/${tracked.id}/compute`);
      expect([computed.status, computed.body]).toEqual([200, { added: 1, removed: 1, total: 2 }]);
      const events = await outbox.events(tracked.id);
      expect(events.map((e) => [e.topic, e.payload.contactId, e.payload.reason])).toEqual([
        ['segment.entered', a.id, 'compute'],
      ]);
      expect((await api.post(`/segments/${tracked.id}/compute`)).body).toEqual({ added: 0, removed: 0, total: 2 });

      // untracked: its members are stored and counted as the contacts change, silently
      await api.upsert('c@example.com', { plan: 'pro' });
      await contactsIn(api, untracked.id, 3);
      // (its count at creation is the baseline's: a and b may not have reached the read model yet)
      // the count moved with the entry (written in the transaction of the contact's change)
      expect((await api.get<SegmentBody>(`/segments/${untracked.id}`)).body.memberCount).toBe(3);
      const refreshed = await api.post<SegmentBody>(`/segments/${untracked.id}/refresh`);
      expect([refreshed.status, refreshed.body.memberCount]).toEqual([200, 3]);
      const stored = async () =>
        (
          await outbox.query(`SELECT contact_id FROM segments.segment_memberships WHERE segment_id = $1 ORDER BY 1`, [
            untracked.id,
          ])
        ).rows.length;
      expect(await stored()).toBe(3);
      // compute repairs a drift of an untracked segment too, and publishes nothing
      await outbox.query(`DELETE FROM segments.segment_memberships WHERE segment_id = $1 AND contact_id = $2`, [
        untracked.id,
        b.id,
      ]);
      expect((await api.post(`/segments/${untracked.id}/compute`)).body).toEqual({ added: 1, removed: 0, total: 3 });
      expect(await stored()).toBe(3);
      expect(await outbox.events(untracked.id)).toEqual([]);
      expect(b.id).toBeTruthy();
    });

    it('changing the condition of a tracked segment recomputes it with events', async () => {
      const api = await project();
      const pro = await api.upsert('p@example.com', { plan: 'pro' });
      const free = await api.upsert('f@example.com', { plan: 'free' });
      const probe = await createSegment(api, { name: 'all', filters: where('email', 'exists') });
      await contactsIn(api, probe.id, 2);
      const s = await createSegment(api, {
        name: 't',
        filters: where('data.plan', 'equals', 'pro'),
        trackMembership: true,
      });
      const res = await api.patch<SegmentBody>(`/segments/${s.id}`, {
        condition: where('data.plan', 'equals', 'free'),
      });
      expect(res.body.memberCount).toBe(1);
      const events = await outbox.events(s.id);
      expect(events.map((e) => [e.topic, e.payload.contactId, e.payload.reason]).sort()).toEqual(
        [
          ['segment.entered', free.id, 'compute'],
          ['segment.exited', pro.id, 'compute'],
        ].sort(),
      );
    });
  });

  it('a value of the wrong type for a registered field is a 422 FILTER_VALUE_TYPE, never a 500', async () => {
    const api = await project();
    await api.upsert('typed@example.com', { age: 30 });
    const probe = await createSegment(api, { name: 'all', filters: where('email', 'exists') });
    await contactsIn(api, probe.id, 1);
    const res = await api.post<ErrorBody>('/segments', { name: 'x', filters: where('data.age', 'equals', 'thirty') });
    expect(res.status).toBe(422);
    expect(res.body.error.errors?.[0]).toMatchObject({
      field: 'filters.conditions[0].value',
      code: 'FILTER_VALUE_TYPE',
    });
    expect((await api.post('/segments', { name: 'ok', filters: where('data.age', 'gte', 18) })).status).toBe(201);
  });

  it('after DELETE /contacts/fields/:field a segment referencing it remains and stops matching on it', async () => {
    const api = await project();
    const c = await api.upsert('fielded@example.com', { tier: 'gold' });
    const s = await createSegment(api, { name: 'gold', filters: where('data.tier', 'equals', 'gold') });
    await contactsIn(api, s.id, 1);
    expect(await memberIds(api, s.id)).toEqual([c.id]);
    const deleted = await api.delete('/contacts/fields/data.tier');
    expect([200, 202]).toContain(deleted.status);
    await contactsIn(api, s.id, 0);
    expect((await api.get<SegmentBody>(`/segments/${s.id}`)).status).toBe(200);
  });

  it('usage: GET /contacts/fields/:field/usage and GET /events/:name/usage list the segments that reference them', async () => {
    const api = await project();
    await api.upsert('u@example.com', { plan: 'pro' });
    const s = await createSegment(api, {
      name: 'pro buyers',
      filters: {
        operator: 'AND',
        conditions: [
          { field: 'data.plan', operator: 'equals', value: 'pro' },
          { field: 'event.purchase', operator: 'triggered' },
        ],
      },
    });
    await eventually(
      async () => {
        const f = await api.get(`/contacts/fields/data.plan/usage`);
        return JSON.stringify(f.body).includes(s.id);
      },
      { timeoutMs: PROMPT_DEADLINE_MS },
    );
    await eventually(async () => JSON.stringify((await api.get(`/events/purchase/usage`)).body).includes(s.id), {
      timeoutMs: PROMPT_DEADLINE_MS,
    });
    await api.delete(`/segments/${s.id}`);
    await eventually(
      async () => !JSON.stringify((await api.get(`/contacts/fields/data.plan/usage`)).body).includes(s.id),
      { timeoutMs: PROMPT_DEADLINE_MS },
    );
  });
});

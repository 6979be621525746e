import { e2eMode, startTopology, type Topology } from '@herald/testing';
import { fieldsOf, newProject, type ErrorBody, type TestProjectApi } from './contacts-helpers.js';
import type { SegmentBody } from './segments-helpers.js';

/**
 * `POST /segments/count` (docs/segments.md): how many contacts a filter matches now, without saving
 * it — the dashboard's live count as a filter is built. Checked as a segment's filter is; counted as
 * a segment's live count is; the project's contacts only; nothing is written.
 */
describe(`POST /segments/count (${e2eMode()})`, () => {
  let herald: Topology;

  beforeAll(async () => {
    herald = await startTopology({ env: { RATE_LIMIT_PER_MINUTE: '100000' } });
  }, 240_000);

  afterAll(async () => {
    await herald?.stop();
  }, 60_000);

  const pro = {
    operator: 'AND',
    conditions: [
      { field: 'data.plan', operator: 'equals', value: 'pro' },
      {
        operator: 'OR',
        conditions: [
          { field: 'data.seats', operator: 'gte', value: 5 },
          { field: 'data.seats', operator: 'lt', value: 2 },
        ],
      },
    ],
  };

  async function projectWithContacts(): Promise<TestProjectApi> {
    const api = await newProject(herald.url);
    for (let i = 0; i < 8; i++) {
      const res = await api.post('/contacts', {
        email: `c${i}@example.com`,
        data: { plan: i % 2 === 0 ? 'pro' : 'free', seats: i },
      });
      expect(res.status).toBe(201);
    }
    return api;
  }

  it("answers the filter's count without saving it, equal to the members a segment with that filter lists", async () => {
    const api = await projectWithContacts();
    // pro: seats 0, 2, 4, 6; of them seats ≥ 5 or < 2: 6 and 0
    // read at once: read-your-writes holds the count until segments' copy has the contacts just written
    const answer = await api.post<{ total: number }>('/segments/count', { filters: pro });
    expect(answer.status).toBe(200);
    const count = answer.body;
    expect(count).toEqual({ total: 2 });
    expect((await api.get<SegmentBody[]>('/segments')).body).toEqual([]); // nothing saved
    const saved = await api.post<SegmentBody>('/segments', { name: 'Pro', filters: pro });
    const members = await api.get<{ total: number }>(`/segments/${saved.body.id}/contacts`);
    expect(members.body.total).toBe(count.total);
    // the same filter under the name condition; an empty AND counts every contact
    expect((await api.post<{ total: number }>('/segments/count', { condition: pro })).body).toEqual({ total: 2 });
    expect(
      (await api.post<{ total: number }>('/segments/count', { filters: { operator: 'AND', conditions: [] } })).body,
    ).toEqual({
      total: 8,
    });
  });

  it('previews the first members the filter matches (preview: n, at most 20) in contact id order, with the same total', async () => {
    const api = await projectWithContacts();
    const answer = await api.post<{ total: number; preview: { email: string }[] }>('/segments/count', {
      filters: pro,
      preview: 5,
    });
    expect(answer.status).toBe(200);
    expect(answer.body.total).toBe(2);
    const saved = await api.post<SegmentBody>('/segments', { name: 'Pro', filters: pro });
    const members = await api.get<{ data: { email: string }[] }>(`/segments/${saved.body.id}/contacts`);
    expect(answer.body.preview.map((m) => m.email)).toEqual(members.body.data.map((m) => m.email));
    const one = await api.post<{ preview: unknown[] }>('/segments/count', {
      filters: { operator: 'AND', conditions: [] },
      preview: 1,
    });
    expect(one.body.preview).toHaveLength(1);
    const tooMany = await api.post<ErrorBody>('/segments/count', { filters: pro, preview: 21 });
    expect(tooMany.status).toBe(422);
    expect(fieldsOf(tooMany.body)).toEqual(['preview']);
  });

  it("counts the caller's project's contacts only", async () => {
    await projectWithContacts();
    const other = await newProject(herald.url);
    expect((await other.post<{ total: number }>('/segments/count', { filters: pro })).body).toEqual({ total: 0 });
  });

  it('refuses an invalid filter with a 422 on the part at fault, and a body without a filter on filters', async () => {
    const api = await newProject(herald.url);
    const bad = await api.post<ErrorBody>('/segments/count', {
      filters: { operator: 'AND', conditions: [{ field: 'data.seats', operator: 'gt', value: 'abc' }] },
    });
    expect(bad.status).toBe(422);
    expect(fieldsOf(bad.body)).toEqual(['filters.conditions[0].value']);
    const none = await api.post<ErrorBody>('/segments/count', {});
    expect(none.status).toBe(422);
    expect(fieldsOf(none.body)).toEqual(['filters']);
  });
});

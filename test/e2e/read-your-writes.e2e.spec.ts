import { e2eMode, startTopology, type Topology } from '@herald/testing';
import { csv, newProject, type ContactBody, type Reply, type TestProjectApi } from './contacts-helpers.js';
import { createSegment, where } from './segments-helpers.js';

/** Write-then-read pairs, each repeated this many times in a row with no wait between the two. */
const ROUNDS = 100;

interface MembersPage {
  data: { id: string }[];
  total: number;
}

/**
 * Read-your-writes (docs/consistency.md): a request observes every write its project made before
 * it, whichever service made it and whichever answers. Each pair writes through the gateway and reads
 * through the gateway at once, ROUNDS times in a row: contact writes (create, patch, unsubscribe,
 * delete, track, import and bulk jobs) against what segments answers from its copy of contacts, and
 * resource writes against the usage routes. Nothing here waits for a copy: a stale answer fails the
 * round it happens in (the waits left are for jobs to finish, as a user polls a job). Campaign
 * audiences, schedules, domains and a held-back copy: read-your-writes-campaigns.e2e.spec.ts;
 * workflows: read-your-writes-workflows.e2e.spec.ts.
 */
describe(`read-your-writes: contacts and segments (${e2eMode()})`, () => {
  let herald: Topology;
  let owner: string;

  beforeAll(async () => {
    herald = await startTopology();
    owner = (await newProject(herald.url)).cookie;
  }, 300_000);

  afterAll(async () => {
    await herald?.stop();
  }, 60_000);

  const project = () => newProject(herald.url, owner);

  async function created(api: TestProjectApi, email: string, data: Record<string, unknown> = {}): Promise<ContactBody> {
    const res = await api.post<ContactBody>('/contacts', { email, data });
    expect(res.status).toBe(201);
    return res.body;
  }

  /** Whether `contactId` is on the segment's first page of members, and the listing's total. */
  async function listing(api: TestProjectApi, segmentId: string, contactId: string) {
    const res: Reply<MembersPage> = await api.get(`/segments/${segmentId}/contacts?pageSize=100`);
    expect(res.status).toBe(200);
    return { listed: res.body.data.some((c) => c.id === contactId), total: res.body.total };
  }

  async function memberCount(api: TestProjectApi, segmentId: string): Promise<number> {
    const res = await api.get<{ memberCount: number }>(`/segments/${segmentId}`);
    expect(res.status).toBe(200);
    return res.body.memberCount;
  }

  it.concurrent(
    'a contact created is at once in the listing and the count of a dynamic segment',
    async () => {
      const api = await project();
      const segment = await createSegment(api, { name: 'Tagged', filters: where('data.tag', 'equals', 'rw') });
      for (let i = 1; i <= ROUNDS; i++) {
        const contact = await created(api, `c${i}@rw.test`, { tag: 'rw' });
        const page = await api.get<MembersPage>(
          `/segments/${segment.id}/contacts?page=${Math.ceil(i / 100)}&pageSize=100`,
        );
        const seen = { listed: page.body.data.some((c) => c.id === contact.id), total: page.body.total };
        expect({ round: i, ...seen, memberCount: await memberCount(api, segment.id) }).toEqual({
          round: i,
          listed: true,
          total: i,
          memberCount: i,
        });
      }
    },
    300_000,
  );

  it.concurrent(
    'a PATCH of a contact moves it in and out of a dynamic segment at once',
    async () => {
      const api = await project();
      const contact = await created(api, 'patched@rw.test', { tier: 'silver' });
      const gold = await createSegment(api, { name: 'Gold', filters: where('data.tier', 'equals', 'gold') });
      for (let i = 1; i <= ROUNDS; i++) {
        const tier = i % 2 === 1 ? 'gold' : 'silver';
        expect((await api.patch(`/contacts/${contact.id}`, { data: { tier } })).status).toBe(200);
        expect({ round: i, ...(await listing(api, gold.id, contact.id)) }).toEqual({
          round: i,
          listed: tier === 'gold',
          total: tier === 'gold' ? 1 : 0,
        });
      }
    },
    300_000,
  );

  it.concurrent(
    'an unsubscribe (and a subscribe) moves the contact out of (and into) a segment of subscribers at once',
    async () => {
      const api = await project();
      const contact = await created(api, 'subscriber@rw.test');
      const subscribers = await createSegment(api, {
        name: 'Subscribers',
        filters: where('subscribed', 'equals', true),
      });
      for (let i = 1; i <= ROUNDS; i++) {
        const subscribed = i % 2 === 0;
        expect((await api.patch(`/contacts/${contact.id}`, { subscribed })).status).toBe(200);
        expect({ round: i, ...(await listing(api, subscribers.id, contact.id)) }).toEqual({
          round: i,
          listed: subscribed,
          total: subscribed ? 1 : 0,
        });
      }
    },
    300_000,
  );

  it.concurrent(
    'a contact deleted leaves the listing and the count at once',
    async () => {
      const api = await project();
      const everyone = await createSegment(api, { name: 'Everyone', filters: where('email', 'contains', '@') });
      for (let i = 1; i <= ROUNDS; i++) {
        const contact = await created(api, `d${i}@rw.test`);
        expect({ round: i, ...(await listing(api, everyone.id, contact.id)) }).toEqual({
          round: i,
          listed: true,
          total: 1,
        });
        expect((await api.delete(`/contacts/${contact.id}`)).status).toBe(200);
        expect({
          round: i,
          ...(await listing(api, everyone.id, contact.id)),
          memberCount: await memberCount(api, everyone.id),
        }).toEqual({ round: i, listed: false, total: 0, memberCount: 0 });
      }
    },
    300_000,
  );

  it.concurrent(
    'a tracked event puts its contact at once in a segment of those who triggered it',
    async () => {
      const api = await project();
      const buyers = await createSegment(api, { name: 'Buyers', filters: where('event.purchase', 'triggered') });
      for (let i = 1; i <= ROUNDS; i++) {
        const tracked = await api.track({ email: `t${i}@rw.test`, event: 'purchase' });
        expect(tracked.status).toBe(200);
        const contactId = (tracked.body as { data: { contact: string } }).data.contact;
        expect({ round: i, ...(await listing(api, buyers.id, contactId)) }).toEqual({
          round: i,
          listed: true,
          total: i,
        });
      }
    },
    300_000,
  );

  it.concurrent(
    'a static segment finds every contact written before: members are added, never "not found", and createMissing creates no duplicate',
    async () => {
      const api = await project();
      const list = await createSegment(api, { name: 'VIP', type: 'STATIC' });
      for (let i = 1; i <= ROUNDS; i++) {
        const contact = await created(api, `s${i}@rw.test`);
        const added = await api.post(`/segments/${list.id}/members`, {
          emails: [contact.email],
          ...(i % 2 === 0 ? { createMissing: true } : {}),
        });
        expect({ round: i, status: added.status, body: added.body }).toEqual({
          round: i,
          status: 200,
          body: { added: 1, alreadyMembers: 0, created: 0, notFound: 0 },
        });
      }
      expect((await api.allContacts()).length).toBe(ROUNDS);
      expect(await memberCount(api, list.id)).toBe(ROUNDS);
    },
    300_000,
  );

  it.concurrent(
    'a finished import is at once in the listing of a segment over the imported data',
    async () => {
      const api = await project();
      const imported = await createSegment(api, { name: 'Imported', filters: where('data.source', 'equals', 'csv') });
      for (let i = 1; i <= ROUNDS; i++) {
        const job = await api.importAndWait(csv(['email', 'source'], [`i${i}@rw.test`, 'csv']));
        expect(job).toMatchObject({ status: 'completed', imported: 1 });
        const page = await api.get<MembersPage>(
          `/segments/${imported.id}/contacts?page=${Math.ceil(i / 100)}&pageSize=100`,
        );
        expect({ round: i, total: page.body.total }).toEqual({ round: i, total: i });
      }
    },
    300_000,
  );

  it.concurrent(
    'a finished bulk unsubscribe is at once out of a segment of subscribers',
    async () => {
      const api = await project();
      const subscribers = await createSegment(api, {
        name: 'Subscribers',
        filters: where('subscribed', 'equals', true),
      });
      for (let i = 1; i <= ROUNDS; i++) {
        const contact = await created(api, `b${i}@rw.test`);
        expect(await api.bulk('unsubscribe', [contact.id])).toMatchObject({ status: 'completed', succeeded: 1 });
        expect({ round: i, ...(await listing(api, subscribers.id, contact.id)) }).toEqual({
          round: i,
          listed: false,
          total: 0,
        });
      }
    },
    300_000,
  );

  it.concurrent(
    'a segment created is at once in the usage of the fields and events its filter names',
    async () => {
      const api = await project();
      // the usage of a field is answered for fields the project has (a contact holds each)
      await created(
        api,
        'fields@rw.test',
        Object.fromEntries(Array.from({ length: ROUNDS }, (_, i) => [`f${i + 1}`, 'x'])),
      );
      for (let i = 1; i <= ROUNDS; i++) {
        const segment = await createSegment(api, {
          name: `Uses ${i}`,
          filters: {
            operator: 'AND',
            conditions: [
              { field: `data.f${i}`, operator: 'equals', value: 'x' },
              { field: `event.e${i}`, operator: 'triggered' },
            ],
          },
        });
        const fields = await api.get<{ segments: { id: string }[] }>(`/contacts/fields/data.f${i}/usage`);
        const events = await api.get<{ segments: { id: string }[] }>(`/events/e${i}/usage`);
        expect({ round: i, field: fields.body.segments, event: events.body.segments }).toEqual({
          round: i,
          field: [expect.objectContaining({ id: segment.id })],
          event: [expect.objectContaining({ id: segment.id })],
        });
      }
    },
    300_000,
  );
});
